"""count_terms: each abstract's term counts under the vectorizer's tokenising settings, and its
unigram stream for the NPMI windows of evaluate_topics.

Inputs: results/corpus/corpus.parquet. Outputs: results/corpus/term_counts.npz (papertopics.topics.terms),
results/corpus/window_tokens.npz (papertopics.evaluate.coherence.WindowTokens).
"""

import pandas as pd

from papertopics.evaluate.coherence import npmi_analyzer, window_tokens
from papertopics.runtime.scripting import script_run
from papertopics.topics.terms import count_terms

with script_run(snakemake) as log:
    texts = pd.read_parquet(snakemake.input.corpus, columns=["text"])["text"].tolist()
    vectorizer = dict(snakemake.params.vectorizer)
    terms = count_terms(texts, vectorizer)
    terms.save(snakemake.output.terms)
    log.info("terms: %d documents x %d terms, %d counts", *terms.counts.shape, terms.counts.nnz)
    windows = window_tokens(texts, npmi_analyzer(vectorizer))
    windows.save(snakemake.output.windows)
    log.info(
        "NPMI tokens: %d in %d documents, %d distinct", len(windows.ids), len(texts), len(windows.vocabulary)
    )
