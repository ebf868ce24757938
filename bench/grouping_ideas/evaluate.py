"""Issue 10 clustering ideas vs the current default, same embeddings and cached UMAPs.

    cd /work/main && PYTHONPATH=bench nice -n 19 .venv/bin/python bench/grouping_ideas/umaps.py
    cd /work/main && PYTHONPATH=bench nice -n 19 .venv/bin/python bench/grouping_ideas/evaluate.py [corpora...]

Rows go to /tmp/grouping-exp/rows_<corpus>.json; the summary to stdout.
"""

from __future__ import annotations

import json
import sys
import time

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
import numpy as np  # noqa: E402
from common import CORPORA, OUT, get_umap, load  # noqa: E402

from papertopics.cluster.assign import assign_nearest, normalise  # noqa: E402
from papertopics.cluster.clustering import cluster_documents, relabel_by_size  # noqa: E402
from papertopics.evaluate.metrics import label_agreement  # noqa: E402
from papertopics.params import resolve_hdbscan  # noqa: E402
from papertopics.pipeline import default_config  # noqa: E402

SEEDS = (42, 43, 44, 45, 46)
CFG = default_config()
Q = CFG["clustering"]["assign_min_confidence"]


def score(corpus, method, seed, topics, labels, secs, **extra):
    topics = np.asarray(topics)
    a = label_agreement(topics, labels)
    return {
        "corpus": corpus,
        "method": method,
        "seed": seed,
        "topics": int(len(set(topics.tolist()) - {-1})),
        "outliers": float((topics == -1).mean()),
        "nmi": a["nmi"],
        "ari": a["ari"],
        "seconds": round(secs, 2),
        **extra,
    }


def hd_fit(reduced, hd):
    t = time.perf_counter()
    # HDBSCAN's own clusters (no merging): soft_model compares its membership vectors with them
    hd = {**hd, "merge_similarity": None}
    lab, _ = cluster_documents(reduced, reduced, method="hdbscan", hdbscan=hd, agglomerative={})
    return lab, time.perf_counter() - t


def soft_model(reduced, hd, raw):
    """HDBSCAN with prediction_data and the same settings; membership columns mapped to raw's ids."""
    import hdbscan

    for cap in (hd["max_cluster_size"], 0):
        model = hdbscan.HDBSCAN(
            min_cluster_size=hd["min_cluster_size"],
            min_samples=hd["min_samples"],
            cluster_selection_method=hd["cluster_selection_method"],
            cluster_selection_epsilon=hd["cluster_selection_epsilon"],
            max_cluster_size=cap,
            core_dist_n_jobs=1,
            prediction_data=True,
        ).fit(reduced)
        if np.array_equal(relabel_by_size(model.labels_), raw):
            break
    else:
        raise RuntimeError("prediction_data fit differs from cluster_documents")
    m = hdbscan.all_points_membership_vectors(model)
    k = model.labels_.max() + 1
    colmap = np.array([raw[model.labels_ == c][0] for c in range(k)])
    core = raw >= 0
    agree = float((colmap[m[core].argmax(1)] == raw[core]).mean())
    return m, colmap, agree


def soft_assign(raw, m, colmap, *, min_prob=None, min_ratio=None):
    out = raw.copy()
    o = np.flatnonzero(raw < 0)
    if len(o) == 0:
        return out
    mo = m[o]
    best = mo.max(1)
    ratio = best / np.maximum(mo.sum(1), 1e-12)
    ok = np.ones(len(o), bool)
    if min_prob is not None:
        ok &= best >= min_prob
    if min_ratio is not None:
        ok &= ratio >= min_ratio
    out[o[ok]] = colmap[mo[ok].argmax(1)]
    return out


def best_of(parts):
    from sklearn.metrics import adjusted_rand_score

    k = len(parts)
    ari = np.zeros((k, k))
    for i in range(k):
        for j in range(i + 1, k):
            ari[i, j] = ari[j, i] = adjusted_rand_score(parts[i], parts[j])
    mean = ari.sum(1) / (k - 1)
    return int(mean.argmax()), mean


