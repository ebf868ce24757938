"""render_report: the HTML pages and plotly.min.js into results/report/ (no model refit, no UMAP).

Inputs: document_topics.csv, topics.csv, changes.csv, the saved model, map2d.parquet, metrics.json.
Outputs: results/report/*.html, plotly.min.js, report.css/js; results/report_bundle/topic-report.
"""

import time

from papertopics.report import read_inputs
from papertopics.report.render import write_report
from papertopics.scripting import script_run

with script_run(snakemake) as log:
    started = time.perf_counter()
<<<<<<< HEAD
    p, i, out = snakemake.params, snakemake.input, snakemake.output
    inputs = read_inputs(documents=i.documents, topics=i.topics, map2d=i.map2d, metrics=i.metrics, model=i.model,
                         changes=i.changes, listings=p.listings, title=p.report["title"],
                         max_hover_chars=p.report["max_hover_chars"])
    written = write_report(inputs, [out.plotly_js, *out.pages, *out.assets], out.bundle)
=======
    p = snakemake.params
    inputs = read_inputs(
        documents=snakemake.input.documents,
        topics=snakemake.input.topics,
        map2d=snakemake.input.map2d,
        metrics=snakemake.input.metrics,
        model=snakemake.input.model,
        changes=getattr(snakemake.input, "changes", None),  # what changed since the previous run
        neighbours=getattr(snakemake.input, "neighbours", None),  # similar papers (find_neighbours)
        corpus_stats=getattr(snakemake.input, "corpus_stats", None),  # listing headers as titles
        listings=p.listings,
        title=p.report.get("title"),
        max_hover_chars=p.report.get("max_hover_chars", 300),
    )
    out_dir = Path(snakemake.output.plotly_js).parent
    written = render_report(inputs, out_dir)
    expected = {Path(path).resolve() for path in [*snakemake.output.pages, snakemake.output.plotly_js,
                                                  *snakemake.output.assets]}
    missing = expected - {path.resolve() for path in written.values()}
    assert not missing, f"render_report did not write {sorted(map(str, missing))}"
    link_folder(written.values(), snakemake.output.bundle)
>>>>>>> ed0c753 (Similar papers (find_neighbours rule, exact blockwise cosine top-k), rising/falling topics between listings with a two-proportion z-test, listing headers as display names; tests)
    total = sum(path.stat().st_size for path in written.values())
    log.info("report: %d files, %.2f MB, topic vectors from %s, in %.1f s", len(written), total / 1e6,
             inputs.vectors.source, time.perf_counter() - started)
