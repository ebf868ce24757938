rule reduce_embeddings:
    """UMAP twice in one process (the JIT is paid once): n-D for clustering, 2-D for the map."""
    input:
        embeddings="results/embed/embeddings.parquet",
    output:
        reduced="results/reduce/reduced.parquet",
        map2d="results/reduce/map2d.parquet",
    log:
        "results/logs/reduce_embeddings.log",
    benchmark:
        "results/benchmarks/reduce_embeddings.tsv"
    threads: 1  # UMAP with a fixed random_state runs single-threaded; the refits use the other cores
    params:
        code=script_code("reduce_embeddings"),  # modules, package data, library versions: a change reruns it
        umap=config["umap"],
        cuml=config["clustering"]["cuml"],
        random_state=config["random_state"],
    script:
        "../scripts/reduce_embeddings.py"
