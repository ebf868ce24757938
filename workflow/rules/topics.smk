from papertopics.report.registry import page_outputs
from papertopics.topics.curate import fit_settings


rule fit_topics:
    """c-TF-IDF on the given clusters (BERTopic's, from per-corpus term counts), names, stable
    ids; the BERTopic model folder and the tables."""
    input:
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
        code=job_module("papertopics.topics.fit"),  # modules, package data, library versions: a change reruns it
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
        code=job_module("papertopics.topics.curate"),  # modules, package data, library versions: a change reruns it
        names=config["topics"]["names"],
        pinned=config["topics"]["pinned"],
        # names are ids of a finished run the reader saw: none yet, they wait (and apply, by
        # this value changing, on the next run)
        finished_run=Path("results/topics/history/current.json").is_file() or not config["topics"]["names"],
        history="results/topics/history",  # read by the job, never a trigger
    run:
        from papertopics.topics.curate import curate_topics_job

        run_job(curate_topics_job, input, output, params, threads, log)


rule describe_topics:
    """What the listing's own columns say of each topic: shares per period, rising and falling
    topics with their slopes, each period's top terms (over_time.csv, topic_trends.csv), top
    venues and authors (topic_sources.csv), the listing's authors (authors.csv), the thematic map (thematic_map.csv), citations and
    most-cited papers (topic_citations.csv, most_cited.csv). Header-only tables for a listing
    without them.
    """
    input:
        documents="results/topics/document_topics.csv",
        topics="results/topics/topics.csv",
        terms="results/corpus/term_counts.npz",
        names="results/corpus/name_index.pkl",  # the thematic map folds keywords as the names do
    output:
        over_time="results/topics/over_time.csv",
        trends="results/topics/topic_trends.csv",
        sources="results/topics/topic_sources.csv",
        authors="results/topics/authors.csv",  # the listing's authors, most papers first (topics.sources)
        thematic="results/topics/thematic_map.csv",
        citations="results/topics/topic_citations.csv",  # topics.citations: header only without cited_by
        most_cited="results/topics/most_cited.csv",
    log:
        "results/logs/describe_topics.log",
    benchmark:
        "results/benchmarks/describe_topics.tsv"
    params:
        code=job_module("papertopics.topics.describe"),  # modules, package data, library versions: a change reruns it
        # the c-TF-IDF of the period terms and the thematic map's links, as fit_topics weighs terms
        reduce_frequent_words=config["representation"]["reduce_frequent_words"],
        bm25_weighting=config["representation"]["bm25_weighting"],
        thematic=config["thematic"],  # the thematic map's keywords per topic and least papers
    run:
        from papertopics.topics.describe import describe_topics_job

        run_job(describe_topics_job, input, output, params, threads, log)


rule advance_history:
    """Make this run's topics the ones the next run compares with, once the report is written.

    fit_topics reads the history but never writes it, so an interrupted, failed or `--until`
    run leaves "what changed" where it was; the next run that writes the report advances it.
    It follows every report (no ancient() inputs: Snakemake then skips the job even when the
    snapshot is newer than its marker); after a report-only tweak it finds the history at
    this snapshot already and leaves it so.
    """
    input:
        snapshot="results/topics/snapshot",
        done=["results/metrics.json", *page_outputs()],  # the report's pages (report.smk)
    output:
        marker="results/topics/history/advanced.json",  # the history is the folder around it
    log:
        "results/logs/advance_history.log",
    benchmark:
        "results/benchmarks/advance_history.tsv"
    params:
        code=job_module("papertopics.topics.snapshot_store"),  # modules, package data, library versions: a change reruns it
    run:
        from papertopics.topics.snapshot_store import advance_history_job

        run_job(advance_history_job, input, output, params, threads, log)
