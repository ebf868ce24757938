# The HTML report: static pages beside one plotly.min.js, opened offline from the folder.
# See docs/report.md for what each page shows and how the inputs map to it.

from papertopics.constants import REPORT_DATA_VERSION
from papertopics.report.registry import SCRIPTS, asset_outputs, page_outputs

REPORT_PAGES = page_outputs()
# the feature scripts render_report joins into report.js, the stylesheet and the page templates:
# an edit reruns the job
REPORT_FILES = package_files(
    "report-files",
    [
        *(f"report/assets/scripts/{name}" for name in SCRIPTS),
        "report/assets/*.css",
        "report/templates/*.html",
    ],
)


rule pack_documents:
    """The document map's data files (headlines, abstracts, metadata, similar papers), Brotli-packed.

    Per corpus, not per topic model: compressing 75k abstracts at Brotli's best takes minutes,
    so it happens once, beside the clustering, and every report links the files.
    """
    input:
        corpus="results/corpus/corpus.parquet",
        neighbours="results/topics/neighbours.csv",
        code=script_code("pack_documents"),  # the package modules it runs: an edit reruns the job
    output:
        packed=directory("results/report_data"),
    log:
        "results/logs/pack_documents.log",
    benchmark:
        "results/benchmarks/pack_documents.tsv"
    threads: 2
    params:
        version=REPORT_DATA_VERSION,  # a new format of the data files repacks them
    script:
        "../scripts/pack_documents.py"


rule describe_topics:
    """What the listing's own columns say of each topic: shares per period, rising and falling
    topics with their slopes, each period's top terms (over_time.csv, topic_trends.csv), top
    venues and authors (topic_sources.csv), the thematic map (thematic_map.csv). Header-only
    tables for a listing without them.
    """
    input:
        code=job_module("papertopics.topics.describe"),  # an edit reruns the job
        documents="results/topics/document_topics.csv",
        topics="results/topics/topics.csv",
        terms="results/corpus/term_counts.npz",
        names="results/corpus/name_index.pkl",  # the thematic map folds keywords as the names do
    output:
        over_time="results/topics/over_time.csv",
        trends="results/topics/topic_trends.csv",
        sources="results/topics/topic_sources.csv",
        thematic="results/topics/thematic_map.csv",
        citations="results/topics/topic_citations.csv",  # topics.citations: header only without cited_by
        most_cited="results/topics/most_cited.csv",
    log:
        "results/logs/describe_topics.log",
    benchmark:
        "results/benchmarks/describe_topics.tsv"
    params:
        # the c-TF-IDF of the period terms and the thematic map's links, as fit_topics weighs terms
        reduce_frequent_words=config["representation"]["reduce_frequent_words"],
        bm25_weighting=config["representation"]["bm25_weighting"],
        thematic=config["thematic"],  # the thematic map's keywords per topic and least papers
    run:
        from papertopics.topics.describe import describe_topics_job

        run_job(describe_topics_job, input, output, params, threads, log)


rule draw_figures:
    """Figures for a paper: the document map, the thematic map and the topics over time (where
    the listing has them), SVG and PNG at 300 dpi, from the tables the pages read.

    Its own job with only those tables: a report.* tweak other than the title redraws nothing.
    """
    input:
        code=script_code("draw_figures"),  # the package modules it runs: an edit reruns the job
        map2d="results/reduce/map2d.parquet",
        documents="results/topics/document_topics.csv",
        topics="results/topics/topics.csv",
        thematic="results/topics/thematic_map.csv",
        over_time="results/topics/over_time.csv",
        trends="results/topics/topic_trends.csv",
        corpus_stats="results/corpus/corpus_stats.json",
    output:
        figures=directory("results/report/figures"),
    log:
        "results/logs/draw_figures.log",
    benchmark:
        "results/benchmarks/draw_figures.tsv"
    params:
        title=config["report"]["title"],  # null: the listings' headers, as the pages' title
        listings=list(LISTINGS),
    script:
        "../scripts/draw_figures.py"


rule render_report:
    """Static HTML pages, plotly.js shipped once beside them: opens offline from a folder.

    No refit and no UMAP: the topic vectors are read from the saved model's safetensors/JSON,
    the document map uses map2d.parquet and links pack_documents' data files; changes.html shows
    fit_topics' changes.csv. `bundle` is the same folder (hard links) marked for
    `snakemake --report report.zip`, which embeds a directory with every file beside its index.
    """
    input:
        code=job_module("papertopics.report.render"),  # the package modules it runs: an edit reruns the job
        report_files=REPORT_FILES,
        documents="results/topics/document_topics.csv",
        topics="results/topics/topics.csv",
        model="results/topics/model",
        map2d="results/reduce/map2d.parquet",
        metrics="results/metrics.json",
        changes="results/topics/changes.csv",
        neighbours="results/topics/neighbours.csv",
        corpus_stats="results/corpus/corpus_stats.json",
        hierarchy="results/topics/hierarchy.csv",
        packed="results/report_data",
        over_time="results/topics/over_time.csv",
        trends="results/topics/topic_trends.csv",
        sources="results/topics/topic_sources.csv",
        thematic="results/topics/thematic_map.csv",
        citations="results/topics/topic_citations.csv",
        most_cited="results/topics/most_cited.csv",
    output:
        pages=REPORT_PAGES,
        plotly_js="results/report/plotly.min.js",
        assets=asset_outputs(),
        data=directory("results/report/data"),
        bundle=report(
            directory("results/report_bundle/topic-report"),
            htmlindex="index.html",
            caption="../report/topic-report.rst",
            category="Topics",
        ),
    log:
        "results/logs/render_report.log",
    benchmark:
        "results/benchmarks/render_report.tsv"
    params:
        report=config["report"],
        listings=list(LISTINGS),
    run:
        from papertopics.report.render import render_report_job

        run_job(render_report_job, input, output, params, threads, log)


rule advance_history:
    """Make this run's topics the ones the next run compares with, once the report is written.

    fit_topics reads the history but never writes it, so an interrupted, failed or `--until`
    run leaves "what changed" where it was; the next run that writes the report advances it.
    It follows every report (no ancient() inputs: Snakemake then skips the job even when the
    snapshot is newer than its marker); after a report-only tweak it finds the history at
    this snapshot already and leaves it so.
    """
    input:
        code=job_module("papertopics.topics.snapshot_store"),  # the package modules it runs: an edit reruns the job
        snapshot="results/topics/snapshot",
        done=["results/metrics.json", *REPORT_PAGES],
    output:
        marker="results/topics/history/advanced.json",  # the history is the folder around it
    log:
        "results/logs/advance_history.log",
    benchmark:
        "results/benchmarks/advance_history.tsv"
    run:
        from papertopics.topics.snapshot_store import advance_history_job

        run_job(advance_history_job, input, output, params, threads, log)
