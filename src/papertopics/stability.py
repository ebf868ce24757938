"""Stability: refit the reduction and clustering with other seeds and compare the topics.

A topic that appears only under one seed is an accident of that seed; the per-topic Jaccard
and overall ARI tell a researcher which topics to trust. Large corpora are compared on a fixed
random sample, so the cost stays bounded (K UMAP fits on the sample).
"""

from __future__ import annotations

import logging

import numpy as np

from papertopics.cluster import cluster_documents
from papertopics.evaluation import stability
from papertopics.reduce import umap_reduce

log = logging.getLogger(__name__)


def refit_labels(vectors: np.ndarray, *, seed: int, umap: dict, method: str, hdbscan: dict,
                 agglomerative: dict) -> np.ndarray:
    """The labels the pipeline would give these vectors under another random_state."""
    reduced = vectors if method == "agglomerative" else umap_reduce(vectors, random_state=seed, **umap)
    labels, _ = cluster_documents(vectors, reduced, method=method, hdbscan=hdbscan,
                                  agglomerative=agglomerative)
    return labels


def seed_stability(vectors: np.ndarray, labels: np.ndarray, *, runs: int, sample_size: int,
                   random_state: int, umap: dict, method: str, hdbscan: dict,
                   agglomerative: dict) -> dict:
    """Stability of the run's topics across `runs` other seeds (random_state + 1 ... + runs).

    Up to sample_size documents the reference is the run's own labels; above, every run
    (the reference seed included) is refitted on one fixed sample, and per-topic figures refer
    to the sample's topics.
    """
    n = len(vectors)
    if runs <= 0:
        return {"n_runs": 0, "ari": None, "mean_jaccard": None, "per_topic": {}, "sampled": False}
    sampled = n > sample_size
    if sampled:
        pick = np.sort(np.random.default_rng(random_state).choice(n, size=sample_size, replace=False))
        vectors = vectors[pick]
        reference = refit_labels(vectors, seed=random_state, umap=umap, method=method,
                                 hdbscan=hdbscan, agglomerative=agglomerative)
    else:
        reference = np.asarray(labels)
    others = []
    for k in range(1, runs + 1):
        others.append(refit_labels(vectors, seed=random_state + k, umap=umap, method=method,
                                   hdbscan=hdbscan, agglomerative=agglomerative))
        log.info("stability refit %d/%d: %d topics", k, runs, int(others[-1].max() + 1))
    result = stability(reference, others)
    result["sampled"] = sampled
    result["n_documents"] = int(len(vectors))
    result["seeds"] = [random_state + k for k in range(1, runs + 1)]
    return result
