"""Candidate names embedded in narrow length buckets against the 32-token buckets, in one process.

    HF_HUB_OFFLINE=1 .venv/bin/python bench/phrase_buckets.py [--n 4000] [--rounds 3] [--level own|AVX2|...]

The names are NeurIPS 2023's own candidate names (NameIndex.build on its abstracts and titles,
most used first, as embed_phrases takes them). "before" pads every name to 32 tokens in passes of
`batch_rows(32)` rows (issue 67's figure: 115 names/s on an AVX2-only EPYC); "after" is today's
`encode.bucket_width` (steps of 8 below 32 tokens, passes of SHORT_BATCH_TOKENS tokens). The two
halves alternate per round on fresh copies of the names (no cache), after one warm-up call each
(the first call of each shape is paid once per process in a run too, but both pay it). Prints
names/s per round, the median ratio, and the fidelity of "after" to "before" (mean cosine, the
share of names whose 10 nearest names are the same set).
`--level AVX2` caps oneDNN/MKL/ATen as tests/.ci do (docs/cpus.md); set PAPERTOPICS_CPU_BF16=0
with it for the path of CPUs without bf16.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import statistics
import sys
import time

LEVELS = {  # ONEDNN_MAX_CPU_ISA -> (MKL_ENABLE_INSTRUCTIONS, ATEN_CPU_CAPABILITY), as .ci/run
    "AVX2": ("AVX2", "avx2"),
    "AVX512_CORE": ("AVX512", "avx512"),
    "AVX512_CORE_BF16": ("AVX512_E3", "avx512"),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=4000, help="names per half per round")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--level", default="own", choices=["own", *LEVELS])
    args = parser.parse_args()
    if args.level != "own" and os.environ.get("ONEDNN_MAX_CPU_ISA") != args.level:
        mkl, aten = LEVELS[args.level]
        os.environ.update(
            ONEDNN_MAX_CPU_ISA=args.level, MKL_ENABLE_INSTRUCTIONS=mkl, ATEN_CPU_CAPABILITY=aten
        )
        os.execv(sys.executable, [sys.executable, *sys.argv])  # the caps are read at library load

    import numpy as np
    from _pipeline import DATA

    from papertopics.embed import embed_texts, encode
    from papertopics.topics.names.phrases import NameIndex

    rows = [json.loads(line) for line in gzip.open(DATA / "neurips2023" / "neurips2023.jsonl.gz", "rt")]
    index = NameIndex.build([r["abstract"] for r in rows], [r.get("title") or "" for r in rows])
    names = index.nameable()
    print(f"{len(names)} candidate names; load {os.getloadavg()}; level {args.level}", flush=True)

    def run(half: str, texts: list[str]):
        saved = encode.SHORT_BUCKET_TOKENS, encode.SHORT_BATCH_TOKENS
        if half == "before":  # issue 67's baseline: 32-token buckets, the backend's usual rows
            encode.SHORT_BUCKET_TOKENS, encode.SHORT_BATCH_TOKENS = encode.BUCKET_TOKENS, 0
        try:
            start = time.perf_counter()
            vecs, stats = embed_texts(texts, cache_dir=None, threads=2)
            return vecs, time.perf_counter() - start, stats
        finally:
            encode.SHORT_BUCKET_TOKENS, encode.SHORT_BATCH_TOKENS = saved

    for half in ("before", "after"):  # warm-up: model load and each shape's first call
        run(half, names[: args.n // 4])
    rates: dict[str, list[float]] = {"before": [], "after": []}
    out = {}
    for r in range(args.rounds):
        texts = [f"{t}" for t in names[: args.n]]
        for half in ("before", "after") if r % 2 == 0 else ("after", "before"):
            vecs, seconds, stats = run(half, texts)
            rates[half].append(len(texts) / seconds)
            out[half] = vecs
        print(
            f"round {r + 1}: before {rates['before'][-1]:.0f}/s, after {rates['after'][-1]:.0f}/s "
            f"({stats['backend']} {stats['precision']}); load {os.getloadavg()[0]:.2f}",
            flush=True,
        )
    ratios = [a / b for a, b in zip(rates["after"], rates["before"])]
    cos = np.sum(out["before"] * out["after"], axis=1)
    top = [np.argsort(-(v @ v.T), axis=1)[:, 1:11] for v in (out["before"][:2000], out["after"][:2000])]
    same = np.mean([set(a) == set(b) for a, b in zip(*top)])
    print(
        f"median names/s: before {statistics.median(rates['before']):.0f}, after "
        f"{statistics.median(rates['after']):.0f}; after/before x{statistics.median(ratios):.2f}; "
        f"mean cosine {cos.mean():.6f} (min {cos.min():.6f}); same 10 nearest names {same:.3f}"
    )


if __name__ == "__main__":
    main()
