rule fit_topics:
    """c-TF-IDF on the given clusters (BERTopic's, from per-corpus term counts), names, stable
    ids; the BERTopic model folder and the tables."""
    input:
        code=job_module("papertopics.topics.fit"),  # an edit reruns the job
        corpus="results/corpus/corpus.parquet",
        embeddings="results/embed/embeddings.parquet",
        clusters="results/cluster/clusters.parquet",
        terms="results/corpus/term_counts.npz",
        names="results/corpus/name_index.pkl",
        phrases="results/embed/phrase_vectors.parquet",
    output:
        model=directory("results/topics/model"),
        documents="results/topics/document_topics.csv",
        topics="results/topics/topics.csv",
        changes="results/topics/changes.csv",
        snapshot=directory("results/topics/snapshot"),
        hierarchy="results/topics/hierarchy.csv",
    log:
        "results/logs/fit_topics.log",
    benchmark:
        "results/benchmarks/fit_topics.tsv"
    params:
        vectorizer=config["vectorizer"],
        representation=config["representation"],
        topics=config["topics"],
        mixed_cohesion=config["clustering"]["mixed_cohesion"],
        embedding_model=config["embedding"]["model"],
        history="results/topics/history",
    run:
        from papertopics.topics.fit import fit_topics_job

        run_job(fit_topics_job, input, output, params, threads, log)


rule write_workbook:
    """results/topics/topics.xlsx: topics and documents sheets for spreadsheet users.

    Its own light job in its own process (XlsxWriter), beside the report: a report tweak
    never reruns it, a re-cluster writes it while the pages render.
    """
    input:
        topics="results/topics/topics.csv",
        documents="results/topics/document_topics.csv",
    output:
        workbook="results/topics/topics.xlsx",
    log:
        "results/logs/write_workbook.log",
    benchmark:
        "results/benchmarks/write_workbook.tsv"
    script:
        "../scripts/write_workbook.py"
