"""UMAP reductions: one for clustering (n-D), one for the document map (2-D)."""

from __future__ import annotations

import numpy as np


def umap_reduce(vectors: np.ndarray, *, n_components: int, n_neighbors: int, min_dist: float,
                metric: str, low_memory: bool, random_state: int, use_cuml: bool = False) -> np.ndarray:
    """Reduce with a fixed seed, so the same config gives the same coordinates.

    A corpus too small for UMAP's spectral start (fewer than n_neighbors + 2 points) falls
    back to PCA, which is deterministic and good enough for a handful of points.
    """
    n = len(vectors)
    if n <= n_components + 1 or n < 4:
        return pca_reduce(vectors, n_components)
    if use_cuml:
        UMAP = gpu_class("cuml.manifold", "UMAP")
        model = UMAP(n_components=n_components, n_neighbors=min(n_neighbors, n - 1), min_dist=min_dist,
                     metric=metric, random_state=random_state)
        return np.asarray(model.fit_transform(vectors), dtype=np.float32)
    from umap import UMAP

    model = UMAP(
        n_components=n_components,
        n_neighbors=min(n_neighbors, n - 1),
        min_dist=min_dist,
        metric=metric,
        low_memory=low_memory,
        random_state=random_state,
        init="spectral" if n > n_components + 10 else "random",
    )
    return np.asarray(model.fit_transform(vectors), dtype=np.float32)


def pca_reduce(vectors: np.ndarray, n_components: int) -> np.ndarray:
    """Deterministic linear projection, padded with zeros when there are too few points."""
    centred = vectors - vectors.mean(axis=0, keepdims=True)
    u, s, _ = np.linalg.svd(centred, full_matrices=False)
    reduced = u * s
    out = np.zeros((len(vectors), n_components), dtype=np.float32)
    k = min(n_components, reduced.shape[1])
    out[:, :k] = reduced[:, :k]
    return out


def gpu_class(module: str, name: str):
    """A RAPIDS cuML class, or a one-line error saying how to get it (clustering.cuml: true)."""
    import importlib

    from papertopics.errors import ConfigError

    try:
        return getattr(importlib.import_module(module), name)
    except ImportError as error:
        raise ConfigError(f"clustering.cuml: true needs RAPIDS cuML on a CUDA machine "
                          f"(pip install cuml-cu12); {module} failed to import: {error}") from None
