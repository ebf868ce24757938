"""build_corpus: parsed listings -> one table, one row per distinct abstract."""

import json

import pandas as pd

from papertopics.corpus import build_corpus
from papertopics.scripting import script_run

with script_run(snakemake) as log:
    frames = [pd.read_parquet(path) for path in snakemake.input]
    corpus, stats = build_corpus(frames)
    corpus.to_parquet(snakemake.output.corpus, index=False)
    with open(snakemake.output.stats, "w", encoding="utf-8") as handle:
        json.dump(stats, handle, indent=2, sort_keys=True)
    log.info("corpus: %s", stats)
