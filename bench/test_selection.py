"""bench/selection.py: the data-driven `auto` for HDBSCAN sizes and the small-corpus method,
on synthetic reductions whose answer is known (fast: HDBSCAN on a few hundred 5-D points)."""

from __future__ import annotations

import numpy as np
import pytest
from selection import candidate_grid, choose_hdbscan, choose_method, measure, pick

HDBSCAN_AUTO = {
    "min_cluster_size": "auto",
    "min_samples": "auto",
    "cluster_selection_method": "eom",
    "cluster_selection_epsilon": 0.0,
}
CLUSTERING_AUTO = {"method": "auto", "small_corpus": 300}


def reductions(sizes, runs=4, spread=0.3, jitter=0.05, dim=5, seed=0):
    """A reference 'UMAP output' of well-separated blobs and `runs` refits: the same points
    moved a little and the blobs placed elsewhere, as another UMAP seed would."""
    rng = np.random.default_rng(seed)
    points = np.vstack([rng.normal(size=dim) * 10 + spread * rng.normal(size=(n, dim)) for n in sizes])
    out = [points]
    for _ in range(runs):
        shift = np.repeat(rng.normal(size=(len(sizes), dim)) * 3, sizes, axis=0)
        out.append(points + shift + jitter * rng.normal(size=points.shape))
    return [r.astype(np.float32) for r in out], np.repeat(np.arange(len(sizes)), sizes)


def test_grid_scales_the_formula_and_follows_min_samples():
    grid = candidate_grid(HDBSCAN_AUTO, 3584)
    assert [g["min_cluster_size"] for g in grid] == [10, 20, 40]
    assert [g["min_samples"] for g in grid] == [2, 4, 8]
    fixed_samples = candidate_grid({**HDBSCAN_AUTO, "min_samples": 3}, 3584)
    assert [g["min_samples"] for g in fixed_samples] == [3, 3, 3]
    assert [g["min_cluster_size"] for g in candidate_grid(HDBSCAN_AUTO, 20)] == [2, 5, 10]


def test_explicit_min_cluster_size_is_honoured_without_measuring():
    reds, _ = reductions([50, 50, 50])
    params, table = choose_hdbscan(reds, {**HDBSCAN_AUTO, "min_cluster_size": 33}, 150)
    assert params["min_cluster_size"] == 33
    assert len(table) == 1 and table[0]["ari"] is None and "explicit" in table[0]["reason"]


def test_no_refits_falls_back_to_the_formula():
    reds, _ = reductions([50, 50, 50])
    params, table = choose_hdbscan(reds[:1], HDBSCAN_AUTO, 3584)
    assert params["min_cluster_size"] == 20 and table[0]["reason"] == "no refits to measure"


def test_planted_topics_are_found_and_the_choice_is_explained():
    reds, truth = reductions([80, 70, 60, 50])
    params, table = choose_hdbscan(reds, HDBSCAN_AUTO, len(truth))
    assert len(table) == 3 and sum(row["chosen"] for row in table) == 1
    chosen = next(row for row in table if row["chosen"])
    assert chosen["min_cluster_size"] == params["min_cluster_size"]
    assert chosen["topics"] == 4 and chosen["ari"] > 0.95
    assert "within 0.05" in chosen["reason"]
    from sklearn.metrics import adjusted_rand_score

    from papertopics.cluster.clustering import clusterer_settings, hdbscan_labels

    labels = hdbscan_labels(reds[0], **clusterer_settings(params))
    assert adjusted_rand_score(truth, labels) > 0.95


def test_pick_takes_the_smallest_size_near_the_best_and_needs_two_topics():
    rows = [
        {"min_cluster_size": 5, "ari": 0.60, "topics": 40},
        {"min_cluster_size": 10, "ari": 0.82, "topics": 20},
        {"min_cluster_size": 20, "ari": 0.85, "topics": 12},
        {"min_cluster_size": 40, "ari": 1.00, "topics": 1},  # one topic: trivially stable, ignored
    ]
    assert pick(rows, formula_size=20)["min_cluster_size"] == 10
    assert pick(rows, formula_size=20, tolerance=0.01)["min_cluster_size"] == 20
    degenerate = rows[:3] + [{"min_cluster_size": 80, "ari": 0.99, "topics": 2, "largest_share": 0.84}]
    assert pick(degenerate, formula_size=20)["min_cluster_size"] == 10  # 0.99 is not the best to be near
    none_usable = [
        {"min_cluster_size": 20, "ari": 1.0, "topics": 0},
        {"min_cluster_size": 40, "ari": 1.0, "topics": 1},
    ]
    assert pick(none_usable, formula_size=20)["min_cluster_size"] == 20


def test_a_sample_measures_with_sizes_scaled_to_its_density():
    reds, truth = reductions([60, 60, 60])
    row = measure(
        reds,
        {
            "min_cluster_size": 90,
            "min_samples": 18,
            "cluster_selection_method": "eom",
            "cluster_selection_epsilon": 0.0,
        },
        n_documents=1800,
    )
    assert row["min_cluster_size"] == 90 and row["measured_min_cluster_size"] == 9
    assert row["topics"] == 3


def test_sample_scaling_also_scales_a_size_cap():
    from selection import _scaled

    params = {"min_cluster_size": 90, "min_samples": 18, "max_cluster_size": 3000}
    assert _scaled(params, 0.1) == {"min_cluster_size": 9, "min_samples": 2, "max_cluster_size": 300}
    assert _scaled(params, 1.0) == params


def test_small_corpus_keeps_agglomerative_unless_hdbscan_is_stable():
    clear, _ = reductions([40, 40, 40, 40])
    method, _, _ = choose_method(clear, CLUSTERING_AUTO, HDBSCAN_AUTO, 160)
    assert method == "hdbscan"
    rng = np.random.default_rng(1)
    noise = [rng.uniform(size=(40, 5)).astype(np.float32) for _ in range(5)]  # no structure, refits unrelated
    method, _, _ = choose_method(noise, CLUSTERING_AUTO, HDBSCAN_AUTO, 40)
    assert method == "agglomerative"


@pytest.mark.parametrize("method", ["agglomerative", "hdbscan"])
def test_explicit_method_and_large_corpus_are_left_alone(method):
    rng = np.random.default_rng(2)
    noise = [rng.uniform(size=(60, 5)).astype(np.float32) for _ in range(3)]
    assert choose_method(noise, {"method": method, "small_corpus": 300}, HDBSCAN_AUTO, 60)[0] == method
    assert choose_method(noise, CLUSTERING_AUTO, HDBSCAN_AUTO, 6000)[0] == "hdbscan"
