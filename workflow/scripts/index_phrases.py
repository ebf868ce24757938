"""index_phrases: the candidate topic names (phrases, acronyms) of every abstract and title.

Inputs: results/corpus/corpus.parquet. Outputs: results/corpus/name_index.pkl (naming.NameIndex).
"""

import pandas as pd

from papertopics.runtime.scripting import script_run
from papertopics.topics.names.phrases import NameIndex

with script_run(snakemake) as log:
    corpus = pd.read_parquet(snakemake.input.corpus, columns=["text_raw", "title"])
    index = NameIndex.build(corpus["text_raw"].tolist(), corpus["title"].fillna("").tolist())
    index.save(snakemake.output.index)
    log.info(
        "phrases: %d documents x %d phrase groups, %d acronyms", *index.incidence.shape, len(index.acronyms)
    )
