"""UMAP fitted on a sample (`umap.fit_sample`) against a full fit: NMI, time and peak RSS.

    .venv/bin/python bench/sampled_umap.py [--corpus arxiv6k arxiv75k] [--fit-samples 2000 3000]
        [--seeds 42] [--no-full]

arXiv 6k: the stratified sample of bench/_common_eval.py (embeddings from BENCH_EMBED_CACHE);
arXiv 75k: every record of ../shared's arxiv-daily, embedded once into the same vector cache (or
ARXIV75K, an .npz with `vectors` and `cats`, when it exists). For each
seed: the 5-D reduction fitted on all documents and on samples of each size (the rest placed
by transform), HDBSCAN with the shipped `auto` sizes, then the shipped nearest-topic assignment
(`clustering.assign_min_confidence`), NMI/ARI of the topics against primary_category (outliers
one more topic; `nmi_hdbscan`: before the assignment). Each reduction runs in its own child process, so
its wall time and peak RSS are its own (the numba JIT is on disk: see papertopics.reduce.jit).
Goal: NMI within 0.01 of the full fit.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

CHILD = r"""
import json, resource, sys, time
import numpy as np
from papertopics.config import default_config
from papertopics.params import resolve_umap
from papertopics.reduce.reduction import umap_reduce
vectors = np.load(sys.argv[1]); seed = int(sys.argv[2]); fit_sample = int(sys.argv[3])
umap = resolve_umap({**default_config()["umap"], "fit_sample": fit_sample}, len(vectors))
umap_reduce(vectors[:200], random_state=seed, **{**umap, "fit_sample": 0})  # JIT from disk, not timed
t = time.perf_counter()
out = umap_reduce(vectors, random_state=seed, **umap)
wall = time.perf_counter() - t
np.save(sys.argv[4], out)
print(json.dumps({"wall_s": wall, "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))
"""


def load(corpus: str) -> tuple[np.ndarray, list[str]]:
    if corpus == "arxiv6k":
        from _common_eval import embed, load_arxiv_sample

        texts, cats = load_arxiv_sample()
        return np.asarray(embed(texts), dtype=np.float32), cats
    archive = Path(os.environ.get("ARXIV75K", "/work/team/arxiv75k.npz"))
    if archive.exists():
        data = np.load(archive, allow_pickle=True)
        return data["vectors"].astype(np.float32), data["cats"].tolist()
    from _common_eval import arxiv_records, embed  # every record, embedded once into the vector cache

    records = arxiv_records()
    texts = [record["abstract"] for record in records]
    return np.asarray(embed(texts), dtype=np.float32), [record["primary_category"] for record in records]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", nargs="+", default=["arxiv6k"])
    parser.add_argument(
        "--fit-samples",
        nargs="+",
        type=int,
        default=None,
        help="default: 2000 3000 for arxiv6k, 20000 for arxiv75k",
    )
    parser.add_argument("--seeds", nargs="+", type=int, default=[42])
    parser.add_argument("--no-full", action="store_true", help="skip the full fit (75k: ~5-10 min)")
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/bench-sampled-umap"))
    args = parser.parse_args()
    from papertopics.cluster.assign import assign_nearest
    from papertopics.cluster.clustering import cluster_documents
    from papertopics.config import default_config
    from papertopics.evaluate.agreement import label_agreement
    from papertopics.params import resolve_hdbscan

    args.workdir.mkdir(parents=True, exist_ok=True)
    rows = []
    for corpus in args.corpus:
        vectors, cats = load(corpus)
        path = args.workdir / f"{corpus}.npy"
        np.save(path, vectors)
        sizes = args.fit_samples or ([2000, 3000] if corpus == "arxiv6k" else [20000])
        hdbscan = resolve_hdbscan(default_config()["hdbscan"], len(vectors))
        for seed in args.seeds:
            full_nmi = None
            for fit_sample in ([] if args.no_full else [0]) + sizes:
                out_path = args.workdir / f"{corpus}-{seed}-{fit_sample}.npy"
                done = subprocess.run(
                    [sys.executable, "-c", CHILD, str(path), str(seed), str(fit_sample), str(out_path)],
                    capture_output=True,
                    text=True,
                    check=True,
                )
                timing = json.loads(done.stdout.strip().splitlines()[-1])
                reduced = np.load(out_path)
                t = time.perf_counter()
                labels, _ = cluster_documents(
                    vectors, reduced, method="hdbscan", hdbscan=hdbscan, agglomerative={}
                )
                raw = label_agreement(labels, cats)
                topics, _, _ = assign_nearest(
                    vectors, labels, min_confidence=default_config()["clustering"]["assign_min_confidence"]
                )
                agree = label_agreement(topics, cats)
                full_nmi = agree["nmi"] if fit_sample == 0 else full_nmi
                rows.append(
                    {
                        "corpus": corpus,
                        "seed": seed,
                        "fit": "all" if fit_sample == 0 else f"sample {fit_sample}",
                        "umap_s": f"{timing['wall_s']:.1f}",
                        "umap_rss_mib": f"{timing['peak_rss_mib']:.0f}",
                        "hdbscan_s": f"{time.perf_counter() - t:.1f}",
                        "topics": int(labels.max() + 1),
                        "outliers": f"{(labels == -1).mean():.1%} -> {(topics == -1).mean():.1%}",
                        "nmi_hdbscan": f"{raw['nmi']:.3f}",
                        "nmi": f"{agree['nmi']:.3f}",
                        "ari": f"{agree['ari']:.3f}",
                        "nmi_vs_full": ""
                        if fit_sample == 0 or full_nmi is None
                        else f"{agree['nmi'] - full_nmi:+.3f}",
                    }
                )
                print(json.dumps(rows[-1]), flush=True)
    from _pipeline import print_table

    print_table(rows, list(rows[0]))
    print("goal: |nmi_vs_full| <= 0.01")


if __name__ == "__main__":
    main()
