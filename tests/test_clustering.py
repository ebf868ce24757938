"""The `auto` rules and the clusterers, on data whose right answer is known."""

from __future__ import annotations

import numpy as np
import pytest

from papertopics.cluster.clustering import agglomerative_labels, cluster_documents, relabel_by_size
from papertopics.params import resolve_agglomerative, resolve_hdbscan, resolve_method, resolve_umap
from papertopics.topics.representation import make_label

DEFAULTS = {
    "umap": {
        "n_neighbors": "auto",
        "n_components": 5,
        "min_dist": 0.0,
        "metric": "cosine",
        "low_memory": True,
    },
    "clustering": {"method": "auto", "small_corpus": 300},
    "hdbscan": {
        "min_cluster_size": "auto",
        "min_samples": "auto",
        "cluster_selection_method": "eom",
        "cluster_selection_epsilon": 0.0,
    },
    "agglomerative": {"min_cluster_size": "auto"},
}


def blobs(sizes, dim=16, spread=0.05, seed=0):
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(len(sizes), dim))
    points = np.vstack([c + spread * rng.normal(size=(n, dim)) for c, n in zip(centres, sizes)])
    truth = np.repeat(np.arange(len(sizes)), sizes)
    return points / np.linalg.norm(points, axis=1, keepdims=True), truth


def test_auto_rules_follow_corpus_size():
    assert resolve_method(DEFAULTS["clustering"], 37) == "agglomerative"
    assert resolve_method(DEFAULTS["clustering"], 3584) == "hdbscan"
    assert resolve_method({"method": "hdbscan", "small_corpus": 300}, 37) == "hdbscan"
    assert resolve_umap(DEFAULTS["umap"], 37)["n_neighbors"] == 12
    assert resolve_umap(DEFAULTS["umap"], 75_000)["n_neighbors"] == 15
    assert resolve_agglomerative(DEFAULTS["agglomerative"], 37)["n_topics"] == 6  # round(sqrt(37))
    assert resolve_agglomerative(DEFAULTS["agglomerative"], 9)["n_topics"] == 3  # at most N // 3
    assert resolve_agglomerative({"min_cluster_size": 4, "n_topics": "auto"}, 37) == {
        "min_cluster_size": 4,
        "n_topics": None,
    }  # the size rule, when asked
    small, big = resolve_hdbscan(DEFAULTS["hdbscan"], 3584), resolve_hdbscan(DEFAULTS["hdbscan"], 74_728)
    assert (small["min_cluster_size"], big["min_cluster_size"]) == (20, 91)
    assert small["min_samples"] == 4
    explicit = resolve_hdbscan({**DEFAULTS["hdbscan"], "min_cluster_size": 10, "min_samples": 10}, 3584)
    assert (explicit["min_cluster_size"], explicit["min_samples"]) == (10, 10)


def test_agglomerative_finds_planted_topics_without_outliers():
    points, truth = blobs([9, 8, 7, 6, 4, 3])
    labels = agglomerative_labels(points, min_cluster_size=3)
    assert labels.min() == 0 and labels.max() == 5
    from sklearn.metrics import adjusted_rand_score

    assert adjusted_rand_score(truth, labels) == 1.0
    assert np.bincount(labels).tolist() == sorted(np.bincount(labels).tolist(), reverse=True)


def test_too_few_documents_make_one_topic_and_say_why():
    points, _ = blobs([2, 2])
    labels, note = cluster_documents(
        points,
        points[:, :2],
        method="agglomerative",
        hdbscan=resolve_hdbscan(DEFAULTS["hdbscan"], 4),
        agglomerative={"min_cluster_size": 3},
    )
    assert labels.tolist() == [0, 0, 0, 0]
    assert "too few" in note and "one topic" in note


def test_hdbscan_keeps_outliers_visible():
    points, _ = blobs([40, 40, 40], dim=5, spread=0.02)
    noise = np.random.default_rng(1).uniform(-1, 1, size=(6, 5)) * 3
    reduced = np.vstack([points, noise])
    labels, note = cluster_documents(
        reduced,
        reduced,
        method="hdbscan",
        hdbscan=resolve_hdbscan(DEFAULTS["hdbscan"], len(reduced)),
        agglomerative={"min_cluster_size": 3},
    )
    assert note is None
    assert labels.max() == 2
    assert (labels[-6:] == -1).sum() >= 4


def test_relabel_by_size_is_deterministic():
    assert relabel_by_size(np.array([5, 5, -1, 2, 2, 2, 7])).tolist() == [1, 1, -1, 0, 0, 0, 2]


@pytest.mark.parametrize(
    "terms, expected",
    [
        (["language models", "language", "reasoning", "rewards"], "language models, reasoning, rewards"),
        (["sparse autoencoders", "autoencoders", "features", "sparse"], "sparse autoencoders, features"),
        ([], "(no distinctive terms)"),
    ],
)
def test_label_skips_terms_that_repeat_a_word(terms, expected):
    assert make_label(terms, 3) == expected


