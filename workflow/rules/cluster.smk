rule cluster_documents:
    """Assign each document a cluster (-1: outlier); parameters resolved from corpus size."""
    input:
        script=SCRIPTS / "cluster_documents.py",  # an edited script reruns the job, as under script:
        embeddings="results/embed/embeddings.parquet",
        reduced="results/reduce/reduced.parquet",
    output:
        clusters="results/cluster/clusters.parquet",
        params="results/cluster/params.json",
    log:
        "results/logs/cluster_documents.log",
    benchmark:
        "results/benchmarks/cluster_documents.tsv"
    params:
        clustering=config["clustering"],
        hdbscan=config["hdbscan"],
        agglomerative=config["agglomerative"],
    run:
        run_script(
            input,
            output,
            params,
            wildcards,
            threads,
            resources,
            log,
            rule,
            config,
        )
