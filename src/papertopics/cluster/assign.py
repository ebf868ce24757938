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

from papertopics.constants import ASSIGNED_CORE, ASSIGNED_NEAREST, UNASSIGNED
from papertopics.vectors import centroids, normalise, topic_ids


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
    assignment = np.where(labels >= 0, ASSIGNED_CORE, UNASSIGNED).astype(object)
    confidence = np.zeros(n, dtype=float)
    ids = topic_ids(labels)
    cents = centroids(normalise(vectors), labels, ids)
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
        assignment[outliers[moved]] = ASSIGNED_NEAREST
    return topics, assignment, np.clip(confidence, 0.0, 1.0)