def test_label_folds_plurals_and_keeps_hyphenated_and_accented_words():
    assert make_label(["panel", "fairness", "panels", "privacy"], 3) == "panel, fairness, privacy"
    from papertopics.topics.representation import build_vectorizer

    vectorizer = build_vectorizer(
        {"domain_stop_words": True, "extra_stop_words": [], "ngram_range": [1, 1], "min_df": 1, "max_df": 1.0}
    )
    vectorizer.fit(["Chain-of-thought prompting for Pokémon battling agents"])
    assert {"chain-of-thought", "pokémon", "battling"} <= set(vectorizer.get_feature_names_out())


def test_cuml_switch_without_cuml_says_how_to_get_it():
    from papertopics.errors import ConfigError

    points, _ = blobs([20, 20], dim=5)
    with pytest.raises(ConfigError, match="clustering.cuml: true needs RAPIDS cuML"):
        cluster_documents(
            points,
            points,
            method="hdbscan",
            use_cuml=True,
            hdbscan=resolve_hdbscan(DEFAULTS["hdbscan"], 40),
            agglomerative={"min_cluster_size": 3},
        )


def _continent(spread: float, seed: int = 0) -> np.ndarray:
    """Four sub-clusters touching each other (one 'continent') and a small island far away."""
    rng = np.random.default_rng(seed)
    centres = [[0, 0, 0, 0, 0], [1, 0, 0, 0, 0], [0, 1, 0, 0, 0], [1, 1, 0, 0, 0]]
    parts = [np.array(c) + spread * rng.normal(size=(150, 5)) for c in centres]
    parts.append(np.array([20, 0, 0, 0, 0]) + 0.3 * rng.normal(size=(60, 5)))
    return np.vstack(parts)


def test_max_cluster_size_splits_a_continent_into_its_topics():
    """Uncapped, HDBSCAN's eom keeps the continent as one topic of 600; the auto cap splits it."""
    points = _continent(0.15)
    # HDBSCAN's own clusters: the points stand in for embeddings too, so no merging of near-twins
    base = {**DEFAULTS["hdbscan"], "min_cluster_size": 20, "min_samples": 4, "merge_similarity": None}
    uncapped = cluster_documents(
        points,
        points,
        method="hdbscan",
        agglomerative={"min_cluster_size": 3},
        hdbscan=resolve_hdbscan({**base, "max_cluster_size": 0}, len(points)),
    )[0]
    capped = cluster_documents(
        points,
        points,
        method="hdbscan",
        agglomerative={"min_cluster_size": 3},
        hdbscan=resolve_hdbscan(base, len(points)),
    )[0]
    assert np.bincount(uncapped[uncapped >= 0]).max() == 600
    assert capped.max() + 1 == 5 and (capped == -1).mean() < 0.1


def test_a_cap_that_shatters_a_cluster_into_outliers_is_dropped():
    """An 80/20 pair of structureless blobs: the cap would make most documents outliers."""
    rng = np.random.default_rng(0)
    points = np.vstack([0.5 * rng.normal(size=(400, 5)), [10, 0, 0, 0, 0] + 0.5 * rng.normal(size=(100, 5))])
    params = resolve_hdbscan({**DEFAULTS["hdbscan"], "min_cluster_size": 20, "min_samples": 4}, len(points))
    assert params["max_cluster_size"] == 250
    labels, _ = cluster_documents(
        points, points, method="hdbscan", hdbscan=params, agglomerative={"min_cluster_size": 3}
    )
    assert np.bincount(labels[labels >= 0]).tolist() == [400, 100]


def test_map_min_dist_reaches_only_the_document_map(monkeypatch):
    """umap.map_min_dist (was a hard-coded 0.1 in reduce_embeddings.py) spreads the 2-D map;
    the clusterer's reduction keeps umap.min_dist."""
    from papertopics.reduce import reduction as reduce

    calls = []

    def fake_umap(vectors, **kwargs):
        calls.append(kwargs)
        return np.zeros((len(vectors), kwargs["n_components"]), dtype=np.float32)

    monkeypatch.setattr(reduce, "umap_reduce", fake_umap)
    points, _ = blobs([30, 30])
    umap = {**DEFAULTS["umap"], "map_min_dist": 0.35}
    reduced, map2d = reduce.reduce_for_clustering_and_map(
        [f"d{i}" for i in range(60)], points, umap, random_state=7
    )
    assert [c["min_dist"] for c in calls] == [0.0, 0.35]
    assert [c["n_components"] for c in calls] == [5, 2] and {c["random_state"] for c in calls} == {7}
    assert list(reduced.columns) == ["doc_id", "u0", "u1", "u2", "u3", "u4"]
    assert list(map2d.columns) == ["doc_id", "x", "y"] and len(map2d) == 60
