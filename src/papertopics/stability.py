"""Stability: refit the reduction and clustering with other seeds and compare the topics.

A topic that appears only under one seed is an accident of that seed; the per-topic Jaccard
and overall ARI tell a researcher which topics to trust. The UMAP refits (the expensive part,
one process so numba compiles once) depend only on embeddings and UMAP settings, so a
clustering tweak re-clusters the cached refits instead of refitting. Large corpora are compared
on a fixed random sample, so the cost stays bounded.
"""

from __future__ import annotations

import logging

import numpy as np
import pandas as pd

from papertopics.assign import assign_nearest
from papertopics.cluster import cluster_documents
from papertopics.evaluation import stability
from papertopics.params import resolve_clustering, resolve_method, resolve_umap
from papertopics.reduce import umap_reduce

log = logging.getLogger(__name__)


def sample_indices(n: int, sample_size: int, random_state: int) -> np.ndarray:
    """All documents up to sample_size, else a fixed random sample (sorted)."""
    if n <= sample_size:
        return np.arange(n)
    return np.sort(np.random.default_rng(random_state).choice(n, size=sample_size, replace=False))


def refit_seeds(n: int, runs: int, sample_size: int, random_state: int) -> list[int]:
    """Seeds to refit: the K next seeds, plus the run's own seed when comparing on a sample."""
    seeds = [random_state + k for k in range(1, runs + 1)]
    return ([random_state] + seeds) if runs and n > sample_size else seeds


def refit_reductions(doc_ids: list[str], vectors: np.ndarray, *, umap: dict | None, runs: int,
                     sample_size: int, random_state: int) -> pd.DataFrame:
    """Long table doc_id, seed, u0..: one UMAP reduction per seed (none when umap is None)."""
    pick = sample_indices(len(vectors), sample_size, random_state)
    frames = []
    for seed in refit_seeds(len(vectors), runs, sample_size, random_state):
        frame = pd.DataFrame({"doc_id": np.asarray(doc_ids)[pick], "seed": seed})
        if umap is not None:
            reduced = umap_reduce(vectors[pick], random_state=seed, **umap)
            for i in range(reduced.shape[1]):
                frame[f"u{i}"] = reduced[:, i]
            log.info("stability: UMAP refit with seed %d done", seed)
        frames.append(frame)
    if not frames:
        return pd.DataFrame({"doc_id": pd.Series(dtype=str), "seed": pd.Series(dtype=int)})
    return pd.concat(frames, ignore_index=True)


def seed_stability(doc_ids: list[str], vectors: np.ndarray, labels: np.ndarray, refits: pd.DataFrame, *,
                   random_state: int, method: str, hdbscan: dict, agglomerative: dict,
                   assign_min_confidence: float | None = None) -> dict:
    """Compare the run's topics with the topics of every refit (same documents, other seeds).

    On a full corpus the reference is the run's own labels; on a sample it is the refit with
    the run's own seed, so every labelling compared was made the same way. The reference
    labelling is returned too: its ids are not the run's topic ids (see topic_stability).
    """
    seeds = sorted(set(refits["seed"].tolist()))
    if not seeds:
        return {"n_runs": 0, "ari": None, "mean_jaccard": None, "per_topic": {}, "sampled": False,
                "reference": {"doc_ids": [], "labels": []}}
    index = {doc_id: i for i, doc_id in enumerate(doc_ids)}

    def labels_for(seed: int) -> np.ndarray:
        part = refits[refits["seed"] == seed]
        rows = part["doc_id"].map(index).to_numpy()
        coords = part.filter(regex=r"^u\d+$").to_numpy()
        space = vectors[rows] if method == "agglomerative" or coords.shape[1] == 0 else coords
        result, _ = cluster_documents(vectors[rows], space, method=method, hdbscan=hdbscan,
                                      agglomerative=agglomerative)
        if assign_min_confidence is not None:  # as the run's own topics were made
            result = assign_nearest(vectors[rows], result, min_confidence=assign_min_confidence)[0]
        return result

    sampled = random_state in seeds
    first = refits[refits["seed"] == seeds[0]]["doc_id"]
    reference = labels_for(random_state) if sampled else np.asarray(labels)[first.map(index).to_numpy()]
    others = [labels_for(seed) for seed in seeds if seed != random_state]
    result = stability(reference, others)
    result["sampled"] = sampled
    result["n_documents"] = int(len(first))
    result["seeds"] = [seed for seed in seeds if seed != random_state]
    # per_topic is keyed by the reference's labels; evaluation.topic_stability maps them to topics.
    result["reference"] = {"doc_ids": first.tolist(), "labels": [int(x) for x in reference]}
    return result


def refit_plan(config: dict, n_documents: int, sample_size: int) -> dict | None:
    """UMAP settings for the refits, or None where the run clusters the embeddings themselves
    (small corpora, Ward): then there is nothing to refit."""
    if resolve_method(config["clustering"], n_documents) == "agglomerative":
        return None
    return resolve_umap(config["umap"], min(n_documents, sample_size))


def assess_stability(doc_ids: list[str], vectors: np.ndarray, labels: np.ndarray, refits: pd.DataFrame,
                     resolved: dict, config: dict, *, random_state: int) -> dict:
    """seed_stability with the run's clustering; a sampled comparison uses the HDBSCAN sizes
    `auto` would pick for the sample (config: the hdbscan section and friends)."""
    n = refits["doc_id"].nunique() if len(refits) else len(doc_ids)
    hdbscan = resolved["hdbscan"] if n == len(doc_ids) else resolve_clustering(config, n)["hdbscan"]
    return seed_stability(doc_ids, vectors, labels, refits, random_state=random_state, method=resolved["method"],
                          hdbscan=hdbscan, agglomerative=resolved["agglomerative"],
                          assign_min_confidence=resolved.get("assign_min_confidence"))
