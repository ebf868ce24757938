"""UMAP reductions: one for clustering (n-D), one for the document map (2-D)."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from papertopics.params import resolve_umap

# umap-learn computes every pairwise distance below this many points instead of a kNN search,
# calling its numba metric once per pair from Python: ~20 s for 3,600 abstracts, per fit.
UMAP_EXACT_BELOW = 4096

# umap-learn's metric names -> the vectorised ones of sklearn/scipy (same distances).
_VECTORISED_METRICS = {
    "cosine": "cosine",
    "euclidean": "euclidean",
    "l2": "euclidean",
    "manhattan": "manhattan",
    "l1": "manhattan",
    "taxicab": "manhattan",
    "chebyshev": "chebyshev",
    "linfinity": "chebyshev",
    "linfty": "chebyshev",
    "linf": "chebyshev",
    "minkowski": "minkowski",
    "canberra": "canberra",
    "braycurtis": "braycurtis",
    "correlation": "correlation",
}


def sample_indices(n: int, sample_size: int, random_state: int) -> np.ndarray:
    """All documents up to sample_size, else a fixed random sample (sorted)."""
    if n <= sample_size:
        return np.arange(n)
    return np.sort(np.random.default_rng(random_state).choice(n, size=sample_size, replace=False))


def umap_reduce(
    vectors: np.ndarray,
    *,
    n_components: int,
    n_neighbors: int,
    min_dist: float,
    metric: str,
    low_memory: bool,
    random_state: int,
    use_cuml: bool = False,
    fit_sample: int = 0,
    transform_chunk: int = 20_000,
    knn: tuple[np.ndarray, np.ndarray] | None = None,
) -> np.ndarray:
    """Reduce with a fixed seed, so the same config gives the same coordinates.

    A corpus too small for UMAP's spectral start (fewer than n_neighbors + 2 points) falls
    back to PCA, which is deterministic and good enough for a handful of points. Above
    `fit_sample` documents (0: never) UMAP is fitted on a fixed random sample of that size and
    the other documents are placed by `transform` (a kNN query against the fitted sample plus
    a few epochs), in chunks, so time and memory grow with the sample, not with the corpus.
    Whatever the caller feeds in (embeddings or other clustering features) is reduced the same way.
    Below UMAP_EXACT_BELOW points the exact neighbours UMAP would compute are computed here,
    vectorised (`exact_neighbours`; pass `knn` to share them between fits of the same vectors).
    """
    n = len(vectors)
    if n <= n_components + 1 or n < 4:
        return pca_reduce(vectors, n_components)
    sampled = bool(fit_sample) and n > fit_sample
    pick = sample_indices(n, fit_sample, random_state) if sampled else np.arange(n)
    model = _umap_model(
        len(pick),
        n_components=n_components,
        n_neighbors=n_neighbors,
        min_dist=min_dist,
        metric=metric,
        low_memory=low_memory,
        random_state=random_state,
        use_cuml=use_cuml,
        knn=None if use_cuml or sampled else (knn or exact_neighbours(vectors, n_neighbors, metric)),
    )
    with warnings.catch_warnings():
        # with our own neighbours UMAP has no search index; only a sampled fit transforms
        warnings.filterwarnings("ignore", message="precomputed_knn")
        fitted = model.fit_transform(vectors[pick] if sampled else vectors)
    fitted = np.asarray(fitted, dtype=np.float32)
    if not sampled:
        return fitted
    out = np.empty((n, fitted.shape[1]), dtype=np.float32)
    out[pick] = fitted
    rest = np.setdiff1d(np.arange(n), pick)
    for start in range(0, len(rest), transform_chunk):
        chunk = rest[start : start + transform_chunk]
        out[chunk] = np.asarray(model.transform(vectors[chunk]), dtype=np.float32)
    return out


def _umap_model(
    n: int,
    *,
    n_components: int,
    n_neighbors: int,
    min_dist: float,
    metric: str,
    low_memory: bool,
    random_state: int,
    use_cuml: bool,
    knn: tuple[np.ndarray, np.ndarray] | None = None,
):
    """One UMAP estimator, CPU (umap-learn) or GPU (cuML), with the same settings."""
    if use_cuml:
        UMAP = gpu_class("cuml.manifold", "UMAP")
        return UMAP(
            n_components=n_components,
            n_neighbors=min(n_neighbors, n - 1),
            min_dist=min_dist,
            metric=metric,
            random_state=random_state,
        )
    from papertopics.reduce.jit import enable_numba_cache

    enable_numba_cache()
    from umap import UMAP

    return UMAP(
        n_components=n_components,
        n_neighbors=min(n_neighbors, n - 1),
        min_dist=min_dist,
        metric=metric,
        low_memory=low_memory,
        random_state=random_state,
        n_jobs=1,  # what a seeded UMAP runs anyway; any other value only adds a warning
        init="spectral" if n > n_components + 10 else "random",
        precomputed_knn=(None, None, None) if knn is None else (knn[0].copy(), knn[1].copy(), None),
    )


def exact_neighbours(
    vectors: np.ndarray, n_neighbors: int, metric: str
) -> tuple[np.ndarray, np.ndarray] | None:
    """The exact neighbours (self first, as UMAP counts them) of a small corpus, or None.

    UMAP below UMAP_EXACT_BELOW points computes the same all-pairs distances and sorts each
    row (stable, as here), but one Python call per pair; vectorised it takes a fraction of a
    second. None where UMAP would search approximately anyway, or for a metric sklearn lacks.
    """
    n = len(vectors)
    name = _VECTORISED_METRICS.get(metric)
    if n >= UMAP_EXACT_BELOW or name is None or n < 2:
        return None
    from sklearn.metrics import pairwise_distances

    k = min(n_neighbors, n - 1)
    distances = pairwise_distances(np.asarray(vectors, dtype=np.float64), metric=name)
    indices = np.argsort(distances, axis=1, kind="stable")[:, :k].astype(np.int32)
    return indices, np.take_along_axis(distances, indices, axis=1)


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
        raise ConfigError(
            f"clustering.cuml: true needs RAPIDS cuML on a CUDA machine "
            f"(pip install cuml-cu12); {module} failed to import: {error}"
        ) from None


def reduce_for_clustering_and_map(
    doc_ids: list[str],
    vectors: np.ndarray,
    umap: dict,
    *,
    random_state: int,
    use_cuml: bool = False,
    log=None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """reduced.parquet (doc_id, u0..) for the clusterer and map2d.parquet (doc_id, x, y) for the
    document map: same neighbours and seed; the map spreads points by umap.map_min_dist."""
    resolved = resolve_umap(umap, len(doc_ids))
    if log is not None:
        log.info("UMAP for clustering: %s", resolved)
    knn = None if use_cuml else exact_neighbours(vectors, resolved["n_neighbors"], resolved["metric"])
    reduced = umap_reduce(vectors, random_state=random_state, use_cuml=use_cuml, knn=knn, **resolved)
    table = pd.DataFrame(reduced, columns=[f"u{i}" for i in range(reduced.shape[1])])
    table.insert(0, "doc_id", doc_ids)
    coords = umap_reduce(
        vectors,
        random_state=random_state,
        use_cuml=use_cuml,
        knn=knn,
        **{**resolved, "n_components": 2, "min_dist": float(umap["map_min_dist"])},
    )
    return table, pd.DataFrame({"doc_id": doc_ids, "x": coords[:, 0], "y": coords[:, 1]})