def vote_onto(ref, others):
    """Each other partition's clusters mapped to ref's cluster of largest overlap; per-document
    mode of the 1 + len(others) votes (outlier -1 is a vote); ties keep ref's label."""
    votes = [ref]
    for p in others:
        mapped = np.full_like(p, -1)
        for c in set(p.tolist()) - {-1}:
            r = ref[(p == c) & (ref >= 0)]
            if len(r):
                mapped[p == c] = np.bincount(r).argmax()
        votes.append(mapped)
    v = np.stack(votes, 1)
    out = ref.copy()
    for i in range(len(ref)):
        vals, cnt = np.unique(v[i], return_counts=True)
        top = vals[cnt == cnt.max()]
        if ref[i] not in top:
            out[i] = top[0] if top[0] != -1 or len(top) == 1 else top[1]
    return relabel_by_size(out)


def coassoc_consensus(vectors, parts, hd, *, knn=None, lam=0.2):
    """HDBSCAN (default sizes, precomputed) on D = 1 - co-association + lam * cosine distance;
    knn: only pairs among each document's knn nearest neighbours (embedding cosine, symmetrised)
    keep that distance, all others get 2."""
    import hdbscan

    u = normalise(vectors)
    cos = 1.0 - u @ u.T
    n = len(vectors)
    co = np.zeros((n, n), dtype=np.float32)
    for p in parts:
        co += ((p[:, None] == p[None, :]) & (p[:, None] >= 0)).astype(np.float32)
    co /= len(parts)
    d = (1.0 - co) + lam * np.clip(cos, 0, 2)
    del co
    if knn:
        nn = np.argpartition(cos, knn + 1, axis=1)[:, : knn + 1]
        mask = np.zeros((n, n), bool)
        mask[np.repeat(np.arange(n), knn + 1), nn.ravel()] = True
        mask |= mask.T
        d[~mask] = 2.0
        del mask
    del cos
    np.fill_diagonal(d, 0.0)
    d = d.astype(np.float64)
    model = hdbscan.HDBSCAN(
        metric="precomputed",
        min_cluster_size=hd["min_cluster_size"],
        min_samples=hd["min_samples"],
        cluster_selection_method=hd["cluster_selection_method"],
        max_cluster_size=hd["max_cluster_size"],
    ).fit(d)
    lab = relabel_by_size(model.labels_)
    if (lab == -1).mean() > 0.5:
        lab = relabel_by_size(
            hdbscan.HDBSCAN(
                metric="precomputed",
                min_cluster_size=hd["min_cluster_size"],
                min_samples=hd["min_samples"],
                cluster_selection_method=hd["cluster_selection_method"],
            )
            .fit(d)
            .labels_
        )
    return lab


