REPORT_PAGES = [
    f"results/report/{page}.html"
    for page in ("index", "documents", "intertopic", "barchart", "hierarchy", "heatmap", "listings")
]


rule render_report:
    """Static HTML pages, plotly.js shipped once beside them: opens offline from a folder."""
    input:
        documents="results/topics/document_topics.csv",
        topics="results/topics/topics.csv",
        model="results/topics/model",
        map2d="results/reduce/map2d.parquet",
        metrics="results/metrics.json",
    output:
        pages=REPORT_PAGES,
        plotly_js="results/report/plotly.min.js",
    params:
        report=config["report"],
        listings=list(LISTINGS),
        random_state=config["random_state"],
    log:
        "results/logs/render_report.log",
    benchmark:
        "results/benchmarks/render_report.tsv"
    script:
        "../scripts/render_report.py"
