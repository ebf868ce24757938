"""Stability: one refit per seed with the run's UMAP implementation; Ward measured by perturbation."""

from __future__ import annotations

import numpy as np
import pytest

from papertopics.errors import ConfigError
from papertopics.evaluate.refits import refit_reduction, refit_seeds, seed_stability, subsample_stability

HDBSCAN = {
    "min_cluster_size": 5,
    "min_samples": 2,
    "max_cluster_size": 0,
    "cluster_selection_method": "eom",
    "cluster_selection_epsilon": 0.0,
}
UMAP = {
    "n_components": 2,
    "n_neighbors": 5,
    "min_dist": 0.0,
    "metric": "cosine",
    "low_memory": True,
    "fit_sample": 0,
}


def blobs(n_per: int, k: int, spread: float, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(k, 32))
    labels = np.repeat(np.arange(k), n_per)
    vectors = centres[labels] + rng.normal(scale=spread, size=(k * n_per, 32))
    return (vectors / np.linalg.norm(vectors, axis=1, keepdims=True)).astype(np.float32), labels


def test_seeds_per_refit_job():
    assert refit_seeds(3582, 5, 5000, 42) == [43, 44, 45, 46, 47]
    assert refit_seeds(75_000, 5, 5000, 42) == [42, 43, 44, 45, 46, 47]  # sample: the run's own seed too
    assert refit_seeds(200, 5, 5000, 42, method="agglomerative") == []  # Ward has no seed to vary
    assert refit_seeds(3582, 0, 5000, 42) == []


def test_refits_use_the_main_runs_implementation():
    """clustering.cuml reaches the refit and the re-clustering: without cuML both say so."""
    vectors, _ = blobs(20, 3, 0.05)
    ids = [str(i) for i in range(len(vectors))]
    with pytest.raises(ConfigError, match="clustering.cuml"):
        refit_reduction(ids, vectors, umap=UMAP, seed=1, sample_size=5000, random_state=0, use_cuml=True)
    refits = __import__("pandas").DataFrame(
        {"doc_id": ids, "seed": 1, "u0": vectors[:, 0], "u1": vectors[:, 1]}
    )
    with pytest.raises(ConfigError, match="clustering.cuml"):
        seed_stability(
            ids,
            vectors,
            np.zeros(len(ids), int),
            refits,
            random_state=0,
            method="hdbscan",
            hdbscan=HDBSCAN,
            agglomerative={},
            use_cuml=True,
        )


def test_a_refit_covers_the_fixed_sample_with_its_seed():
    vectors, _ = blobs(40, 3, 0.05)
    ids = [f"d{i}" for i in range(len(vectors))]
    table = refit_reduction(ids, vectors, umap=UMAP, seed=9, sample_size=100, random_state=0)
    again = refit_reduction(ids, vectors, umap=UMAP, seed=10, sample_size=100, random_state=0)
    assert (
        len(table) == 100
        and set(table["seed"]) == {9}
        and list(table.columns) == ["doc_id", "seed", "u0", "u1"]
    )
    assert table["doc_id"].tolist() == again["doc_id"].tolist()  # same documents under every seed


def test_ward_stability_is_measured_by_subsamples_and_is_not_always_one():
    from papertopics.cluster.clustering import agglomerative_labels

    agg = {"min_cluster_size": 20}  # four groups of 30: no group splits into two of >= 20
    tight, truth = blobs(30, 4, 0.05)
    run = agglomerative_labels(tight, 20)
    assert len(set(run)) == 4
    ids = [str(i) for i in range(len(run))]
    result = subsample_stability(ids, tight, run, runs=5, share=0.9, random_state=0, agglomerative=agg)
    assert result["measured_by"] == "subsamples of 90%" and result["n_runs"] == 5
    assert result["ari"] > 0.95 and set(result["per_topic"]) == {0, 1, 2, 3}
    assert result["reference"] == {"doc_ids": ids, "labels": run.tolist()}  # keyed by the run's own clusters
    noise = np.random.default_rng(1).normal(size=(120, 32)).astype(np.float32)
    labels = agglomerative_labels(noise, 5)
    shaky = subsample_stability(
        [str(i) for i in range(len(labels))],
        noise,
        labels,
        runs=5,
        share=0.9,
        random_state=0,
        agglomerative={"min_cluster_size": 5},
    )
    assert shaky["ari"] < 0.9  # no structure: dropping 10% regroups the rest
