"""(a) majority vote onto EACH seed's partition (paired with that seed's default), (b) NeurIPS 2023
(no labels): topics / outlier share of the default vs the min_samples variants (seed 42)."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
import numpy as np  # noqa: E402
from common import CORPORA, clustered, get_umap, load  # noqa: E402
from evaluate import CFG, SEEDS, Q, vote_onto  # noqa: E402

from papertopics.cluster.assign import assign_nearest  # noqa: E402
from papertopics.evaluate.metrics import label_agreement  # noqa: E402
from papertopics.params import resolve_hdbscan  # noqa: E402


def final(red, vectors, hd):
    return clustered(red, vectors, hd)[1]


for corpus in CORPORA:
    texts, labels, vectors = load(corpus)
    hd = resolve_hdbscan(CFG["hdbscan"], len(texts))
    parts = {s: final(get_umap(corpus, vectors, s, compute=False), vectors, hd) for s in SEEDS}
    ds = []
    for s in SEEDS:
        v = vote_onto(parts[s], [parts[o] for o in SEEDS if o != s])
        v = assign_nearest(vectors, v, min_confidence=Q)[0]
        a, b = label_agreement(parts[s], labels), label_agreement(v, labels)
        ds.append(b["nmi"] - a["nmi"])
        print(
            f"{corpus} vote onto {s}: default NMI {a['nmi']:.3f} ARI {a['ari']:.3f} -> vote NMI {b['nmi']:.3f} "
            f"ARI {b['ari']:.3f}, topics {int(v.max() + 1)}, outliers {100 * (v == -1).mean():.1f}%",
            flush=True,
        )
    print(f"{corpus} vote: dNMI mean {np.mean(ds):+.3f} [{min(ds):+.3f},{max(ds):+.3f}]", flush=True)

from _common_eval import embed, load_neurips  # noqa: E402

texts = load_neurips()
vectors = embed(texts)
hd = resolve_hdbscan(CFG["hdbscan"], len(texts))
for s in (42, 43):
    red = get_umap("neurips", vectors, s)
    for name, ms in (
        ("default", hd["min_samples"]),
        ("mcs//2", hd["min_cluster_size"] // 2),
        ("mcs", hd["min_cluster_size"]),
    ):
        raw, f = clustered(red, vectors, {**hd, "min_samples": ms})
        print(
            f"neurips seed {s} min_samples {name} ({ms}): topics {int(f.max() + 1)}, outliers before "
            f"{100 * (raw == -1).mean():.1f}% after {100 * (f == -1).mean():.1f}%, largest topic {100 * np.bincount(f[f >= 0]).max() / len(f):.1f}%",
            flush=True,
        )
