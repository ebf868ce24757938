"""Does a topic's membership belong together? Cohesion per topic, and the mixed-bag rule.

cohesion = (mean pairwise cosine similarity of the topic's members - the same mean over the
whole corpus) / (1 - the corpus mean): 0 means the members are no more alike than random
documents of this corpus, 1 means identical. Normalising by the corpus makes the score mean
the same on a listing of one field (where every pair is fairly similar) and on a mixed one.
A topic whose cohesion is below `mixed_cohesion` and whose name most of its abstracts do not
use is a bag of unrelated papers; it keeps its documents (dissolving it would hide them as
outliers) but its label says so: "Mixed: ...".
"""

from __future__ import annotations

import numpy as np

from papertopics.cluster.assign import normalise

MIXED_PREFIX = "Mixed: "


def mean_pairwise(units: np.ndarray) -> float:
    """Mean cosine over all pairs of distinct rows (unit rows), from their sum."""
    n = len(units)
    if n < 2:
        return 1.0
    total = units.sum(axis=0)
    return float((total @ total - (units * units).sum()) / (n * (n - 1)))


def relative_cohesion(mean: float | np.ndarray, baseline: float) -> float | np.ndarray:
    """A group's mean pairwise cosine on the scale of the module docstring: 0 = the corpus
    baseline, 1 = identical."""
    return (mean - baseline) / max(1.0 - baseline, 1e-6)


def topic_cohesion(vectors: np.ndarray, topics: np.ndarray) -> dict[int, float]:
    """Topic id (>= 0) -> cohesion; computed from sums, so it is linear in the corpus size."""
    units = normalise(vectors)
    topics = np.asarray(topics)
    baseline = mean_pairwise(units)
    return {
        int(t): round(float(relative_cohesion(mean_pairwise(units[topics == t]), baseline)), 4)
        for t in sorted(set(topics.tolist()))
        if t >= 0
    }


# A topic whose name's phrase is in at least this share of its abstracts shares a subject,
# however loosely its embeddings hang together (five papers on LLM agents are not a bag).
SHARED_SUBJECT_COVERAGE = 0.6


def mixed_topics(
    cohesion: dict[int, float], threshold: float, coverage: dict[int, float] | None = None
) -> set[int]:
    """Topics whose members are not clearly more alike than random documents and, when the
    names' `coverage` is given, whose name is not used by most of them either."""
    return {
        t
        for t, value in cohesion.items()
        if value < threshold and (coverage or {}).get(t, 0.0) < SHARED_SUBJECT_COVERAGE
    }


def mark_mixed(labels: dict[int, str], mixed: set[int]) -> dict[int, str]:
    """Prefix the names of mixed topics (applied after naming, whatever names the topics)."""
    return {
        t: (MIXED_PREFIX + label if t in mixed and not label.startswith(MIXED_PREFIX) else label)
        for t, label in labels.items()
    }
