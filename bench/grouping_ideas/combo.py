"""min_samples = min_cluster_size combined with the UMAP variants, seeds 42-44 (cached UMAPs only)."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
import numpy as np  # noqa: E402
from common import CORPORA, clustered, get_umap, load  # noqa: E402
from evaluate import CFG  # noqa: E402

from papertopics.evaluate.metrics import label_agreement  # noqa: E402
from papertopics.params import resolve_hdbscan  # noqa: E402

for corpus in CORPORA:
    texts, labels, vectors = load(corpus)
    hd = resolve_hdbscan(CFG["hdbscan"], len(texts))
    res = {}
    for s in (42, 43, 44):
        for nn, nc in (("auto", 5), (50, 5), ("auto", 10), (30, 10)):
            red = get_umap(corpus, vectors, s, nn, nc, compute=False)
            for ms in (hd["min_samples"], hd["min_cluster_size"]):
                _, f = clustered(red, vectors, {**hd, "min_samples": ms})
                a = label_agreement(f, labels)
                res.setdefault((nn, nc, ms), []).append(
                    (a["nmi"], a["ari"], int(f.max() + 1), (f == -1).mean())
                )
    base = res[("auto", 5, hd["min_samples"])]
    for k, v in res.items():
        d = [x[0] - b[0] for x, b in zip(v, base)]
        print(
            f"{corpus} nn={k[0]} nc={k[1]} min_samples={k[2]}: NMI "
            + " ".join(f"{x[0]:.3f}" for x in v)
            + f" | ARI mean {np.mean([x[1] for x in v]):.3f} | topics "
            + " ".join(str(x[2]) for x in v)
            + f" | outliers max {100 * max(x[3] for x in v):.1f}% | dNMI mean {np.mean(d):+.3f} [{min(d):+.3f},{max(d):+.3f}]",
            flush=True,
        )
