"""render_report: the HTML pages and plotly.min.js into results/report/ (no model refit, no UMAP)."""

import time
from pathlib import Path

from papertopics.report import link_folder, read_inputs, render_report
from papertopics.scripting import script_run

with script_run(snakemake) as log:
    started = time.perf_counter()
    p = snakemake.params
    inputs = read_inputs(
        documents=snakemake.input.documents,
        topics=snakemake.input.topics,
        map2d=snakemake.input.map2d,
        metrics=snakemake.input.metrics,
        model=snakemake.input.model,
        changes=getattr(snakemake.input, "changes", None),  # what changed since the previous run
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
    total = sum(path.stat().st_size for path in written.values())
    log.info("report: %d files, %.2f MB, topic vectors from %s, in %.1f s", len(written), total / 1e6,
             inputs.vectors.source, time.perf_counter() - started)
