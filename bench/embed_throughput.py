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
(docs/cpus.md); `--exact-length` also times the batching before issue 42 for each path.
"""

from __future__ import annotations

import argparse
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
DATA = ROOT.parent / "shared" / "data" / "neurips2023" / "neurips2023.jsonl.gz"


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


def exact_length_encoder(kwargs: dict, stats: dict):
    """The loaded encoder and tokenizer of a papertopics path (embed_texts' own, shared)."""
    from papertopics import embed as E
    from papertopics.embed import encode
    from papertopics.embed.model import model_spec

    path = E.resolve_model_path(E.DEFAULT_MODEL)
    return encode._get_encoder(
        path,
        model_spec(path),
        stats["backend"],
        stats["precision"],
        kwargs["max_seq_length"],
        stats["device"],
        kwargs["threads"],
        None,
        None,
    )


def exact_length(texts: list[str], encoder, tokenizer, batch_size: int) -> np.ndarray:
    """The batching before issue 42: texts of one exact token length per batch, batches of any
    size up to batch_size, no filler rows and no padding."""
    ids = tokenizer(texts)
    by_length: dict[int, list[int]] = {}
    for j, row in enumerate(ids):
        by_length.setdefault(len(row), []).append(j)
    out = np.empty((len(texts), encoder.spec.dim), dtype=np.float32)
    for group in by_length.values():
        for s in range(0, len(group), batch_size):
            batch = group[s : s + batch_size]
            input_ids = np.array([ids[j] for j in batch], dtype=np.int64)
            out[batch] = encoder.encode(input_ids, np.ones_like(input_ids))
    return out


def main(argv: list[str] | None = None) -> int:
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
        "--exact-length",
        action="store_true",
        help="also time the scheme before issue 42 (batches of one exact token length, any size: "
        "not batch-invariant on every CPU) for each papertopics path, as `<path> exact-length`",
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
    args = parser.parse_args(argv)
    run_at_level(args.level)

    import torch
    from sentence_transformers import SentenceTransformer

    from papertopics import embed as E

    torch.set_num_threads(args.threads)
    texts = load_abstracts(args.data, args.n)
    load_before = os.getloadavg()
    print(
        f"{len(texts)} abstracts from {args.data}, batch {args.batch_size}, seq {args.max_seq_length}, "
        f"{args.threads} threads, {os.cpu_count()} CPUs, load average {load_before[0]:.2f}",
        flush=True,
    )

    model_dir = E.resolve_model_path(E.DEFAULT_MODEL)
    t = time.perf_counter()
    st = SentenceTransformer(str(model_dir), device="cpu")
    st.max_seq_length = args.max_seq_length
    st.encode(texts[:8], batch_size=args.batch_size)  # warm-up
    loads = {"st-fp32 (plain encode)": time.perf_counter() - t}

    paths = []
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
        loads[label] = time.perf_counter() - t
        paths.append((label, kwargs))

    exact = {}  # label -> (encoder, tokenizer) of the paths timed with exact-length batches too
    if args.exact_length:
        for label, kwargs in list(paths):
            _, stats = E.embed_texts(texts[:1], **kwargs)
            exact[f"{label.split(' ')[0]} exact-length"] = exact_length_encoder(kwargs, stats)
            loads[f"{label.split(' ')[0]} exact-length"] = 0.0

    # Interleave in blocks, rotating the order, so every path sees the same load drift; CPU
    # seconds (all threads of this process) are reported too, being less sensitive to other users.
    labels = list(loads)
    wall = dict.fromkeys(labels, 0.0)
    cpu = dict.fromkeys(labels, 0.0)
    parts: dict[str, list[np.ndarray]] = {label: [] for label in labels}
    kwargs_of = dict(paths)
    blocks = [texts[s : s + args.block] for s in range(0, len(texts), args.block)]
    for r in range(args.rounds):
        for b, block in enumerate(blocks):
            shift = (r * len(blocks) + b) % len(labels)
            for label in labels[shift:] + labels[:shift]:
                t, c = time.perf_counter(), time.process_time()
                if label in exact:
                    vecs = exact_length(block, *exact[label], args.batch_size)
                elif label in kwargs_of:
                    vecs, _ = E.embed_texts(block, **kwargs_of[label])
                else:
                    vecs = st.encode(block, batch_size=args.batch_size, convert_to_numpy=True)
                wall[label] += time.perf_counter() - t
                cpu[label] += time.process_time() - c
                if r == 0:
                    parts[label].append(vecs)
        print(
            f"round {r + 1}: " + ", ".join(f"{k} {(r + 1) * len(texts) / wall[k]:.1f}/s" for k in labels),
            flush=True,
        )

    n_done = args.rounds * len(texts)
    vectors = {label: np.concatenate(parts[label]) for label in labels}
    ref_label = labels[0]
    ref = vectors[ref_label]
    ref_top = top5(ref)
    rows = []
    for label in labels:
        rows.append(
            {
                "path": label,
                "abstracts_per_s": n_done / wall[label],
                "ratio": wall[ref_label] / wall[label],
                "cpu_ratio": cpu[ref_label] / cpu[label],
                "load_s": loads[label],
                **fidelity(vectors[label], ref, ref_top),
            }
        )
    load_after = os.getloadavg()
    print(f"\nload average before {load_before[0]:.2f}, after {load_after[0]:.2f} (1 min)")
    header = (
        f"{'path':<28}{'abstracts/s':>12}{'x fp32':>8}{'x cpu-s':>8}{'load s':>8}"
        f"{'mean cos':>10}{'min cos':>9}{'top5 same':>11}{'top5 ovl':>10}"
    )
    print(header)
    for row in rows:
        print(
            f"{row['path']:<28}{row['abstracts_per_s']:>12.1f}{row['ratio']:>8.2f}{row['cpu_ratio']:>8.2f}{row['load_s']:>8.1f}"
            f"{row['mean_cos']:>10.5f}{row['min_cos']:>9.5f}{row['top5_same']:>11.3f}{row['top5_overlap']:>10.3f}"
        )
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "args": {k: str(v) for k, v in vars(args).items()},
                    "load_average": [load_before, load_after],
                    "rows": rows,
                },
                indent=1,
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
