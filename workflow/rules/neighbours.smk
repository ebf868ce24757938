# Similar papers: each document's nearest documents by embedding (exact cosine, blockwise), for the
# document map's "similar papers" and for notebooks.


rule find_neighbours:
    """results/topics/neighbours.csv: doc_id, rank, neighbour_id, similarity; k per document."""
    input:
        embeddings="results/embed/embeddings.parquet",
    output:
        neighbours="results/topics/neighbours.csv",
    log:
        "results/logs/find_neighbours.log",
    benchmark:
        "results/benchmarks/find_neighbours.tsv"
    params:
        code=script_code("find_neighbours"),  # modules, package data, library versions: a change reruns it
        k=config["report"]["similar_papers"],
    script:
        "../scripts/find_neighbours.py"
