rule cluster_documents:
    """Assign each document a cluster (-1: outlier); parameters resolved from corpus size."""
    input:
        code=job_module("papertopics.cluster.clustering"),  # an edit reruns the job
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
        random_state=config["random_state"],
    run:
        from papertopics.cluster.clustering import cluster_documents_job

        run_job(cluster_documents_job, input, output, params, threads, log)
