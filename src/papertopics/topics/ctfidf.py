"""Class-based TF-IDF on fixed clusters, as BERTopic computes it, without importing BERTopic.

Importing BERTopic costs about 5 s per process (it pulls in umap and torch); on the tweak
loop's critical path (a relabel or re-cluster of NeurIPS 2023) that was half of the 10 s
budget. The part papertopics uses, c-TF-IDF keywords on clusters computed upstream and the
saved model folder, is BERTopic's ClassTfidfTransformer, `_c_tf_idf`,
`_extract_words_per_topic` and `save(serialization="safetensors")`: reproduced here (BERTopic
is MIT licensed), on term counts made once per corpus (papertopics.topics.terms).
tests/test_ctfidf.py checks against BERTopic itself that the keywords, scores, c-TF-IDF
matrix, topic embeddings and the saved folder are the same, and that `BERTopic.load` reads
the folder. BERTopic still runs where its own features change the topics
(`topics.nr_topics`, `topics.reduce_outliers`): see topics.fit_topic_model.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import scipy.sparse as sp

from papertopics.artifacts import atomic_write_text
from papertopics.constants import OUTLIER
from papertopics.topics.terms import TermCounts, topic_term_counts

# BERTopic's constructor arguments other than models, as its save writes them to config.json;
# papertopics sets language "multilingual" (no ASCII stripping), the rest are BERTopic defaults.
BERTOPIC_CONFIG = {
    "calculate_probabilities": False,
    "language": "multilingual",
    "low_memory": False,
    "min_topic_size": 10,
    "n_gram_range": [1, 1],
    "nr_topics": None,
    "seed_topic_list": None,
    "top_n_words": 10,
    "verbose": False,
    "zeroshot_min_similarity": 0.7,
    "zeroshot_topic_list": None,
}


def frequency_order(labels: np.ndarray) -> dict[int, int]:
    """Cluster label -> model topic id, biggest first (BERTopic's numbering), -1 kept;
    equal sizes keep the order of their labels, so the numbering is deterministic."""
    sizes = Counter(np.asarray(labels).tolist())
    ranked = sorted((t for t in sizes if t != OUTLIER), key=lambda t: (-sizes[t], t))
    mapping = {t: i for i, t in enumerate(ranked)}
    if OUTLIER in sizes:
        mapping[OUTLIER] = OUTLIER
    return mapping


def class_tfidf(counts: sp.csr_matrix, *, reduce_frequent_words: bool, bm25_weighting: bool):
    """(c-TF-IDF matrix, idf): BERTopic's ClassTfidfTransformer fit + transform on topic counts."""
    counts = sp.csr_matrix(counts)
    df = np.squeeze(np.asarray(counts.sum(axis=0)))
    avg_nr_samples = int(counts.sum(axis=1).mean())
    if bm25_weighting:
        idf = np.log(1 + ((avg_nr_samples - df + 0.5) / (df + 0.5)))
    else:
        idf = np.log((avg_nr_samples / df) + 1)
    n_features = counts.shape[1]
    idf_diag = sp.diags(idf, offsets=0, shape=(n_features, n_features), format="csr", dtype=np.float64)
    # Rows l1-normalised as sklearn's normalize does it: each count divided by its row's total
    # (integer sums, so exact), not multiplied by the reciprocal, which rounds differently.
    matrix = sp.csr_matrix(counts, dtype=np.float64)
    totals = np.asarray(abs(matrix).sum(axis=1)).ravel()
    matrix.data = matrix.data / np.repeat(totals, np.diff(matrix.indptr))
    if reduce_frequent_words:
        matrix.data = np.sqrt(matrix.data)
    return matrix * idf_diag, idf


def top_words(matrix: sp.csr_matrix, words: np.ndarray, n: int) -> list[list[tuple[str, float]]]:
    """Per row, the n best (word, score), best first, padded with ("", 1e-05) as BERTopic does."""
    rows = []
    matrix = sp.csr_matrix(matrix)
    for row, (start, end) in enumerate(zip(matrix.indptr[:-1], matrix.indptr[1:])):
        pick = min(n, end - start)
        chosen = (
            matrix.indices[start + np.argpartition(matrix.data[start:end], -pick)[-pick:]] if pick else []
        )
        indices = [chosen[i] if len(chosen) >= i + 1 else None for i in range(n)]
        scores = np.array([matrix[row, i] if i is not None else 0 for i in indices])
        order = np.argsort(scores)
        pairs = [
            (str(words[indices[i]]), float(scores[i]))
            if indices[i] is not None and scores[i] > 0
            else ("", 0.00001)
            for i in order[::-1]
        ]
        rows.append(pairs)
    return rows


@dataclass
class TopicTerms:
    """A fitted c-TF-IDF topic model: what fit_topics reads from BERTopic, and its saved folder."""

    doc_topics: np.ndarray  # model topic id per document
    topic_ids: list[int]  # sorted (-1 first when there are outliers); rows of matrix/embeddings
    vectorizer_params: dict  # CountVectorizer's settings (topics.vectorizer_params)
    words: np.ndarray  # the vocabulary, sorted: the columns of matrix
    matrix: sp.csr_matrix  # c-TF-IDF, one row per topic
    idf: np.ndarray
    representations: dict[int, list[tuple[str, float]]]
    topic_embeddings: np.ndarray
    reduce_frequent_words: bool
    bm25_weighting: bool
    top_n_words: int
    cluster_of: dict[int, int] | None = None  # model topic -> the cluster label it was given as
    custom_labels: list[str] | None = None

    def get_topic(self, topic: int):
        """BERTopic.get_topic: the topic's (word, score) pairs, or False for an unknown topic."""
        return self.representations.get(int(topic), False)

    def set_topic_labels(self, labels: dict[int, str]) -> None:
        """BERTopic.set_topic_labels with a dict: topics not given keep their default label."""
        default = self.default_labels()
        self.custom_labels = [labels.get(t) or default[t] for t in self.topic_ids]

    def default_labels(self) -> dict[int, str]:
        return {
            t: f"{t}_" + "_".join(word for word, _ in pairs[:4]) for t, pairs in self.representations.items()
        }

    def save(
        self, path, serialization: str = "safetensors", save_ctfidf: bool = True, save_embedding_model=None
    ):
        """The folder `BERTopic.save(path, serialization="safetensors", save_ctfidf=True)` writes."""
        from safetensors.numpy import save_file

        if serialization != "safetensors":
            raise ValueError("papertopics saves topic models as safetensors only")
        folder = Path(path)
        folder.mkdir(parents=True, exist_ok=True)
        save_file(
            {"topic_embeddings": np.array(self.topic_embeddings, dtype=np.float32)},
            str(folder / "topic_embeddings.safetensors"),
        )
        sizes = Counter(self.doc_topics.tolist())
        cluster_of = self.cluster_of or {t: t for t in self.topic_ids}
        topics = {
            "topic_representations": {
                str(t): [list(p) for p in pairs] for t, pairs in self.representations.items()
            },
            "topics": [int(t) for t in self.doc_topics.tolist()],
            "topic_sizes": {str(t): int(n) for t, n in sizes.items()},
            # as BERTopic records its renumbering: [given label, given label, model topic]
            "topic_mapper": [[c, c, t] for c, t in sorted((cluster_of[t], t) for t in self.topic_ids)],
            "topic_labels": {str(t): label for t, label in self.default_labels().items()},
            "custom_labels": self.custom_labels,
            "_outliers": int(OUTLIER in self.topic_ids),
            "topic_aspects": {},
        }
        write_json(folder / "topics.json", topics)
        config = {**BERTOPIC_CONFIG, "top_n_words": int(self.top_n_words)}
        if isinstance(save_embedding_model, str):
            config["embedding_model"] = save_embedding_model
        write_json(folder / "config.json", config)
        if save_ctfidf:
            matrix = sp.csr_matrix(self.matrix)
            save_file(
                {
                    "indptr": matrix.indptr,
                    "indices": matrix.indices,
                    "data": matrix.data,
                    "shape": np.array(matrix.shape),
                    "diag": np.asarray(self.idf, dtype=np.float64),
                },
                str(folder / "ctfidf.safetensors"),
            )
            params = {**self.vectorizer_params, "ngram_range": list(self.vectorizer_params["ngram_range"])}
            ctfidf_config = {
                "ctfidf_model": {
                    "bm25_weighting": self.bm25_weighting,
                    "reduce_frequent_words": self.reduce_frequent_words,
                },
                "vectorizer_model": {
                    "params": params,
                    "vocab": dict(zip(map(str, self.words.tolist()), range(len(self.words)))),
                },
            }
            write_json(folder / "ctfidf_config.json", ctfidf_config)


def write_json(path: Path, value) -> None:
    """Compact, unlike artifacts.write_json: indented JSON goes through json's Python encoder
    (5 s for the 3.8M-term vocabulary of 75k abstracts); BERTopic.load reads either."""
    atomic_write_text(path, json.dumps(value))


def fit_topic_terms(
    terms: TermCounts,
    embeddings: np.ndarray,
    labels: np.ndarray,
    vectorizer: dict,
    *,
    reduce_frequent_words: bool,
    bm25_weighting: bool,
    top_n_words: int,
    keyword_labels: np.ndarray | None = None,
) -> TopicTerms:
    """c-TF-IDF of each cluster's summed term counts (papertopics.topics.terms), keywords, and topic
    embeddings (the members' mean), clusters renumbered by size as BERTopic numbers topics.

    keyword_labels: the labels whose documents make the keywords (default `labels`). fit_topics
    passes the clusters as the clusterer found them: a document assigned to its nearest topic
    afterwards joins the topic but its words stay with the outliers', so the keywords are
    those of the clusters themselves, undiluted."""
    from papertopics.topics.representation import vectorizer_params

    mapping = frequency_order(labels)
    doc_topics = np.array([mapping[t] for t in np.asarray(labels).tolist()], dtype=np.int64)
    topic_ids = sorted(set(doc_topics.tolist()))
    word_topics = (
        doc_topics
        if keyword_labels is None
        else np.array([mapping.get(t, OUTLIER) for t in np.asarray(keyword_labels).tolist()], dtype=np.int64)
    )
    word_ids = sorted(set(word_topics.tolist()) | set(topic_ids))
    counts, words = topic_term_counts(
        terms, word_topics, word_ids, vectorizer["min_df"], float(vectorizer["max_df"])
    )
    matrix, idf = class_tfidf(
        counts, reduce_frequent_words=reduce_frequent_words, bm25_weighting=bm25_weighting
    )
    if word_ids != topic_ids:  # every outlier was assigned: the outliers' words weighed, no row kept
        matrix = sp.csr_matrix(matrix)[[word_ids.index(t) for t in topic_ids]]
    best = top_words(matrix, words, max(top_n_words, 30))
    representations = {topic: pairs[:top_n_words] for topic, pairs in zip(topic_ids, best)}
    topic_embeddings = np.array([embeddings[doc_topics == topic].mean(axis=0) for topic in topic_ids])
    return TopicTerms(
        doc_topics=doc_topics,
        topic_ids=topic_ids,
        vectorizer_params=vectorizer_params(vectorizer),
        words=np.asarray(words, dtype=object),
        matrix=sp.csr_matrix(matrix),
        idf=idf,
        representations=representations,
        topic_embeddings=topic_embeddings,
        reduce_frequent_words=reduce_frequent_words,
        bm25_weighting=bm25_weighting,
        top_n_words=top_n_words,
        cluster_of={model: cluster for cluster, model in mapping.items()},
    )