def run(corpus):
    texts, labels, vectors = load(corpus)
    n = len(texts)
    hd = resolve_hdbscan(CFG["hdbscan"], n)
    print(f"# {corpus}: {n} docs, hdbscan {hd}, q {Q}", flush=True)
    rows = []
    reds = {s: get_umap(corpus, vectors, s, compute=False) for s in SEEDS}
    raw, final = {}, {}
    for s in SEEDS:
        if reds[s] is None:
            continue
        raw[s], secs = hd_fit(reds[s], hd)
        t = time.perf_counter()
        final[s] = assign_nearest(vectors, raw[s], min_confidence=Q)[0]
        secs += time.perf_counter() - t
        rows.append(score(corpus, "default (HDBSCAN eom + centroid q=0.05)", s, final[s], labels, secs))
        rows.append(score(corpus, "HDBSCAN only, no assignment", s, raw[s], labels, secs))
        t = time.perf_counter()
        rows.append(
            score(
                corpus,
                "centroid q=0 (all outliers)",
                s,
                assign_nearest(vectors, raw[s], min_confidence=0.0)[0],
                labels,
                secs,
            )
        )
        # 1. soft membership
        t = time.perf_counter()
        m, colmap, agree = soft_model(reds[s], hd, raw[s])
        base = time.perf_counter() - t
        for name, kw in (
            ("soft p>=0 (all outliers)", {"min_prob": 0.0}),
            ("soft p>=0.05", {"min_prob": 0.05}),
            ("soft p>=0.1", {"min_prob": 0.1}),
            ("soft p>=0.2", {"min_prob": 0.2}),
            ("soft ratio>=0.3", {"min_ratio": 0.3}),
            ("soft ratio>=0.5", {"min_ratio": 0.5}),
        ):
            lab = soft_assign(raw[s], m, colmap, **kw)
            rows.append(score(corpus, name, s, lab, labels, base, core_argmax_agree=agree))
        lab = soft_assign(raw[s], m, colmap, min_prob=0.1)
        lab = assign_nearest(vectors, lab, min_confidence=Q)[0]
        rows.append(score(corpus, "soft p>=0.1 then centroid q=0.05", s, lab, labels, base))
        # 4. min_samples
        for name, ms in (
            ("min_samples=1", 1),
            ("min_samples=2x default", 2 * hd["min_samples"]),
            ("min_samples=min_cluster_size//2", hd["min_cluster_size"] // 2),
            ("min_samples=min_cluster_size", hd["min_cluster_size"]),
        ):
            lab, secs = hd_fit(reds[s], {**hd, "min_samples": ms})
            lab = assign_nearest(vectors, lab, min_confidence=Q)[0]
            rows.append(score(corpus, f"{name} ({ms}) + centroid", s, lab, labels, secs))
        print(f"#  seed {s} done", flush=True)
    # 2. consensus over the 5 seeds (default HDBSCAN + assignment per seed)
    if len(final) == len(SEEDS):
        parts = [final[s] for s in SEEDS]
        t = time.perf_counter()
        i, means = best_of(parts)
        rows.append(
            score(
                corpus,
                "consensus: best of 5 (max mean ARI)",
                SEEDS[i],
                parts[i],
                labels,
                time.perf_counter() - t,
                mean_ari=[round(x, 3) for x in means],
            )
        )
        t = time.perf_counter()
        lab = vote_onto(final[42], [final[s] for s in SEEDS[1:]])
        lab = assign_nearest(vectors, lab, min_confidence=Q)[0]
        rows.append(
            score(corpus, "consensus: vote onto seed 42 + centroid", 42, lab, labels, time.perf_counter() - t)
        )
        for name, kw, src in (
            ("consensus: co-assoc full + HDBSCAN + centroid", {}, parts),
            ("consensus: co-assoc kNN30 + HDBSCAN + centroid", {"knn": 30}, parts),
            ("consensus: co-assoc kNN100 + HDBSCAN + centroid", {"knn": 100}, parts),
            ("consensus: co-assoc (raw labels) full + HDBSCAN + centroid", {}, [raw[s] for s in SEEDS]),
        ):
            t = time.perf_counter()
            lab0 = coassoc_consensus(vectors, src, hd, **kw)
            lab = assign_nearest(vectors, lab0, min_confidence=Q)[0]
            rows.append(
                score(
                    corpus,
                    name,
                    42,
                    lab,
                    labels,
                    time.perf_counter() - t,
                    before_assign_outliers=float((lab0 == -1).mean()),
                )
            )
            print(f"#  {name} done", flush=True)
    # 3. UMAP settings, seed 42
    for s in SEEDS:
        for nn, nc in ((30, 5), (50, 5), ("auto", 10), (30, 10)):
            red = get_umap(corpus, vectors, s, nn, nc, compute=False)
            if red is None:
                continue
            lab, secs = hd_fit(red, hd)
            lab = assign_nearest(vectors, lab, min_confidence=Q)[0]
            rows.append(
                score(
                    corpus,
                    f"UMAP n_neighbors={15 if nn == 'auto' else nn} n_components={nc} + default",
                    s,
                    lab,
                    labels,
                    secs,
                )
            )
    (OUT / f"rows_{corpus}.json").write_text(json.dumps(rows, indent=1))
    return rows


if __name__ == "__main__":
    for c in sys.argv[1:] or CORPORA:
        run(c)
