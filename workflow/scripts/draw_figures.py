"""draw_figures: the report's figures for a paper (papertopics.report.figures).

Inputs: results/reduce/map2d.parquet, results/topics/document_topics.csv, topics.csv,
thematic_map.csv, over_time.csv, topic_trends.csv, results/corpus/corpus_stats.json (the
listings' headers, for the title). Params: title (report.title), listings.
Outputs: results/report/figures/ (document_map, and thematic_map and over_time where the listing
has them, each .svg and .png at 300 dpi).
"""

import time

import pandas as pd

from papertopics.report.figures import draw_figures
from papertopics.report.inputs import read_listing_titles, read_table, report_title
from papertopics.runtime.scripting import script_run

with script_run(snakemake) as log:
    started = time.perf_counter()
    i = snakemake.input
    title = snakemake.params.title or report_title(
        list(snakemake.params.listings), read_listing_titles(i.corpus_stats)
    )
    tables = {
        "map2d": pd.read_parquet(i.map2d),
        **{
            name: read_table(getattr(i, name))
            for name in ("documents", "topics", "thematic", "over_time", "trends")
        },
    }
    drawn = draw_figures(snakemake.output.figures, tables, title)
    log.info(
        "%s: %s in %.1f s",
        snakemake.output.figures,
        "; ".join(f"{name} ({len(names)} names)" for name, names in drawn.items()),
        time.perf_counter() - started,
    )
