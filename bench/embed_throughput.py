"""Embedding throughput and fidelity: plain fp32 sentence-transformers vs papertopics' backends.

Why: the embedding stage is the pipeline's main CPU cost; the default backend must stay >= 2x
the plain `SentenceTransformer(model_dir).encode(texts, batch_size=32)` at cosine >= 0.99 and the
same top-5 neighbours for >= 90% of abstracts. All paths are timed in one process, alternating
every `--block` abstracts (default 300: an embed job embeds its whole shard in one call, and
each call pays at most one short batch per length bucket), because shared machines drift by
~30% (or far more) within minutes.
"x fp32" is the wall-time ratio to the plain encode, "x cpu-s" the ratio of this process's CPU
seconds (less sensitive to other users' load). The fidelity columns compare with the plain encode:
mean/min cosine, the share of abstracts with the same top-5 neighbour set, and the mean overlap.

    HF_HUB_OFFLINE=1 .venv/bin/python bench/embed_throughput.py --n 600 --rounds 2
    PAPERTOPICS_CPU_BF16=0 HF_HUB_OFFLINE=1 .venv/bin/python bench/embed_throughput.py --n 600 --rounds 2

The second line measures the path of CPUs without bf16 (papertopics.embed.cpu) on any machine:
`auto` is then OpenVINO fp32, and torch:bf16 runs as torch fp32 (measured once). `--level AVX2`
(or AVX512_CORE, AVX512_CORE_BF16) caps every library's instructions as .ci/run does
(docs/cpus.md); `--before` also times each OpenVINO path with the batching before issue 53
(`batch_size` rows in every pass). Ratios are medians over the blocks of per-block ratios.
"""

from __future__ import annotations

import argparse
import contextlib
import gzip
import json
import os
import pathlib
import sys
import time

import numpy as np
from _pipeline import REPO  # noqa: F401  (sets papertopics.runtime.environment's environment)
from cpu_levels import LEVEL_CAPS, run_at_level

ROOT = pathlib.Path(__file__).resolve().parents[1]
DATA = (
    pathlib.Path(os.environ.get("PAPERTOPICS_SHARED", ROOT.parent / "shared"))
    / "data"
    / "neurips2023"
    / "neurips2023.jsonl.gz"
)
PLAIN = "st-fp32 (plain encode)"


def load_abstracts(path: pathlib.Path, n: int) -> list[str]:
    out = []
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        for line in fh:
            text = " ".join(json.loads(line).get("abstract", "").split())
            if text:
                out.append(text)
            if len(out) == n:
                break
    return out


def top5(vecs: np.ndarray) -> np.ndarray:
    sims = vecs @ vecs.T
    np.fill_diagonal(sims, -np.inf)
    return np.argsort(-sims, axis=1)[:, :5]


def fidelity(vecs: np.ndarray, ref: np.ndarray, ref_top: np.ndarray) -> dict:
    cos = (vecs * ref).sum(axis=1) / (np.linalg.norm(vecs, axis=1) * np.linalg.norm(ref, axis=1))
    top = top5(vecs)
    overlap = np.array([len(set(a) & set(b)) / 5 for a, b in zip(top, ref_top)])
    return {
        "mean_cos": float(cos.mean()),
        "min_cos": float(cos.min()),
        "top5_same": float((overlap == 1).mean()),
        "top5_overlap": float(overlap.mean()),
    }


@contextlib.contextmanager
def scheme_before():
    """The batching before issue 53 (shipped by issue 42): `batch_size` rows in every forward
    pass of every backend, so a short batch of a length bucket is filled with up to 31 empty rows."""
    from papertopics.embed import encode

    saved, encode.BATCH_TOKENS = encode.BATCH_TOKENS, {}
    try:
        yield
    finally:
        encode.BATCH_TOKENS = saved


