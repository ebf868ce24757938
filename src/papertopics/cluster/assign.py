"""After clustering: give outliers that fit a topic to their nearest topic, say how each got it.

HDBSCAN leaves a fifth of NeurIPS and a third of arXiv as outliers, and users read a large grey
mass as a broken map. Most of those documents sit near a topic but not in a dense core. Each
outlier is compared (cosine, in embedding space) with every topic's centroid of core members;
it joins the nearest topic when it is at least as close as `min_confidence` of that topic's own
core members are, else it stays an outlier: a document that fits no topic is still shown as one.

confidence, in [0, 1], is the share of the topic's core members that are no closer to the
topic's centroid than the document: 1 = as central as the most central member, 0.05 = closer
than only 5% of them. Outliers get the confidence they would have in the nearest topic.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

CORE, NEAREST, OUTLIER = "core", "nearest", "outlier"


def normalise(vectors: np.ndarray) -> np.ndarray:
    """Rows scaled to unit length (zero rows stay zero)."""
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms > 0, norms, 1.0)


def centroids(vectors: np.ndarray, labels: np.ndarray) -> tuple[list[int], np.ndarray]:
    """Topic ids (>= 0, sorted) and their normalised mean embeddings."""
    topics = sorted(t for t in set(np.asarray(labels).tolist()) if t >= 0)
    units = normalise(vectors)
    means = (
        np.stack([units[labels == t].mean(axis=0) for t in topics])
        if topics
        else np.zeros((0, units.shape[1]))
    )
    return topics, normalise(means)


def assign_nearest(
    vectors: np.ndarray,
    labels: np.ndarray,
    *,
    min_confidence: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(topics, assignment, confidence): outliers moved to the nearest topic where they fit.

    min_confidence 1 or more keeps every outlier; 0 assigns every outlier.
    """
    labels = np.asarray(labels)
    n = len(labels)
    topics = labels.copy()
    assignment = np.where(labels >= 0, CORE, OUTLIER).astype(object)
    confidence = np.zeros(n, dtype=float)
    ids, cents = centroids(vectors, labels)
    if not ids:
        return topics, assignment, confidence
    similarity = normalise(vectors) @ cents.T  # n x topics
    core_scores = {t: np.sort(similarity[labels == t, j]) for j, t in enumerate(ids)}

    def rank(topic: int, score: np.ndarray) -> np.ndarray:
        ref = core_scores[topic]
        return np.searchsorted(ref, score, side="right") / len(ref)

    for j, t in enumerate(ids):
        members = labels == t
        confidence[members] = rank(t, similarity[members, j])
    outliers = np.flatnonzero(labels < 0)
    if len(outliers):
        nearest = np.asarray(ids)[similarity[outliers].argmax(axis=1)]
        fit = np.array([rank(t, similarity[[i], ids.index(t)])[0] for i, t in zip(outliers, nearest)])
        confidence[outliers] = fit
        moved = fit >= min_confidence
        topics[outliers[moved]] = nearest[moved]
        assignment[outliers[moved]] = NEAREST
    return topics, assignment, np.clip(confidence, 0.0, 1.0)


def assignment_table(
    doc_ids: list[str], vectors: np.ndarray, labels: np.ndarray, resolved: dict, min_confidence: float
) -> pd.DataFrame:
    """results/cluster/clusters.parquet (doc_id, cluster, assignment, confidence); notes the
    counts before and after the assignment in `resolved` (params.json)."""
    topics, assignment, confidence = assign_nearest(vectors, labels, min_confidence=min_confidence)
    resolved["assign_min_confidence"] = min_confidence
    resolved["n_outliers_before_assignment"] = int((np.asarray(labels) < 0).sum())
    resolved["n_outliers"] = int((topics < 0).sum())
    resolved["n_assigned"] = int((assignment == NEAREST).sum())
    return pd.DataFrame(
        {"doc_id": doc_ids, "cluster": topics, "assignment": assignment.astype(str), "confidence": confidence}
    )
