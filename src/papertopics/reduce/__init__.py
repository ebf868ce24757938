"""Reduce stage (rule reduce_embeddings): embeddings -> UMAP coordinates for clustering and the map.

`reduction` fits UMAP (on a sample above umap.fit_sample) and transforms the rest; `jit` gives
umap/pynndescent numba's disk cache, so a new process does not compile them again.
"""

from papertopics.reduce.reduction import reduce_for_clustering_and_map, umap_reduce

__all__ = ["reduce_for_clustering_and_map", "umap_reduce"]