def parse_args(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--n", type=int, default=600, help="abstracts (default 600)")
    parser.add_argument("--data", type=pathlib.Path, default=DATA, help="jsonl.gz with an `abstract` field")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--max-seq-length", type=int, default=256)
    parser.add_argument("--threads", type=int, default=2, help="torch/OpenVINO threads for every path")
    parser.add_argument("--rounds", type=int, default=1, help="passes over the abstracts")
    parser.add_argument(
        "--block", type=int, default=300, help="abstracts per timed call; paths alternate per block"
    )
    parser.add_argument(
        "--before",
        action="store_true",
        help="also time each papertopics path with the batching before issue 53 (batch_size rows "
        "in every pass), as `<path> before`",
    )
    parser.add_argument(
        "--backends",
        default="auto,openvino:fp32,torch:bf16,torch:fp32",
        help="comma-separated backend[:precision] for embed_texts (default: %(default)s)",
    )
    parser.add_argument("--json", type=pathlib.Path, help="also write the results here")
    parser.add_argument(
        "--level",
        choices=["own", *LEVEL_CAPS],
        help="cap every library's instructions at this level (docs/cpus.md); default: the CPU's own",
    )
    return parser.parse_args(argv)


def load_paths(args, texts, E) -> tuple[dict, dict]:
    """label -> embed_texts kwargs (None: plain) and label -> load seconds, each path warmed up."""
    from sentence_transformers import SentenceTransformer

    t = time.perf_counter()
    st = SentenceTransformer(str(E.resolve_model_path(E.DEFAULT_MODEL)), device="cpu")
    st.max_seq_length = args.max_seq_length
    st.encode(texts[:8], batch_size=args.batch_size)  # warm-up
    paths, loads = {PLAIN: st}, {PLAIN: time.perf_counter() - t}
    for spec in args.backends.split(","):
        backend, _, precision = spec.strip().partition(":")
        kwargs = dict(
            backend=backend,
            precision=precision or "auto",
            batch_size=args.batch_size,
            max_seq_length=args.max_seq_length,
            threads=args.threads,
            cache_dir=None,
        )
        t = time.perf_counter()
        _, stats = E.embed_texts(texts[:8], **kwargs)  # load (and convert) + warm-up
        label = f"{stats['backend']}-{stats['precision']}"
        if any(known.startswith(label) for known in loads):  # e.g. torch:bf16 with bf16 forced off
            print(f"{spec.strip()}: runs as {label}, measured once", flush=True)
            continue
        label += " (default)" if spec.strip() == "auto" else ""
        loads[label], paths[label] = time.perf_counter() - t, kwargs
        if args.before and stats["backend"] == "openvino":  # torch's batching did not change
            paths[f"{label.split(' ')[0]} before"], loads[f"{label.split(' ')[0]} before"] = kwargs, 0.0
    return paths, loads


def timed(label: str, path, block: list[str], batch_size: int, E) -> np.ndarray:
    if label == PLAIN:
        return path.encode(block, batch_size=batch_size, convert_to_numpy=True)
    with scheme_before() if label.endswith(" before") else contextlib.nullcontext():
        return E.embed_texts(block, **path)[0]


def interleaved(args, texts, paths, E) -> tuple[dict, dict, dict]:
    """Every path on every block in rotating order, so each sees the same drift of other users'
    load: per path the wall and CPU seconds of each block (their medians make the ratios; CPU
    seconds of all threads of this process are less sensitive to other users) and the vectors."""
    labels = list(paths)
    wall = {label: [] for label in labels}
    cpu = {label: [] for label in labels}
    parts: dict[str, list[np.ndarray]] = {label: [] for label in labels}
    blocks = [texts[s : s + args.block] for s in range(0, len(texts), args.block)]
    for r in range(args.rounds):
        for b, block in enumerate(blocks):
            shift = (r * len(blocks) + b) % len(labels)
            for label in labels[shift:] + labels[:shift]:
                t, c = time.perf_counter(), time.process_time()
                vecs = timed(label, paths[label], block, args.batch_size, E)
                wall[label].append((time.perf_counter() - t) / len(block))
                cpu[label].append((time.process_time() - c) / len(block))
                if r == 0:
                    parts[label].append(vecs)
        print(
            f"round {r + 1}: " + ", ".join(f"{k} {1 / np.median(wall[k]):.1f}/s" for k in labels), flush=True
        )
    return wall, cpu, {label: np.concatenate(parts[label]) for label in labels}


def report(args, wall, cpu, vectors, loads, load_before) -> list[dict]:
    ref = vectors[PLAIN]
    ref_top = top5(ref)
    rows = []
    for label in wall:
        rows.append(
            {
                "path": label,
                "abstracts_per_s": 1 / float(np.median(wall[label])),
                "ratio": float(np.median(np.array(wall[PLAIN]) / np.array(wall[label]))),
                "cpu_ratio": float(np.median(np.array(cpu[PLAIN]) / np.array(cpu[label]))),
                "load_s": loads[label],
                **fidelity(vectors[label], ref, ref_top),
            }
        )
    load_after = os.getloadavg()
    print(f"\nload average before {load_before[0]:.2f}, after {load_after[0]:.2f} (1 min); medians of blocks")
    print(
        f"{'path':<28}{'abstracts/s':>12}{'x fp32':>8}{'x cpu-s':>8}{'load s':>8}"
        f"{'mean cos':>10}{'min cos':>9}{'top5 same':>11}{'top5 ovl':>10}"
    )
    for row in rows:
        print(
            f"{row['path']:<28}{row['abstracts_per_s']:>12.1f}{row['ratio']:>8.2f}{row['cpu_ratio']:>8.2f}"
            f"{row['load_s']:>8.1f}{row['mean_cos']:>10.5f}{row['min_cos']:>9.5f}"
            f"{row['top5_same']:>11.3f}{row['top5_overlap']:>10.3f}"
        )
    if args.json:
        payload = {
            "args": {k: str(v) for k, v in vars(args).items()},
            "load_average": [load_before, load_after],
        }
        args.json.write_text(json.dumps({**payload, "rows": rows}, indent=1))
    return rows


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    run_at_level(args.level)
    import torch

    from papertopics import embed as E

    torch.set_num_threads(args.threads)
    texts = load_abstracts(args.data, args.n)
    load_before = os.getloadavg()
    print(
        f"{len(texts)} abstracts from {args.data}, batch {args.batch_size}, seq {args.max_seq_length}, "
        f"{args.threads} threads, {os.cpu_count()} CPUs, load average {load_before[0]:.2f}",
        flush=True,
    )
    paths, loads = load_paths(args, texts, E)
    wall, cpu, vectors = interleaved(args, texts, paths, E)
    report(args, wall, cpu, vectors, loads, load_before)
    return 0


if __name__ == "__main__":
    sys.exit(main())
