"""UMAP reductions: one for clustering (n-D), one for the document map (2-D)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from papertopics.params import resolve_umap


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
        n_jobs=1,  # what a seeded UMAP runs anyway; any other value only adds a warning
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


def reduce_for_clustering_and_map(doc_ids: list[str], vectors: np.ndarray, umap: dict, *, random_state: int,
                                  use_cuml: bool = False, log=None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """reduced.parquet (doc_id, u0..) for the clusterer and map2d.parquet (doc_id, x, y) for the
    document map: same neighbours and seed; the map spreads points by umap.map_min_dist."""
    resolved = resolve_umap(umap, len(doc_ids))
    if log is not None:
        log.info("UMAP for clustering: %s", resolved)
    reduced = umap_reduce(vectors, random_state=random_state, use_cuml=use_cuml, **resolved)
    table = pd.DataFrame(reduced, columns=[f"u{i}" for i in range(reduced.shape[1])])
    table.insert(0, "doc_id", doc_ids)
    coords = umap_reduce(vectors, random_state=random_state, use_cuml=use_cuml,
                         **{**resolved, "n_components": 2, "min_dist": float(umap["map_min_dist"])})
    return table, pd.DataFrame({"doc_id": doc_ids, "x": coords[:, 0], "y": coords[:, 1]})
