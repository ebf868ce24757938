"""Diagnostic: how much of the NMI gap is topic granularity? Default partition (seed 42) vs the same
topics merged onto their majority human label (an oracle: the best any merging of these topics can do),
and the NMI ceiling of a perfectly pure partition with the default's topic sizes."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
import numpy as np  # noqa: E402
from common import CORPORA, clustered, get_umap, load  # noqa: E402

from papertopics.evaluate.metrics import label_agreement  # noqa: E402
from papertopics.params import resolve_hdbscan  # noqa: E402
from papertopics.pipeline import default_config  # noqa: E402

cfg = default_config()
for corpus in sys.argv[1:] or CORPORA:
    texts, labels, vectors = load(corpus)
    labels = np.asarray(labels)
    hd = resolve_hdbscan(cfg["hdbscan"], len(texts))
    red = get_umap(corpus, vectors, 42, compute=False)
    for name, h in (("default", hd), ("min_samples=mcs", {**hd, "min_samples": hd["min_cluster_size"]})):
        _, top = clustered(red, vectors, h)
        a = label_agreement(top, labels)
        merged = np.array(top, dtype=object)
        for t in set(top.tolist()) - {-1}:
            vals, cnt = np.unique(labels[top == t], return_counts=True)
            merged[top == t] = vals[cnt.argmax()]
        merged = np.array([str(x) for x in merged])
        b = label_agreement(merged, labels)
        purity = np.mean([labels[i] == merged[i] for i in range(len(top)) if top[i] >= 0])
        # a pure partition: each topic relabelled to be a subset of one label, same topic sizes per label
        # (ceiling for this many topics): split each label into pieces matching the topic sizes that map to it
        ceiling_topics = np.empty(len(top), dtype=object)
        for lab in np.unique(labels):
            idx = np.flatnonzero(labels == lab)
            ts = [t for t in set(top.tolist()) - {-1} if merged[top == t][0] == lab]
            sizes = [int((top == t).sum()) for t in ts]
            tot = sum(sizes) or 1
            bounds = np.cumsum([0] + [round(len(idx) * s / tot) for s in sizes])
            for k, t in enumerate(ts):
                ceiling_topics[idx[bounds[k] : bounds[k + 1]]] = f"{lab}-{k}"
            ceiling_topics[idx[bounds[-1] :]] = f"{lab}-rest"
        c = label_agreement([hash(x) for x in ceiling_topics], labels)
        print(
            f"{corpus:8s} {name:16s} topics {int(top.max() + 1):3d} NMI {a['nmi']:.3f} ARI {a['ari']:.3f} | "
            f"merged onto majority label: NMI {b['nmi']:.3f} ARI {b['ari']:.3f} (purity of topics {purity:.3f}) | "
            f"pure partition, same topic count: NMI {c['nmi']:.3f}",
            flush=True,
        )
