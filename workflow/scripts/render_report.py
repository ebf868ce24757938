"""render_report: the HTML pages and plotly.min.js into results/report/ (no model refit, no UMAP).

Inputs: document_topics.csv, topics.csv, changes.csv, hierarchy.csv, the saved model, map2d.parquet,
metrics.json, neighbours.csv (similar papers), corpus_stats.json (listing headers), report_data/
(pack_documents' data files, linked).
Outputs: results/report/*.html, plotly.min.js, report.css/js, brotli-decode.min.js, data/;
results/report_bundle/topic-report.
"""

import time

from papertopics.report import read_inputs
from papertopics.report.render import write_report
from papertopics.runtime.scripting import script_run

with script_run(snakemake) as log:
    started = time.perf_counter()
    p, i, out = snakemake.params, snakemake.input, snakemake.output
    inputs = read_inputs(
        documents=i.documents,
        topics=i.topics,
        map2d=i.map2d,
        metrics=i.metrics,
        model=i.model,
        changes=i.changes,
        hierarchy=i.hierarchy,
        listings=p.listings,
        title=p.report["title"],
        max_hover_chars=p.report["max_hover_chars"],
        neighbours=getattr(i, "neighbours", None),  # similar papers (find_neighbours)
        corpus_stats=getattr(i, "corpus_stats", None),
    )  # listing headers as titles
    written = write_report(
        inputs, [out.plotly_js, *out.pages, *out.assets], out.bundle, packed=getattr(i, "packed", None)
    )
    total = sum(path.stat().st_size for path in written.values())
    log.info(
        "report: %d files, %.2f MB, topic vectors from %s, in %.1f s",
        len(written),
        total / 1e6,
        inputs.vectors.source,
        time.perf_counter() - started,
    )
