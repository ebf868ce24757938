# The analyses stage (src/papertopics/analyses/): what the listing's records say of each topic and
# of the whole listing, from document_topics.csv; analyses/registry.py lists their tables.
from papertopics.analyses.registry import table_outputs


rule describe_topics:
    """What the listing's own columns say of each topic and of the whole listing: the analyses of
    analyses/registry.py, in its order: shares per period, rising and falling topics with their
    slopes, each period's top terms (over_time.csv, topic_trends.csv), top venues and authors
    (topic_sources.csv), the listing's authors (authors.csv), the thematic map
    (thematic_map.csv), citations and most-cited papers (topic_citations.csv, most_cited.csv),
    main information (main_information.csv), countries (countries.csv, and each topic's
    countries in topic_sources.csv). Header-only tables for a listing without them.
    """
    input:
        documents="results/topics/document_topics.csv",
        topics="results/topics/topics.csv",
        terms="results/corpus/term_counts.npz",
        names="results/corpus/name_index.pkl",  # the thematic map folds keywords as the names do
    output:
        **table_outputs(),  # analyses/registry.py: over_time.csv, topic_trends.csv ... countries.csv
    log:
        "results/logs/describe_topics.log",
    benchmark:
        "results/benchmarks/describe_topics.tsv"
    params:
        code=job_module("papertopics.analyses.describe"),  # modules, package data, library versions: a change reruns it
        # the c-TF-IDF of the period terms and the thematic map's links, as fit_topics weighs terms
        reduce_frequent_words=config["representation"]["reduce_frequent_words"],
        bm25_weighting=config["representation"]["bm25_weighting"],
        thematic=config["thematic"],  # the thematic map's keywords per topic and least papers
    run:
        from papertopics.analyses.describe import describe_topics_job

        run_job(describe_topics_job, input, output, params, threads, log)
