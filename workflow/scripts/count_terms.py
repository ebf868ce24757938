"""count_terms: each abstract's term counts under the vectorizer's tokenising settings.

Inputs: results/corpus/corpus.parquet. Outputs: results/corpus/term_counts.npz (papertopics.terms).
"""

import pandas as pd

from papertopics.scripting import script_run
from papertopics.terms import count_terms

with script_run(snakemake) as log:
    corpus = pd.read_parquet(snakemake.input.corpus, columns=["text"])
    terms = count_terms(corpus["text"].tolist(), dict(snakemake.params.vectorizer))
    terms.save(snakemake.output.terms)
    log.info("terms: %d documents x %d terms, %d counts", *terms.counts.shape, terms.counts.nnz)
