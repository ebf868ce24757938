"""Shared helpers for the grouping experiments (issue 10). Nothing here writes under /work/main."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("BENCH_EMBED_CACHE", "/tmp/bench-embed-cache")
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402
from _common_eval import embed, load_arxiv_sample, load_bbc  # noqa: E402
from _grouping_research import load_proxy  # noqa: E402

OUT = Path(os.environ.get("GROUPING_IDEAS_OUT", "/tmp/grouping-exp"))
OUT.mkdir(parents=True, exist_ok=True)
CORPORA = ("arxiv6k", "proxy", "bbc")


def load(corpus: str):
    if corpus == "arxiv6k":
        texts, labels = load_arxiv_sample()
    elif corpus == "proxy":
        texts, labels = load_proxy()
    else:
        texts, labels = load_bbc()
    return texts, labels, embed(texts)


def umap_path(corpus: str, seed: int, nn, nc) -> Path:
    return OUT / f"umap_{corpus}_s{seed}_nn{nn}_nc{nc}.npy"


def umap_args(n: int, nn="auto", nc=5) -> dict:
    from papertopics.params import resolve_umap
    from papertopics.pipeline import default_config

    cfg = default_config()["umap"]
    return resolve_umap({**cfg, "n_neighbors": nn, "n_components": nc}, n)


def get_umap(corpus: str, vectors, seed: int, nn="auto", nc=5, compute=True):
    """Cached UMAP (papertopics.reduce.reduction.umap_reduce with the resolved default args, overrides nn/nc)."""
    path = umap_path(corpus, seed, nn, nc)
    if path.exists():
        return np.load(path)
    if not compute:
        return None
    from papertopics.reduce.reduction import umap_reduce

    t = time.perf_counter()
    red = umap_reduce(vectors, random_state=seed, **umap_args(len(vectors), nn, nc))
    secs = time.perf_counter() - t
    np.save(path, red)
    times = OUT / "umap_seconds.json"
    d = json.loads(times.read_text()) if times.exists() else {}
    d[path.name] = round(secs, 1)
    times.write_text(json.dumps(d, indent=1))
    print(f"# UMAP {path.name}: {secs:.1f} s", flush=True)
    return red


def clustered(reduced, vectors, hdbscan: dict):
    """(HDBSCAN labels, topics after the nearest-topic assignment): the default grouping, with
    whatever HDBSCAN settings the experiment overrides."""
    from papertopics.cluster.assign import assign_nearest
    from papertopics.cluster.clustering import cluster_documents
    from papertopics.pipeline import default_config

    raw, _ = cluster_documents(vectors, reduced, method="hdbscan", hdbscan=hdbscan, agglomerative={})
    q = default_config()["clustering"]["assign_min_confidence"]
    return raw, assign_nearest(vectors, raw, min_confidence=q)[0]
