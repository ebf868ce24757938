"""Merging near-twin clusters (hdbscan.merge_similarity), paired over UMAP seeds 42-46.

    cd /work/main && PYTHONPATH=bench nice -n 19 .venv/bin/python bench/grouping_ideas/merge.py \
        [--thresholds 0.4 0.45 0.5 0.55 0.6] [--run neurips=/tmp/bh/corpus/results] \
        [--run arxiv75k=/tmp/s75/results:primary_category]

Same embeddings and cached UMAPs as the other grouping ideas (umaps.py first). Per corpus and
threshold: topics, outliers, largest topic, mixed topics (cohesion below clustering.mixed_cohesion),
NMI/ARI against the labels and the paired NMI change against no merging (mean [min, max] over the
seeds). Merging happens as in the workflow: HDBSCAN's clusters are merged, then outliers join
their nearest topic; "no guard" drops the cohesion check (hdbscan.merge_keep_cohesion 0).
--run NAME=FOLDER[:COLUMN]: a finished run's results/ folder (its own embeddings, UMAP and seed),
scored against corpus.parquet's COLUMN when given.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from common import get_umap, load  # noqa: E402

from papertopics.artifacts import load_embeddings  # noqa: E402
from papertopics.cluster.assign import assign_nearest  # noqa: E402
from papertopics.cluster.clustering import cluster_documents  # noqa: E402
from papertopics.cluster.cohesion import topic_cohesion  # noqa: E402
from papertopics.cluster.merge import merge_similar_clusters  # noqa: E402
from papertopics.evaluate.metrics import label_agreement  # noqa: E402
from papertopics.params import resolve_hdbscan  # noqa: E402
from papertopics.pipeline import default_config  # noqa: E402

SEEDS = (42, 43, 44, 45, 46)
CFG = default_config()
Q = CFG["clustering"]["assign_min_confidence"]
MIXED = CFG["clustering"]["mixed_cohesion"]


def variants(vectors, reduced, thresholds) -> dict[str, np.ndarray]:
    hd = {**resolve_hdbscan(CFG["hdbscan"], len(vectors)), "merge_similarity": None}
    raw, _ = cluster_documents(vectors, reduced, method="hdbscan", hdbscan=hd, agglomerative={})
    out = {"no merging": assign_nearest(vectors, raw, min_confidence=Q)[0]}
    cap, keep = hd["max_cluster_size"], hd["merge_keep_cohesion"]
    for t in thresholds:
        for name, guard in ((f"{t}", keep), (f"{t} no guard", 0.0)):
            merged = merge_similar_clusters(vectors, raw, t, max_size=cap, keep_cohesion=guard)
            out[name] = assign_nearest(vectors, merged, min_confidence=Q)[0]
    return out


def row(corpus, seed, method, topics, labels, vectors) -> dict:
    sizes = np.bincount(topics[topics >= 0]) if (topics >= 0).any() else np.zeros(1)
    out = {
        "corpus": corpus,
        "seed": seed,
        "method": method,
        "topics": len(set(topics.tolist()) - {-1}),
        "outliers": float((topics == -1).mean()),
        "largest": float(sizes.max() / len(topics)),
        "mixed": sum(c < MIXED for c in topic_cohesion(vectors, topics).values()),
    }
    if labels is not None:
        agree = label_agreement(topics, labels)
        out.update(nmi=agree["nmi"], ari=agree["ari"])
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--thresholds", nargs="*", type=float, default=[0.4, 0.45, 0.5, 0.55, 0.6])
    parser.add_argument("--corpora", nargs="*", default=["arxiv6k", "proxy", "bbc"])
    parser.add_argument("--run", action="append", default=[], help="NAME=RESULTS_FOLDER[:LABEL_COLUMN]")
    args = parser.parse_args()
    rows = []
    for corpus in args.corpora:
        texts, labels, vectors = load(corpus)
        for seed in SEEDS:
            reduced = get_umap(corpus, vectors, seed)
            for method, topics in variants(vectors, reduced, args.thresholds).items():
                rows.append(row(corpus, seed, method, topics, labels, vectors))
    for spec in args.run:
        name, _, where = spec.partition("=")
        folder, _, column = where.partition(":")
        folder = Path(folder)
        doc_ids, vectors = load_embeddings(folder / "embed" / "embeddings.parquet")
        reduced = pd.read_parquet(folder / "reduce" / "reduced.parquet")
        assert reduced["doc_id"].tolist() == doc_ids
        reduced = reduced.drop(columns="doc_id").to_numpy()
        labels = None
        if column:
            corpus = pd.read_parquet(folder / "corpus" / "corpus.parquet", columns=["doc_id", column])
            labels = corpus.set_index("doc_id").loc[doc_ids, column].astype(str).tolist()
        for method, topics in variants(vectors, reduced, args.thresholds).items():
            rows.append(row(name, CFG["random_state"], method, topics, labels, vectors))
    table = pd.DataFrame(rows)
    if "nmi" in table:
        base = table[table["method"] == "no merging"].set_index(["corpus", "seed"])["nmi"]
        table["d_nmi"] = table["nmi"] - [
            base.get((c, s), np.nan) for c, s in zip(table["corpus"], table["seed"])
        ]
    stats = {"topics": "mean", "outliers": "mean", "largest": "max", "mixed": "mean"}
    stats.update({k: "mean" for k in ("nmi", "ari") if k in table})
    summary = table.groupby(["corpus", "method"], sort=False).agg(stats)
    if "d_nmi" in table:
        grouped = table.groupby(["corpus", "method"], sort=False)["d_nmi"]
        summary["d_nmi"] = grouped.mean()
        summary["d_min"] = grouped.min()
        summary["d_max"] = grouped.max()
    pd.set_option("display.width", 200)
    print(summary.round(3).to_string())


if __name__ == "__main__":
    main()
