from papertopics.cluster.pinned import example_files

# topics.pinned: each pinned topic's vector (its name, and its example papers), made once per edit
PINNED_VECTORS = ["results/cluster/pinned_topics.parquet"] if config["topics"]["pinned"] else []
try:
    PINNED_EXAMPLES = example_files(config["topics"]["pinned"], Path.cwd())
except PapertopicsError as error:
    sys.exit(f"papertopics error: {error}")


rule pin_topics:
    """The pinned topics (config.yaml topics.pinned) embedded with the documents' model: "a paper
    about <name>" (and its description), with its example papers' mean at equal weight."""
    input:
        examples=PINNED_EXAMPLES,  # an edited example listing reruns it
        embeddings="results/embed/embeddings.parquet",  # the corpus' mean: examples are seen from it
    output:
        pinned="results/cluster/pinned_topics.parquet",
    log:
        "results/logs/pin_topics.log",
    benchmark:
        "results/benchmarks/pin_topics.tsv"
    threads: 1
    params:
        **{key: config["embedding"][key] for key in ENCODER_KEYS},
        code=job_module("papertopics.cluster.pinned"),  # modules, package data, library versions: a change reruns it
        pinned=config["topics"]["pinned"],
        cache_dir=config["embedding"]["cache_dir"],
        # example listings by content, as listings are: new papers under an old date rerun it
        examples_content=[
            listing_fingerprint(path, Path(".snakemake/papertopics/listing-hashes.json"))
            for path in PINNED_EXAMPLES
        ],
    run:
        from papertopics.cluster.pinned import pin_topics_job

        run_job(pin_topics_job, input, output, params, threads, log)


rule cluster_documents:
    """Assign each document a cluster (-1: outlier); parameters resolved from corpus size."""
    input:
        embeddings="results/embed/embeddings.parquet",
        reduced="results/reduce/reduced.parquet",
        pinned=PINNED_VECTORS,  # topics.pinned (none: no pin_topics job)
    output:
        clusters="results/cluster/clusters.parquet",
        params="results/cluster/params.json",
    log:
        "results/logs/cluster_documents.log",
    benchmark:
        "results/benchmarks/cluster_documents.tsv"
    params:
        code=job_module("papertopics.cluster.stage"),  # modules, package data, library versions: a change reruns it
        clustering=config["clustering"],
        hdbscan=config["hdbscan"],
        agglomerative=config["agglomerative"],
        pinned_min_similarity=config["topics"]["pinned_min_similarity"] if PINNED_VECTORS else None,
    run:
        from papertopics.cluster.stage import cluster_documents_job

        run_job(cluster_documents_job, input, output, params, threads, log)
