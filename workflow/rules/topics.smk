rule fit_topics:
    """BERTopic on the given clusters: c-TF-IDF keywords, labels, saved model and tables."""
    input:
        corpus="results/corpus/corpus.parquet",
        embeddings="results/embed/embeddings.parquet",
        clusters="results/cluster/clusters.parquet",
    output:
        model=directory("results/topics/model"),
        documents="results/topics/document_topics.csv",
        topics="results/topics/topics.csv",
    params:
        vectorizer=config["vectorizer"],
        representation=config["representation"],
        topics=config["topics"],
        embedding_model=config["embedding"]["model"],
        random_state=config["random_state"],
    log:
        "results/logs/fit_topics.log",
    benchmark:
        "results/benchmarks/fit_topics.tsv"
    script:
        "../scripts/fit_topics.py"
