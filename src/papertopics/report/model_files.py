"""Topic vectors and keyword scores read straight from a saved BERTopic folder.

`BERTopic.save(path, serialization="safetensors", save_ctfidf=True)` writes:
- `topics.json`: `topic_representations` ({"-1": [[word, score], ...], "0": ...}), sizes, labels;
- `topic_embeddings.safetensors`: `topic_embeddings`, one row per topic in sorted id order
  (-1 first when there are outliers), the mean embedding of the topic's documents here;
- `ctfidf.safetensors`: the c-TF-IDF matrix as CSR parts (`indptr`, `indices`, `data`,
  `shape`), rows in the same order; `ctfidf_config.json`: the vectorizer's vocabulary.

Reading these files costs milliseconds; `BERTopic.load` costs the 9 s bertopic import and
tries to load the embedding model named in `config.json`, which the report never needs.
Without a model folder (tests, or a model saved without c-TF-IDF) the same vectors are
computed from the document table: a class-based TF-IDF of each topic's abstracts.
"""

from __future__ import annotations

import json
import logging
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

log = logging.getLogger(__name__)


@dataclass
class TopicVectors:
    """What the topic-level figures need, rows aligned with `topics` (sorted ids, -1 included)."""

    topics: list[int]
    ctfidf: object | None = None  # scipy.sparse CSR, rows = topics
    embeddings: np.ndarray | None = None  # dense, rows = topics
    words: dict[int, list[tuple[str, float]]] = field(default_factory=dict)
    source: str = "model"

    def rows(self, topics: list[int]) -> list[int]:
        index = {topic: row for row, topic in enumerate(self.topics)}
        return [index[topic] for topic in topics]

    def similarity_basis(self) -> str:
        """Topic embeddings (what the documents mean) when saved, else c-TF-IDF (their words)."""
        if self.embeddings is not None:
            return "topic embeddings"
        if self.ctfidf is not None:
            return "c-TF-IDF"
        return "none"

    def similarity(self, topics: list[int]) -> np.ndarray:
        """Cosine similarity between the given topics (square, symmetric, 1 on the diagonal)."""
        if not topics:
            return np.zeros((0, 0))
        rows = self.rows(topics)
        if self.embeddings is not None:
            matrix = np.asarray(self.embeddings, dtype=np.float64)[rows]
        elif self.ctfidf is not None:
            matrix = self.ctfidf[rows]
        else:
            return np.eye(len(topics))
        return cosine_similarity_matrix(matrix)


def cosine_similarity_matrix(matrix) -> np.ndarray:
    """Cosine similarity of the rows of a dense array or a sparse matrix; zero rows give 0."""
    import scipy.sparse as sp

    if sp.issparse(matrix):
        matrix = sp.csr_matrix(matrix, dtype=np.float64)
        norms = np.sqrt(np.asarray(matrix.multiply(matrix).sum(axis=1)).ravel())
        norms[norms == 0] = 1.0
        normalised = sp.diags(1.0 / norms) @ matrix
        similarity = np.asarray((normalised @ normalised.T).todense())
    else:
        matrix = np.asarray(matrix, dtype=np.float64)
        norms = np.linalg.norm(matrix, axis=1)
        norms[norms == 0] = 1.0
        normalised = matrix / norms[:, None]
        similarity = normalised @ normalised.T
    similarity = np.clip((similarity + similarity.T) / 2, -1.0, 1.0)
    np.fill_diagonal(similarity, 1.0)
    return similarity


