rule refit_reductions:
    """UMAP refits under other seeds for the stability check; reused by clustering tweaks."""
    input:
        embeddings="results/embed/embeddings.parquet",
    output:
        refits="results/evaluation/refits.parquet",
    params:
        umap=config["umap"],
        clustering=config["clustering"],
        runs=config["evaluation"]["stability_runs"],
        sample=config["evaluation"]["stability_sample"],
        random_state=config["random_state"],
    threads: 2
    log:
        "results/logs/refit_reductions.log",
    benchmark:
        "results/benchmarks/refit_reductions.tsv"
    script:
        "../scripts/refit_reductions.py"


rule assess_stability:
    """Re-cluster every refit and compare with the run's topics: which topics survive a new seed?"""
    input:
        embeddings="results/embed/embeddings.parquet",
        clusters="results/cluster/clusters.parquet",
        cluster_params="results/cluster/params.json",
        refits="results/evaluation/refits.parquet",
    output:
        stability="results/evaluation/stability.json",
    params:
        clustering=config["clustering"],
        hdbscan=config["hdbscan"],
        agglomerative=config["agglomerative"],
        random_state=config["random_state"],
    log:
        "results/logs/assess_stability.log",
    benchmark:
        "results/benchmarks/assess_stability.tsv"
    script:
        "../scripts/assess_stability.py"


rule evaluate_topics:
    """The figures a researcher checks first (coherence, diversity, validity, stability)."""
    input:
        corpus="results/corpus/corpus.parquet",
        corpus_stats="results/corpus/corpus_stats.json",
        embed_stats="results/embed/embed_stats.json",
        embeddings="results/embed/embeddings.parquet",
        reduced="results/reduce/reduced.parquet",
        cluster_params="results/cluster/params.json",
        stability="results/evaluation/stability.json",
        documents="results/topics/document_topics.csv",
        topics="results/topics/topics.csv",
    output:
        metrics="results/metrics.json",
    params:
        top_n=config["evaluation"]["npmi_top_n"],
        vectorizer=config["vectorizer"],
        random_state=config["random_state"],
    log:
        "results/logs/evaluate_topics.log",
    benchmark:
        "results/benchmarks/evaluate_topics.tsv"
    script:
        "../scripts/evaluate_topics.py"
