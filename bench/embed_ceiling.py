"""The matmul ceiling of embedding per instruction-set level, and the share of it the default reaches.

Why (issue 53): a throughput figure says little without what the hardware allows. This script
measures a 2-thread matmul peak with the libraries the embedding path uses (OpenVINO's CPU plugin,
fp32 and bf16 hints, on a (2048 x 384) @ (384 x 1536) MatMul: the model's FFN at 8 rows x 256
tokens; torch fp32/bf16 on the same shape), counts the FLOPs of MiniLM-L6 per abstract from the
abstracts' own token lengths (linear layers 2 x 6 x 1,769,472 per token, attention 4 x 6 x L^2 x
384), and prints abstracts/s at the ceiling beside the default's measured rate (`--rate`, from
embed_throughput.py) and its share.

    HF_HUB_OFFLINE=1 .venv/bin/python bench/embed_ceiling.py [--level AVX2] [--rate 31.0]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time

import numpy as np
from cpu_levels import LEVEL_CAPS, run_at_level
from embed_throughput import DATA, load_abstracts

LINEAR_MACS_PER_TOKEN = 6 * (4 * 384 * 384 + 2 * 384 * 1536)  # MiniLM-L6: QKV + out + FFN
M, K, N = 2048, 384, 1536


def flops_per_abstract(texts: list[str], width: int) -> tuple[float, float]:
    """(mean GFLOP at the abstracts' own lengths, at their padded widths) for seq `width`."""
    from papertopics import embed as E
    from papertopics.embed import backends as eb
    from papertopics.embed.encode import bucket_width

    tok = eb.Tokenizer(E.resolve_model_path(E.DEFAULT_MODEL), width)
    lengths = np.array([len(ids) for ids in tok(texts)], dtype=float)
    padded = np.array([bucket_width(int(n), width) for n in lengths], dtype=float)

    def cost(L):
        return (2 * LINEAR_MACS_PER_TOKEN * L + 4 * 6 * L * L * 384).mean() / 1e9

    return cost(lengths), cost(padded)


def peak(fn, repeats: int) -> float:
    fn()
    times = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return 2 * M * K * N / statistics.median(times) / 1e9


def peaks(threads: int, repeats: int) -> dict[str, float]:
    import openvino as ov
    import openvino.opset13 as ops
    import torch

    from papertopics.embed import cpu

    torch.set_num_threads(threads)
    out = {}
    a, w = torch.randn(M, K), torch.randn(K, N)
    out["torch fp32"] = peak(lambda: a @ w, repeats)
    if cpu.cpu_has_bf16():
        ab, wb = a.bfloat16(), w.bfloat16()
        out["torch bf16"] = peak(lambda: ab @ wb, repeats)
    x = ops.parameter([M, K], np.float32)
    model = ov.Model([ops.matmul(x, ops.constant(w.numpy()), False, False)], [x])
    data = a.numpy()
    hints = ["f32"] + (["bf16"] if cpu.cpu_has_bf16() else [])
    for hint in hints:
        compiled = ov.Core().compile_model(
            model, "CPU", {"INFERENCE_PRECISION_HINT": hint, "INFERENCE_NUM_THREADS": threads}
        )
        request = compiled.create_infer_request()
        out[f"openvino {hint}"] = peak(lambda r=request: r.infer({0: data}), repeats)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", choices=["own", *LEVEL_CAPS])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--n", type=int, default=300, help="abstracts whose lengths set the FLOPs")
    parser.add_argument("--rate", type=float, help="the default's measured abstracts/s at this level")
    args = parser.parse_args(argv)
    run_at_level(args.level)
    own, padded = flops_per_abstract(load_abstracts(DATA, args.n), 256)
    print(f"GFLOP per abstract (seq 256): {own:.2f} at its own length, {padded:.2f} padded to its bucket")
    for name, gflops in peaks(args.threads, args.repeats).items():
        ceiling = gflops / padded
        share = f", default at {args.rate / ceiling:.0%} of it" if args.rate else ""
        print(f"{name:<16} {gflops:7.0f} GFLOP/s -> ceiling {ceiling:6.1f} abstracts/s{share}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
