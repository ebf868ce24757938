rule refit_reduction:
    """One UMAP refit under another seed for the stability check; one job per seed, so they run
    side by side (and beside reduce_embeddings); reused by clustering tweaks."""
    input:
        embeddings="results/embed/embeddings.parquet",
    output:
        refit="results/evaluation/refits/{seed}.parquet",
    log:
        "results/logs/refit_reduction/{seed}.log",
    benchmark:
        "results/benchmarks/refit_reduction/{seed}.tsv"
    threads: 1
    params:
        code=script_code("refit_reduction"),  # modules, package data, library versions: a change reruns it
        umap=config["umap"],
        # only what decides whether and how UMAP runs: an outlier or cohesion tweak keeps the refits
        clustering={key: config["clustering"][key] for key in ("method", "small_corpus", "cuml")},
        sample=config["evaluation"]["stability_sample"],
        random_state=config["random_state"],
    script:
        "../scripts/refit_reduction.py"


rule assess_stability:
    """Re-cluster every refit (or, for Ward's seedless clustering, subsamples) and compare with
    the run's topics: which topics survive a new seed or a perturbed listing?"""
    input:
        embeddings="results/embed/embeddings.parquet",
        clusters="results/cluster/clusters.parquet",
        cluster_params="results/cluster/params.json",
        refits=stability_refits,
    output:
        stability="results/evaluation/stability.json",
    log:
        "results/logs/assess_stability.log",
    benchmark:
        "results/benchmarks/assess_stability.tsv"
    params:
        code=job_module("papertopics.evaluate.refits"),  # modules, package data, library versions: a change reruns it
        clustering=config["clustering"],
        hdbscan=config["hdbscan"],
        agglomerative=config["agglomerative"],
        runs=config["evaluation"]["stability_runs"],
        subsample=config["evaluation"]["stability_subsample"],
        random_state=config["random_state"],
    run:
        from papertopics.evaluate.refits import assess_stability_job

        run_job(assess_stability_job, input, output, params, threads, log)


rule evaluate_topics:
    """The figures a researcher checks first (coherence, diversity, validity, stability)."""
    input:
        corpus="results/corpus/corpus.parquet",
        windows="results/corpus/window_tokens.npz",
        corpus_stats="results/corpus/corpus_stats.json",
        embed_stats="results/embed/embed_stats.json",
        embeddings="results/embed/embeddings.parquet",
        reduced="results/reduce/reduced.parquet",
        cluster_params="results/cluster/params.json",
        stability="results/evaluation/stability.json",
        # the fitted tables: the metrics need no names, so a rename never reruns this job
        documents="results/topics/fit/document_topics.csv",
        topics="results/topics/fit/topics.csv",
    output:
        metrics="results/metrics.json",
    log:
        "results/logs/evaluate_topics.log",
    benchmark:
        "results/benchmarks/evaluate_topics.tsv"
    params:
        code=job_module("papertopics.evaluate.metrics"),  # modules, package data, library versions: a change reruns it
        top_n=config["evaluation"]["npmi_top_n"],
        vectorizer=config["vectorizer"],
        random_state=config["random_state"],
    run:
        from papertopics.evaluate.metrics import evaluate_topics_job

        run_job(evaluate_topics_job, input, output, params, threads, log)
