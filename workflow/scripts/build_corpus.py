"""build_corpus: parsed listings -> one table, one row per distinct abstract, config.yaml's
filters applied.

Inputs: results/parse/<listing>.parquet. Outputs: results/corpus/corpus.parquet, corpus_stats.json,
filters.csv (the PRISMA-style count: records read -> duplicates -> each filter -> analysed).
"""

import warnings

import pandas as pd

from papertopics.artifacts import write_json
from papertopics.ingest.corpus import build_corpus
from papertopics.ingest.dates import add_dates
from papertopics.ingest.filters import active_filters, apply_filters, prisma_line
from papertopics.ingest.formats._common import ListingWarning
from papertopics.ingest.notes import choice_notes
from papertopics.runtime.scripting import script_run

with script_run(snakemake) as log:
    corpus, stats = build_corpus([pd.read_parquet(path) for path in snakemake.input.parsed])
    corpus = add_dates(corpus)  # one canonical `date` and `year` from the listings' date columns
    stats["notes"] += choice_notes(corpus.attrs.get("choices", []))  # the dates' choices: the data page
    corpus, counts = apply_filters(corpus, stats, snakemake.params.filters)
    if active_filters(snakemake.params.filters):  # one line, among the run's closing lines
        stats["n_documents"] = len(corpus)
        stats["n_filtered"] = int(counts["removed"].iloc[2:].sum())
        warnings.warn(ListingWarning(prisma_line(counts)), stacklevel=1)
    else:
        log.info(prisma_line(counts))
    corpus.to_parquet(snakemake.output.corpus, index=False)
    write_json(snakemake.output.stats, stats)
    counts.to_csv(snakemake.output.filters, index=False)
    log.info("corpus: %s", stats)
