"""build_corpus: parsed listings -> one table, one row per distinct abstract.

Inputs: results/parse/<listing>.parquet. Outputs: results/corpus/corpus.parquet, corpus_stats.json.
"""

import pandas as pd

from papertopics.artifacts import write_json
from papertopics.ingest.corpus import build_corpus
from papertopics.ingest.dates import add_dates
from papertopics.runtime.scripting import script_run

with script_run(snakemake) as log:
    corpus, stats = build_corpus([pd.read_parquet(path) for path in snakemake.input.parsed])
    corpus = add_dates(corpus)  # one canonical `date` and `year` from the listings' date columns
    corpus.to_parquet(snakemake.output.corpus, index=False)
    write_json(snakemake.output.stats, stats)
    log.info("corpus: %s", stats)
