from papertopics.topics.curate import fit_settings


rule fit_topics:
    """c-TF-IDF on the given clusters (BERTopic's, from per-corpus term counts), names, stable
    ids; the BERTopic model folder and the tables."""
    input:
        code=job_module("papertopics.topics.fit"),  # the package modules it runs: an edit reruns the job
        corpus="results/corpus/corpus.parquet",
        embeddings="results/embed/embeddings.parquet",
        clusters="results/cluster/clusters.parquet",
        terms="results/corpus/term_counts.npz",
        names="results/corpus/name_index.pkl",
        phrases="results/embed/phrase_vectors.parquet",
    output:
        model=directory("results/topics/model"),
        # the fitted tables; curate_topics puts the reader's names on them (results/topics/*.csv)
        documents="results/topics/fit/document_topics.csv",
        topics="results/topics/fit/topics.csv",
        changes="results/topics/fit/changes.csv",
        snapshot=directory("results/topics/snapshot"),
        hierarchy="results/topics/fit/hierarchy.csv",
    log:
        "results/logs/fit_topics.log",
    benchmark:
        "results/benchmarks/fit_topics.tsv"
    params:
        vectorizer=config["vectorizer"],
        representation=config["representation"],
        topics=fit_settings(config["topics"]),  # not topics.names: a rename never refits
        mixed_cohesion=config["clustering"]["mixed_cohesion"],
        embedding_model=config["embedding"]["model"],
        history="results/topics/history",
    run:
        from papertopics.topics.fit import fit_topics_job

        run_job(fit_topics_job, input, output, params, threads, log)


rule curate_topics:
    """The reader's curation (config.yaml topics.names, the pinned topics' names) on the fitted
    tables, and pinned.csv: a light job, so a rename reruns it and the report, never the fit. A
    name whose topic is gone is a warning."""
    input:
        code=job_module("papertopics.topics.curate"),  # the package modules it runs: an edit reruns the job
        topics="results/topics/fit/topics.csv",
        documents="results/topics/fit/document_topics.csv",
        changes="results/topics/fit/changes.csv",
        hierarchy="results/topics/fit/hierarchy.csv",
        clusters="results/cluster/clusters.parquet",  # the pinned papers' similarities
        snapshot="results/topics/snapshot",  # this fit's topics: "what changed" after a rename
    output:
        topics="results/topics/topics.csv",
        documents="results/topics/document_topics.csv",
        changes="results/topics/changes.csv",
        hierarchy="results/topics/hierarchy.csv",
        pinned="results/topics/pinned.csv",  # topics.pinned: each pinned topic's papers, nearest first
    log:
        "results/logs/curate_topics.log",
    benchmark:
        "results/benchmarks/curate_topics.tsv"
    params:
        names=config["topics"]["names"],
        pinned=config["topics"]["pinned"],
        # names are ids of a finished run the reader saw: none yet, they wait (and apply, by
        # this value changing, on the next run)
        finished_run=Path("results/topics/history/current.json").is_file() or not config["topics"]["names"],
        history="results/topics/history",  # read by the job, never a trigger
    run:
        from papertopics.topics.curate import curate_topics_job

        run_job(curate_topics_job, input, output, params, threads, log)


rule write_workbook:
    """results/topics/topics.xlsx: topics and documents sheets for spreadsheet users.

    Its own light job in its own process (XlsxWriter), beside the report: a report tweak
    never reruns it, a re-cluster writes it while the pages render.
    """
    input:
        topics="results/topics/topics.csv",
        documents="results/topics/document_topics.csv",
        pinned="results/topics/pinned.csv",
        over_time="results/topics/over_time.csv",  # describe_topics (report.smk): sheets when not empty
        trends="results/topics/topic_trends.csv",
        sources="results/topics/topic_sources.csv",
        thematic="results/topics/thematic_map.csv",
        citations="results/topics/topic_citations.csv",
        most_cited="results/topics/most_cited.csv",
        code=script_code("write_workbook"),  # the package modules it runs: an edit reruns the job
    output:
        workbook="results/topics/topics.xlsx",
    log:
        "results/logs/write_workbook.log",
    benchmark:
        "results/benchmarks/write_workbook.tsv"
    script:
        "../scripts/write_workbook.py"
