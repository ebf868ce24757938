"""Each abstract's term counts, computed once per corpus, summed per topic at every fit.

c-TF-IDF needs, per topic, how often each term occurs in the topic's abstracts. BERTopic gets
that by joining each topic's abstracts into one text and running the CountVectorizer on the
joined texts, at every fit: tokenising NeurIPS 2023 with bigrams takes 1-2 s, 75k arXiv
abstracts tens of seconds, although the clusters are all that changed. Here the vectorizer
runs once per corpus (rule count_terms, re-run only when the vectorizer's tokenising settings
change) and a fit sums the rows of its topics' abstracts: the same counts, except that no
bigram spans the end of one abstract and the start of the next (BERTopic's joined text counts
those; they are noise). `vectorizer.min_df`/`max_df` count topics, so they are applied after
summing, as CountVectorizer applies them to BERTopic's one text per topic.
"""

from __future__ import annotations

from dataclasses import dataclass
from numbers import Integral
from pathlib import Path

import numpy as np
import scipy.sparse as sp


@dataclass
class TermCounts:
    """documents x terms counts; terms sorted as CountVectorizer sorts its features."""

    counts: sp.csr_matrix
    terms: np.ndarray  # of str

    def save(self, path) -> None:
        """One uncompressed .npz (loads in milliseconds); terms as one newline-joined UTF-8 blob."""
        counts = sp.csr_matrix(self.counts)
        blob = "\n".join(self.terms.tolist()).encode("utf-8")
        with Path(path).open("wb") as handle:
            np.savez(
                handle,
                data=counts.data.astype(np.int32),
                indices=counts.indices.astype(np.int32),
                indptr=counts.indptr.astype(np.int64),
                shape=np.array(counts.shape, dtype=np.int64),
                terms=np.frombuffer(blob, dtype=np.uint8),
            )

    @classmethod
    def load(cls, path) -> TermCounts:
        with np.load(path, allow_pickle=False) as parts:
            counts = sp.csr_matrix(
                (parts["data"], parts["indices"], parts["indptr"]), shape=tuple(parts["shape"].tolist())
            )
            blob = parts["terms"].tobytes().decode("utf-8")
        terms = np.array(blob.split("\n") if blob else [], dtype=object)
        return cls(counts, terms)


def count_terms(texts: list[str], vectorizer: dict) -> TermCounts:
    """Every term of every abstract (no min_df/max_df: those act on topics, at each fit)."""
    from papertopics.topics.representation import build_vectorizer

    counter = build_vectorizer({**vectorizer, "min_df": 1, "max_df": 1.0})
    cleaned = [text.replace("\n", " ").replace("\t", " ") for text in texts]  # as BERTopic cleans
    try:
        counts = counter.fit_transform(cleaned)
    except ValueError:  # no abstract has a single term: every topic is empty, as BERTopic's would be
        return TermCounts(sp.csr_matrix((len(texts), 0), dtype=np.int64), np.array([], dtype=object))
    return TermCounts(sp.csr_matrix(counts), np.array(counter.get_feature_names_out(), dtype=object))


def limit_terms(counts: sp.csr_matrix, min_df, max_df) -> np.ndarray:
    """Columns kept by CountVectorizer's min_df/max_df over the rows (topics), with its errors."""
    n_rows = counts.shape[0]
    max_count = max_df if isinstance(max_df, Integral) else max_df * n_rows
    min_count = min_df if isinstance(min_df, Integral) else min_df * n_rows
    if max_count < min_count:
        raise ValueError("max_df corresponds to < documents than min_df")
    counts = sp.csr_matrix(counts)
    counts.eliminate_zeros()
    df = np.bincount(counts.indices, minlength=counts.shape[1])  # rows (topics) using each term
    keep = np.flatnonzero((df >= max(min_count, 1)) & (df <= max_count))
    if len(keep) == 0:
        raise ValueError("After pruning, no terms remain. Try a lower min_df or a higher max_df.")
    return keep


def topic_term_counts(
    terms: TermCounts, doc_topics: np.ndarray, topic_ids: list[int], min_df=1, max_df=1.0
) -> tuple[sp.csr_matrix, np.ndarray]:
    """(topics x terms counts, the terms): the rows of each topic's abstracts summed."""
    row_of = {topic: row for row, topic in enumerate(topic_ids)}
    rows = np.array([row_of[t] for t in np.asarray(doc_topics).tolist()], dtype=np.int64)
    member = sp.csr_matrix(
        (np.ones(len(rows), dtype=np.int64), (rows, np.arange(len(rows)))), shape=(len(topic_ids), len(rows))
    )
    summed = (member @ sp.csr_matrix(terms.counts, dtype=np.int64)).tocsr()
    if summed.shape[1] == 0:
        raise ValueError("empty vocabulary; perhaps the documents only contain stop words")
    keep = limit_terms(summed, min_df, max_df)
    summed = summed[:, keep].tocsr()
    summed.sort_indices()
    return summed, terms.terms[keep]