def read_saved_model(path: str | Path) -> TopicVectors:
    """TopicVectors from a BERTopic folder saved with safetensors; missing parts stay None."""
    path = Path(path)
    topics_json = json.loads((path / "topics.json").read_text(encoding="utf-8"))
    representations = topics_json.get("topic_representations") or {}
    topics = sorted(int(topic) for topic in representations)
    words = {
        int(topic): [(str(word), float(score)) for word, score in pairs if word]
        for topic, pairs in representations.items()
    }

    embeddings = None
    embeddings_path = path / "topic_embeddings.safetensors"
    if embeddings_path.is_file():
        from safetensors.numpy import load_file

        tensors = load_file(str(embeddings_path))
        if "topic_embeddings" in tensors and len(tensors["topic_embeddings"]) == len(topics):
            embeddings = np.asarray(tensors["topic_embeddings"], dtype=np.float32)
        else:
            log.warning(
                "%s: topic embeddings do not match the %d topics; not used", embeddings_path, len(topics)
            )

    ctfidf = None
    ctfidf_path = path / "ctfidf.safetensors"
    if ctfidf_path.is_file():
        import scipy.sparse as sp
        from safetensors.numpy import load_file

        parts = load_file(str(ctfidf_path))
        shape = tuple(int(n) for n in parts["shape"])
        if shape[0] == len(topics):
            ctfidf = sp.csr_matrix((parts["data"], parts["indices"], parts["indptr"]), shape=shape)
        else:
            log.warning("%s: %d rows for %d topics; not used", ctfidf_path, shape[0], len(topics))
    return TopicVectors(topics=topics, ctfidf=ctfidf, embeddings=embeddings, words=words, source="model")


_TOKEN = re.compile(r"(?u)\b[a-zA-Z][a-zA-Z0-9\-]+\b")
_STOP_WORDS = frozenset(
    """
a about above after again against all also am an and any are as at be because been before being
below between both but by can could did do does doing down during each few for from further had
has have having he her here hers herself him himself his how i if in into is it its itself just
me more most my myself no nor not now of off on once only or other our ours ourselves out over own
same she should so some such than that the their theirs them themselves then there these they this
those through to too under until up very was we were what when where which while who whom why
will with would you your yours yourself yourselves via across within without upon among may might
must shall we our us paper propose proposed method methods approach results show model models based
using use used new work
""".split()
)


def vectors_from_documents(documents: pd.DataFrame, topics: pd.DataFrame, top_n: int = 10) -> TopicVectors:
    """A class-based TF-IDF of each topic's abstracts (unigrams), for a report without a saved model.

    Keywords are those of `topics.csv`, scored by rank (10, 9, ...), when it has them; else the
    matrix's best terms with their scores.
    """
    import scipy.sparse as sp

    topic_ids = sorted(int(topic) for topic in topics["topic"])
    counters = []
    for topic in topic_ids:
        counter: Counter = Counter()
        for text in documents.loc[documents["topic"] == topic, "text"]:
            counter.update(
                token for token in (t.lower() for t in _TOKEN.findall(str(text))) if token not in _STOP_WORDS
            )
        counters.append(counter)
    vocabulary = sorted(set().union(*counters)) if counters else []
    column = {term: j for j, term in enumerate(vocabulary)}
    rows, cols, values = [], [], []
    for row, counter in enumerate(counters):
        for term, count in counter.items():
            rows.append(row)
            cols.append(column[term])
            values.append(float(count))
    counts = sp.csr_matrix((values, (rows, cols)), shape=(len(topic_ids), max(len(vocabulary), 1)))
    term_frequency = sp.diags(1.0 / np.maximum(np.asarray(counts.sum(axis=1)).ravel(), 1)) @ counts
    average_words = counts.sum() / max(len(topic_ids), 1)
    idf = np.log(1 + average_words / np.maximum(np.asarray(counts.sum(axis=0)).ravel(), 1))
    ctfidf = sp.csr_matrix(term_frequency @ sp.diags(idf))

    terms_of = dict(zip(topics["topic"].astype(int), topics["top_terms"].fillna("").astype(str)))
    words: dict[int, list[tuple[str, float]]] = {}
    for row, topic in enumerate(topic_ids):
        dense = ctfidf[row].toarray().ravel()
        listed = [term.strip() for term in terms_of.get(topic, "").split(";") if term.strip()]
        if listed:  # the pipeline's own keywords, scored by rank (its scores are in the model)
            words[topic] = [(term, float(len(listed) - i)) for i, term in enumerate(listed)]
        else:
            best = np.argsort(-dense)[:top_n]
            words[topic] = [(vocabulary[j], float(dense[j])) for j in best if dense[j] > 0]
    return TopicVectors(topics=topic_ids, ctfidf=ctfidf, embeddings=None, words=words, source="documents")
