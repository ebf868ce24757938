"""Vectorised exact neighbours below 4,096 documents (issue 15) vs umap-learn's own all-pairs
loop: the same neighbours, so the grouping should move only as much as another seed moves it.

Paired, seed by seed, on the corpora under 4,096 documents (arXiv mixed, BBC): "before" is
umap-learn computing its neighbours itself, "after" is `umap_reduce` (exact_neighbours).

    PYTHONPATH=bench .venv/bin/python bench/grouping_ideas/exact_knn.py [--seeds 42 43 ...] [--corpora proxy bbc]
"""

from __future__ import annotations

import argparse
import sys
import time

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
import numpy as np  # noqa: E402
from common import OUT, clustered, load, umap_args  # noqa: E402

from papertopics.evaluate.metrics import label_agreement  # noqa: E402
from papertopics.params import resolve_hdbscan  # noqa: E402
from papertopics.pipeline import default_config  # noqa: E402
from papertopics.reduce.reduction import _umap_model, umap_reduce  # noqa: E402


def umap_own_neighbours(vectors: np.ndarray, seed: int, args: dict) -> np.ndarray:
    """The reduction as before the change: umap-learn scores every pair itself."""
    keys = ("n_components", "n_neighbors", "min_dist", "metric", "low_memory")
    model = _umap_model(len(vectors), random_state=seed, use_cuml=False, **{k: args[k] for k in keys})
    return np.asarray(model.fit_transform(vectors), dtype=np.float32)


def cached(path, compute, *args, **kwargs) -> np.ndarray:
    if not path.exists():
        np.save(path, compute(*args, **kwargs))
    return np.load(path)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[42, 43, 44, 45, 46])
    parser.add_argument("--corpora", nargs="+", default=["proxy", "bbc"])
    options = parser.parse_args()
    for corpus in options.corpora:
        texts, labels, vectors = load(corpus)
        hd = resolve_hdbscan(default_config()["hdbscan"], len(vectors))
        args = umap_args(len(vectors))
        rows = []
        for seed in options.seeds:
            t = time.perf_counter()
            old = cached(OUT / f"umap_{corpus}_s{seed}_ownknn.npy", umap_own_neighbours, vectors, seed, args)
            t_old = time.perf_counter() - t
            new = cached(
                OUT / f"umap_{corpus}_s{seed}_exactknn.npy",
                umap_reduce,
                vectors,
                random_state=seed,
                **args,
            )
            t_new = time.perf_counter() - t - t_old
            for name, red in (("old", old), ("new", new)):
                topics = clustered(red, vectors, hd)[1]
                a = label_agreement(topics, labels)
                rows.append(
                    (name, seed, int(topics.max() + 1), float((topics < 0).mean()), a["nmi"], a["ari"])
                )
            print(
                f"{corpus} seed {seed}: UMAP before {t_old:.1f} s, after {t_new:.1f} s (0 if cached)",
                flush=True,
            )
        for name in ("old", "new"):
            r = [x for x in rows if x[0] == name]
            print(
                f"{corpus} {name}: topics {[x[2] for x in r]} outliers {np.mean([x[3] for x in r]):.3f} "
                f"NMI {[round(x[4], 3) for x in r]} mean {np.mean([x[4] for x in r]):.3f} "
                f"ARI mean {np.mean([x[5] for x in r]):.3f}"
            )
        d = [n[4] - o[4] for o, n in zip(rows[0::2], rows[1::2])]
        print(
            f"{corpus} paired NMI new-old: mean {np.mean(d):+.3f} range [{min(d):+.3f}, {max(d):+.3f}], "
            f"new better in {sum(x > 0 for x in d)} of {len(d)}"
        )


if __name__ == "__main__":
    main()
