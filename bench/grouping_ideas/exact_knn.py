"""Vectorised exact neighbours below 4,096 documents (issue 15) vs umap-learn's own all-pairs
loop: the same neighbours, so the grouping should move only as much as another seed moves it.

Paired over seeds 42-46 on the corpora under 4,096 documents (arXiv mixed, BBC), using the old
reductions cached by umaps.py (made before the change) and new ones computed here.
"""

from __future__ import annotations

import sys
import time

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
import numpy as np  # noqa: E402
from common import OUT, clustered, get_umap, load, umap_args  # noqa: E402

from papertopics.evaluation import label_agreement  # noqa: E402
from papertopics.params import resolve_hdbscan  # noqa: E402
from papertopics.pipeline import default_config  # noqa: E402
from papertopics.reduce import umap_reduce  # noqa: E402

SEEDS = (42, 43, 44, 45, 46)
for corpus in ("proxy", "bbc"):
    texts, labels, vectors = load(corpus)
    hd = resolve_hdbscan(default_config()["hdbscan"], len(vectors))
    rows = []
    for seed in SEEDS:
        old = get_umap(corpus, vectors, seed, compute=False)
        path = OUT / f"umap_{corpus}_s{seed}_exactknn.npy"
        t = time.perf_counter()
        new = (
            np.load(path)
            if path.exists()
            else umap_reduce(vectors, random_state=seed, **umap_args(len(vectors)))
        )
        secs = time.perf_counter() - t
        np.save(path, new)
        for name, red in (("old", old), ("new", new)):
            topics = clustered(red, vectors, hd)[1]
            a = label_agreement(topics, labels)
            rows.append((name, seed, int(topics.max() + 1), float((topics < 0).mean()), a["nmi"], a["ari"]))
        print(f"{corpus} seed {seed}: new UMAP {secs:.1f} s", flush=True)
    for name in ("old", "new"):
        r = [x for x in rows if x[0] == name]
        print(
            f"{corpus} {name}: topics {[x[2] for x in r]} outliers {np.mean([x[3] for x in r]):.3f} "
            f"NMI {[round(x[4], 3) for x in r]} mean {np.mean([x[4] for x in r]):.3f} "
            f"ARI mean {np.mean([x[5] for x in r]):.3f}"
        )
    d = [n[4] - o[4] for o, n in zip(rows[0::2], rows[1::2])]
    print(f"{corpus} paired NMI new-old: mean {np.mean(d):+.3f} range [{min(d):+.3f}, {max(d):+.3f}]")
