"""UMAP on a sample above `umap.fit_sample`: the rest placed by transform, same output contract."""

from __future__ import annotations

import numpy as np
import pytest

from papertopics.params import resolve_umap
from papertopics.reduce import reduction as reduce

UMAP_ARGS = {"n_components": 3, "n_neighbors": 5, "min_dist": 0.0, "metric": "cosine", "low_memory": True}


class FakeUMAP:
    """Records what it is fitted on and asked to transform; coordinates = first columns."""

    calls: list = []

    def __init__(self, n_components, **kwargs):
        self.n_components = n_components

    def fit_transform(self, x):
        FakeUMAP.calls.append(("fit", len(x)))
        return x[:, : self.n_components] + 1000

    def transform(self, x):
        FakeUMAP.calls.append(("transform", len(x)))
        return x[:, : self.n_components]


@pytest.fixture
def fake_umap(monkeypatch):
    FakeUMAP.calls = []
    monkeypatch.setattr(reduce, "_umap_model", lambda n, **kw: FakeUMAP(kw["n_components"]))
    return FakeUMAP


def test_above_the_threshold_umap_is_fitted_on_the_sample_and_transforms_the_rest(fake_umap):
    vectors = np.random.default_rng(0).normal(size=(1000, 8)).astype(np.float32)
    out = reduce.umap_reduce(vectors, random_state=7, fit_sample=300, transform_chunk=250, **UMAP_ARGS)
    assert out.shape == (1000, 3) and out.dtype == np.float32
    assert fake_umap.calls == [("fit", 300), ("transform", 250), ("transform", 250), ("transform", 200)]
    # every document keeps its own row: fitted rows carry the fit's output, the others the transform's
    fitted = np.isin(np.arange(1000), reduce.sample_indices(1000, 300, 7))
    np.testing.assert_allclose(out[fitted], vectors[fitted, :3] + 1000)
    np.testing.assert_allclose(out[~fitted], vectors[~fitted, :3])


def test_at_or_below_the_threshold_umap_sees_every_document(fake_umap):
    vectors = np.random.default_rng(0).normal(size=(300, 8)).astype(np.float32)
    reduce.umap_reduce(vectors, random_state=7, fit_sample=300, **UMAP_ARGS)
    reduce.umap_reduce(vectors, random_state=7, fit_sample=0, **UMAP_ARGS)
    assert fake_umap.calls == [("fit", 300), ("fit", 300)]


def test_the_sample_is_fixed_by_the_seed():
    a, b = reduce.sample_indices(5000, 100, 1), reduce.sample_indices(5000, 100, 1)
    assert np.array_equal(a, b) and len(np.unique(a)) == 100
    assert not np.array_equal(a, reduce.sample_indices(5000, 100, 2))


def test_fit_sample_reaches_the_reduction_from_config():
    assert (
        resolve_umap({**UMAP_ARGS, "n_neighbors": "auto", "fit_sample": 20000}, 75_000)["fit_sample"] == 20000
    )


def test_real_umap_on_a_sample_keeps_separated_groups_apart():
    """Two far-apart groups: transformed documents land beside their own group's fitted ones."""
    rng = np.random.default_rng(0)
    centres = np.eye(16, dtype=np.float32)[[0, 8]] * 5
    group = np.repeat([0, 1], 200)
    vectors = centres[group] + rng.normal(scale=0.3, size=(400, 16)).astype(np.float32)
    out = reduce.umap_reduce(
        vectors,
        random_state=3,
        fit_sample=150,
        n_components=2,
        n_neighbors=10,
        min_dist=0.0,
        metric="euclidean",
        low_memory=True,
    )
    assert np.isfinite(out).all()
    means = np.array([out[group == g].mean(axis=0) for g in (0, 1)])
    nearest = np.argmin(((out[:, None, :] - means[None]) ** 2).sum(-1), axis=1)
    assert (nearest == group).mean() > 0.98


def test_umap_functions_are_compiled_into_numbas_disk_cache(tmp_path):
    """A new process reuses the JIT of the previous one (12-14 s per UMAP job otherwise)."""
    import os
    import subprocess
    import sys

    code = (
        "from papertopics.reduce.jit import enable_numba_cache; enable_numba_cache()\n"
        "import umap.layouts as layouts\n"
        "print(type(layouts._nb_optimize_layout_euclidean_single_epoch._cache).__name__)\n"
    )
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path)}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.split()[-1] == "FunctionCache"  # NullCache without the default


@pytest.mark.parametrize("metric", ["cosine", "euclidean", "manhattan", "correlation"])
def test_exact_neighbours_give_umap_the_graph_it_would_build_itself(metric):
    """Below 4,096 points umap-learn scores every pair from Python (~20 s for 3,600 abstracts);
    the vectorised neighbours must give it the same fuzzy graph, only faster."""
    from umap import UMAP

    vectors = np.random.default_rng(1).normal(size=(300, 12)).astype(np.float32)
    args = {"n_neighbors": 10, "metric": metric, "random_state": 0, "n_jobs": 1, "n_epochs": 1}
    own = UMAP(**args).fit(vectors)
    knn = reduce.exact_neighbours(vectors, 10, metric)
    ours = UMAP(**args, precomputed_knn=(*knn, None)).fit(vectors)
    assert knn[0].shape == (300, 10) and (knn[0][:, 0] == np.arange(300)).all()  # self first
    assert abs(own.graph_ - ours.graph_).max() < 1e-5
    assert own.graph_.nnz == ours.graph_.nnz


def test_exact_neighbours_leave_large_corpora_and_unknown_metrics_to_umap():
    small = np.random.default_rng(0).normal(size=(50, 4)).astype(np.float32)
    assert reduce.exact_neighbours(small, 5, "hellinger") is None  # UMAP computes it as before
    assert reduce.exact_neighbours(np.zeros((reduce.UMAP_EXACT_BELOW, 2), np.float32), 5, "cosine") is None
    indices, distances = reduce.exact_neighbours(small, 60, "euclidean")  # more neighbours than points
    assert indices.shape == (50, 49) and (np.diff(distances, axis=1) >= 0).all()
