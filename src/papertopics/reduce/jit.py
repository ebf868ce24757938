"""Numba's on-disk cache for UMAP and pynndescent, so a new process does not recompile them.

umap-learn and pynndescent decorate ~42 functions with `numba.njit` without `cache=True`, so
every process compiles them again on its first fit: 12-14 s on an idle 2-core machine (54 s
under load), whatever the data size, paid by reduce_embeddings and by every stability refit
job. Making `cache=True` the default while those libraries are imported lets numba keep the
machine code in NUMBA_CACHE_DIR (common.smk sets it); measured under load: first fit of a
second process 1.7 s instead of 54 s. The compiled code is the same, so results do not change.
"""

from __future__ import annotations

import functools
import sys


def enable_numba_cache() -> None:
    """Call before the first `import umap`; a no-op once umap is imported (then too late)."""
    if "umap" in sys.modules or "pynndescent" in sys.modules:
        return
    import numba

    if getattr(numba.njit, "_papertopics_cache", False):
        return
    numba.njit, numba.jit = _cached(numba.njit), _cached(numba.jit)


def _cached(decorator):
    @functools.wraps(decorator)
    def wrapper(*args, **kwargs):
        kwargs.setdefault("cache", True)
        return decorator(*args, **kwargs)

    wrapper._papertopics_cache = True
    return wrapper
