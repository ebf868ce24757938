# The HTML report: static pages beside one plotly.min.js, opened offline from the folder.
# See docs/report.md for what each page shows and how the inputs map to it.

from papertopics.analyses.registry import table_outputs
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
    output:
        packed=directory("results/report_data"),
    log:
        "results/logs/pack_documents.log",
    benchmark:
        "results/benchmarks/pack_documents.tsv"
    threads: 2
    params:
        code=script_code("pack_documents"),  # modules, package data, library versions: a change reruns it
        version=REPORT_DATA_VERSION,  # a new format of the data files repacks them
    script:
        "../scripts/pack_documents.py"


rule draw_figures:
    """Figures for a paper: the document map, the thematic map and the topics over time (where
    the listing has them), SVG and PNG at 300 dpi, from the tables the pages read.

    Its own job with only those tables: a report.* tweak other than the title redraws nothing.
    """
    input:
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
        code=script_code("draw_figures"),  # modules, package data, library versions: a change reruns it
        title=config["report"]["title"],  # null: the listings' headers, as the pages' title
        listings=list(LISTINGS),
    script:
        "../scripts/draw_figures.py"


rule render_report:
    """Static HTML pages, plotly.js shipped once beside them: opens offline from a folder.

    No refit and no UMAP: the topic vectors are read from the saved model's safetensors/JSON,
    the document map uses map2d.parquet and links pack_documents' data files; changes.html shows
    fit_topics' changes.csv. bundle_report links the folder for `snakemake --report`.
    """
    input:
        **table_outputs(),  # describe_topics' tables (analyses/registry.py): over_time.csv ... countries.csv
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
        filters="results/corpus/filters.csv",  # build_corpus: the records config.yaml's filters left out
    output:
        pages=REPORT_PAGES,
        plotly_js="results/report/plotly.min.js",
        assets=asset_outputs(),
        data=directory("results/report/data"),
    log:
        "results/logs/render_report.log",
    benchmark:
        "results/benchmarks/render_report.tsv"
    params:
        code=job_module("papertopics.report.render"),  # modules, package data, library versions: a change reruns it
        report_files=REPORT_FILES,
        report=config["report"],
        listings=list(LISTINGS),
        # bundle_report's mirror of the pages, stale once they are rewritten: removed first, so a
        # run killed mid-report leaves no old page there that results/report/ no longer holds
        stale_bundle="results/report_bundle/topic-report",
    run:
        from papertopics.report.render import render_report_job

        run_job(render_report_job, input, output, params, threads, log)


rule bundle_report:
    """The report folder again as hard links, marked for `snakemake --report report.zip`, which
    embeds a directory with every file beside its index: the pages, their data files, and the
    figures and VOSviewer files the overview links. Its own light job, so render_report and
    draw_figures run side by side (a report tweak redraws the figures beside the pages).
    """
    input:
        pages=REPORT_PAGES,
        plotly_js="results/report/plotly.min.js",
        assets=asset_outputs(),
        data="results/report/data",
        figures="results/report/figures",
        vosviewer="results/report/vosviewer",
    output:
        bundle=report(
            directory("results/report_bundle/topic-report"),
            htmlindex="index.html",
            caption="../report/topic-report.rst",
            category="Topics",
        ),
    log:
        "results/logs/bundle_report.log",
    benchmark:
        "results/benchmarks/bundle_report.tsv"
    params:
        code=job_module("papertopics.report.bundle"),  # modules, package data, library versions: a change reruns it
    run:
        from papertopics.report.bundle import bundle_report_job

        run_job(bundle_report_job, input, output, params, threads, log)


rule write_workbook:
    """results/topics/topics.xlsx: topics and documents sheets for spreadsheet users.

    Its own light job in its own process (XlsxWriter), beside the report: a report tweak
    never reruns it, a re-cluster writes it while the pages render.
    """
    input:
        **table_outputs(),  # describe_topics' tables (analyses/registry.py): a sheet each where not empty
        topics="results/topics/topics.csv",
        documents="results/topics/document_topics.csv",
        pinned="results/topics/pinned.csv",
        filters="results/corpus/filters.csv",  # build_corpus: a `filters` sheet when config.yaml sets one
        corpus_stats="results/corpus/corpus_stats.json",  # the data sheet: each listing's columns and notes
    output:
        workbook="results/topics/topics.xlsx",
    log:
        "results/logs/write_workbook.log",
    benchmark:
        "results/benchmarks/write_workbook.tsv"
    params:
        code=script_code("write_workbook"),  # modules, package data, library versions: a change reruns it
    script:
        "../scripts/write_workbook.py"


rule write_references:
    """results/topics/papers_by_topic.ris and .bib: every analysed paper as read, its topic a
    keyword (`topic: <name>`), so that Zotero, EndNote or Mendeley file it under its topic.

    From the corpus and the curated topics: a rename rewrites them, a report tweak does not.
    """
    input:
        corpus="results/corpus/corpus.parquet",
        documents="results/topics/document_topics.csv",
    output:
        ris="results/topics/papers_by_topic.ris",
        bib="results/topics/papers_by_topic.bib",
    log:
        "results/logs/write_references.log",
    benchmark:
        "results/benchmarks/write_references.tsv"
    params:
        code=job_module("papertopics.report.references"),  # modules, package data, library versions: a change reruns it
    run:
        from papertopics.report.references import write_references_job

        run_job(write_references_job, input, output, params, threads, log)


rule write_vosviewer:
    """results/report/vosviewer/: the topics' keyword co-occurrence network (where the listing has
    authors' keywords) and the document map as VOSviewer map and network files, linked from the
    overview. Keywords chosen as the thematic map chooses them (thematic.*)."""
    input:
        documents="results/topics/document_topics.csv",
        topics="results/topics/topics.csv",
        map2d="results/reduce/map2d.parquet",
        neighbours="results/topics/neighbours.csv",
        names="results/corpus/name_index.pkl",
    output:
        folder=directory("results/report/vosviewer"),
    log:
        "results/logs/write_vosviewer.log",
    benchmark:
        "results/benchmarks/write_vosviewer.tsv"
    params:
        code=job_module("papertopics.report.vosviewer_keywords"),  # modules, package data, library versions: a change reruns it
        thematic=config["thematic"],
    run:
        from papertopics.report.vosviewer_keywords import write_vosviewer_job

        run_job(write_vosviewer_job, input, output, params, threads, log)
