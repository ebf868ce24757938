"""Where the default's time goes: OpenVINO's per-layer profile by layer type, tokenisation, Python.

Why (issue 53): the share of the matmul ceiling (embed_ceiling.py) says how much is lost, not
where. Compiles the default encoder with PERF_COUNT on, embeds `--n` NeurIPS abstracts through
`embed_texts`' own batching, and prints the real time per OpenVINO layer type (FullyConnected:
the linear layers; Subgraph/ScaledDotProductAttention: attention; MVN: layer norm; Eltwise/GELU),
the tokenizer's time and the rest of the call (Python, padding, copies).

    HF_HUB_OFFLINE=1 .venv/bin/python bench/embed_profile.py [--level LEVEL] [--n 300]
"""

from __future__ import annotations

import argparse
import collections
import sys
import time

from cpu_levels import LEVEL_CAPS, run_at_level
from embed_throughput import DATA, load_abstracts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", choices=["own", *LEVEL_CAPS])
    parser.add_argument("--n", type=int, default=300)
    args = parser.parse_args(argv)
    run_at_level(args.level)
    import openvino as ov

    from papertopics import embed as E
    from papertopics.embed import encode

    texts = load_abstracts(DATA, args.n)
    compile_model = ov.Core.compile_model

    def with_perf_count(self, model, device, config=None):
        return compile_model(self, model, device, {**(config or {}), "PERF_COUNT": True})

    ov.Core.compile_model = with_perf_count  # the default encoder, compiled with its profile on
    E.embed_texts(texts[:8], threads=2)  # load, convert and compile
    ov.Core.compile_model = compile_model
    (encoder, tokenizer), *_ = encode._ENCODERS.values()
    t = time.perf_counter()
    tokenizer(texts)
    tok_s = time.perf_counter() - t
    per_type: collections.Counter = collections.Counter()
    encode_inner = encoder.encode

    def profiled(input_ids, mask):
        out = encode_inner(input_ids, mask)
        for info in encoder.request.profiling_info:
            per_type[info.node_type] += info.real_time.total_seconds()
        return out

    encoder.encode = profiled
    t = time.perf_counter()
    E.embed_texts([x + " ." for x in texts], threads=2)  # new keys: no in-memory reuse
    total = time.perf_counter() - t
    encoder.encode = encode_inner
    layers = sum(per_type.values())
    print(f"{args.n} abstracts in {total:.1f} s ({args.n / total:.1f}/s); tokenizer {tok_s:.2f} s")
    for kind, sec in per_type.most_common(12):
        print(f"  {kind:<28} {sec:7.2f} s  {sec / total:6.1%}")
    print(f"  {'(outside OpenVINO layers)':<28} {total - layers:7.2f} s  {(total - layers) / total:6.1%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
