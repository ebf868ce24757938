"""UMAP n_neighbors 50 x min_samples (default, mcs//2, mcs), seeds 42-46 (fits the missing nn50 UMAPs)."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
import numpy as np  # noqa: E402
from common import CORPORA, clustered, get_umap, load  # noqa: E402
from evaluate import CFG  # noqa: E402

from papertopics.evaluate.metrics import label_agreement  # noqa: E402
from papertopics.params import resolve_hdbscan  # noqa: E402

SEEDS = (42, 43, 44, 45, 46)
for corpus in CORPORA:
    texts, labels, vectors = load(corpus)
    hd = resolve_hdbscan(CFG["hdbscan"], len(texts))
    res = {}
    for s in SEEDS:
        for nn in ("auto", 50):
            red = get_umap(corpus, vectors, s, nn, 5, compute=True)
            for tag, ms in (
                ("default", hd["min_samples"]),
                ("mcs//2", hd["min_cluster_size"] // 2),
                ("mcs", hd["min_cluster_size"]),
            ):
                _, f = clustered(red, vectors, {**hd, "min_samples": ms})
                a = label_agreement(f, labels)
                res.setdefault((nn, tag, ms), []).append(
                    (a["nmi"], a["ari"], int(f.max() + 1), (f == -1).mean())
                )
    base = res[("auto", "default", hd["min_samples"])]
    for k, v in res.items():
        d = [x[0] - b[0] for x, b in zip(v, base)]
        da = [x[1] - b[1] for x, b in zip(v, base)]
        print(
            f"{corpus} nn={15 if k[0] == 'auto' else k[0]} min_samples={k[1]}({k[2]}): NMI "
            + " ".join(f"{x[0]:.3f}" for x in v)
            + f" mean {np.mean([x[0] for x in v]):.3f} | ARI "
            + " ".join(f"{x[1]:.3f}" for x in v)
            + " | topics "
            + " ".join(str(x[2]) for x in v)
            + " | outliers "
            + " ".join(f"{100 * x[3]:.1f}" for x in v)
            + f" | dNMI {np.mean(d):+.3f} [{min(d):+.3f},{max(d):+.3f}] dARI {np.mean(da):+.3f}",
            flush=True,
        )
