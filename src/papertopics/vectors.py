"""Embedding vectors as every stage uses them: unit rows and topic centroids, one definition each.

A topic's centroid is the mean of its documents' vectors scaled to unit length: the outlier
assignment (cluster.assign), representative documents (topics.representation), stable ids
(topics.identity) and the topic tree (topics.names.hierarchy) all take it from `centroids`;
the saved model's topic embeddings are the unscaled means (`topic_means`, BERTopic's definition).
"""

from __future__ import annotations

import numpy as np


def normalise(vectors: np.ndarray, dtype=np.float32) -> np.ndarray:
    """Rows scaled to unit length (zero rows stay zero), as `dtype`."""
    vectors = np.asarray(vectors, dtype=dtype)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms > 0, norms, 1.0)


def topic_ids(labels: np.ndarray) -> list[int]:
    """The topic ids in `labels`, sorted, the outliers (-1) left out."""
    return sorted(t for t in set(np.asarray(labels).tolist()) if t >= 0)


def topic_means(vectors: np.ndarray, labels: np.ndarray, topics: list[int]) -> np.ndarray:
    """One row per topic of `topics`: the mean of its documents' vectors, in the vectors' dtype."""
    vectors = np.asarray(vectors)
    labels = np.asarray(labels)
    if not len(topics):
        return np.zeros((0, vectors.shape[1]), dtype=vectors.dtype)
    return np.stack([vectors[labels == t].mean(axis=0) for t in topics])


def centroids(
    vectors: np.ndarray, labels: np.ndarray, topics: list[int] | None = None, *, dtype=np.float32
) -> np.ndarray:
    """Unit-length mean vector of each topic of `topics` (default: topic_ids(labels)), as `dtype`."""
    return normalise(topic_means(vectors, labels, topic_ids(labels) if topics is None else topics), dtype)
