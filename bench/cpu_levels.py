"""Which instruction-set caps the libraries of the embedding path honour, observed, per level.

For each level (this CPU's own, then the caps .ci/run uses) a fresh process, with the level's
ONEDNN_MAX_CPU_ISA, MKL_ENABLE_INSTRUCTIONS and ATEN_CPU_CAPABILITY set, reports:
- oneDNN in torch: the ISA and the matmul kernel its verbose mode names (ONEDNN_VERBOSE=1);
- MKL in torch: its verbose mode's version line (MKL_VERBOSE=1), which names the code path;
- ATen: torch.backends.cpu.get_cpu_capability();
- OpenVINO's CPU plugin: the kernels it picked (the compiled model's `primitiveType`) for the
  matmuls (FullyConnected, MatMul), the fused attention blocks (Subgraph) and the layer norms
  (MVN), with the bf16 hint;
- a digest of the vectors of 8 seed abstracts per backend and precision: a cap a library
  honours changes its kernels, which usually changes some bits.

    .venv/bin/python bench/cpu_levels.py [LEVEL ...]   # e.g. own AVX2 "MKL=AVX2 only"
"""

from __future__ import annotations

import json
import os
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
# level -> the caps of every library in the embedding path, as .ci/run sets them
LEVEL_CAPS = {
    "AVX2": {"ONEDNN_MAX_CPU_ISA": "AVX2", "MKL_ENABLE_INSTRUCTIONS": "AVX2", "ATEN_CPU_CAPABILITY": "avx2"},
    "AVX512_CORE": {
        "ONEDNN_MAX_CPU_ISA": "AVX512_CORE",
        "MKL_ENABLE_INSTRUCTIONS": "AVX512",
        "ATEN_CPU_CAPABILITY": "avx512",
    },
    "AVX512_CORE_BF16": {
        "ONEDNN_MAX_CPU_ISA": "AVX512_CORE_BF16",
        "MKL_ENABLE_INSTRUCTIONS": "AVX512_E3",
        "ATEN_CPU_CAPABILITY": "avx512",
    },
    "AVX512_CORE_AMX": {
        "ONEDNN_MAX_CPU_ISA": "AVX512_CORE_AMX",
        "MKL_ENABLE_INSTRUCTIONS": "AVX512_E4",
        "ATEN_CPU_CAPABILITY": "avx512",
    },
}
# what this script probes; the last two rows set one library's cap alone, to tell which library
# a change of bits comes from
LEVELS = {
    "own": {},
    "AVX512_CORE_BF16": LEVEL_CAPS["AVX512_CORE_BF16"],
    "AVX512_CORE": LEVEL_CAPS["AVX512_CORE"],
    "AVX2": LEVEL_CAPS["AVX2"],
    "MKL=AVX2 only": {"MKL_ENABLE_INSTRUCTIONS": "AVX2"},
    "ATen=avx2 only": {"ATEN_CPU_CAPABILITY": "avx2"},
}


def run_at_level(level: str | None) -> None:
    """Restart this script with every cap of `level` set (before torch or OpenVINO load), or
    return when it already runs so (None or "own": the CPU's own level)."""
    if level in (None, "own"):
        return
    caps = LEVEL_CAPS[level]
    if all(os.environ.get(k) == v for k, v in caps.items()):
        print(f"level {level}: " + " ".join(f"{k}={v}" for k, v in caps.items()), flush=True)
        return
    os.execve(sys.executable, [sys.executable, *sys.argv], {**os.environ, **caps})


TORCH_PROBE = r"""
import torch
print("ATEN " + torch.backends.cpu.get_cpu_capability(), flush=True)
a = torch.randn(64, 64)
(a.bfloat16() @ a.bfloat16()).sum()  # oneDNN: its verbose lines name the ISA
torch.nn.functional.linear(a, a).sum()  # MKL sgemm: its verbose line names the code path
"""

PROBE = r"""
import hashlib, json, pathlib, sys
import numpy as np
sys.path.insert(0, sys.argv[1] + "/tests")
from test_embedding import SEEDS
from papertopics import embed as E
from papertopics.embed import backends as eb
from papertopics.embed.model import model_identity, model_spec

out = {}
path = E.resolve_model_path(E.DEFAULT_MODEL)
spec = model_spec(path)
ir_root = pathlib.Path(sys.argv[2])
for precision in ("bf16", "fp32"):
    try:
        enc = eb.OpenVINOEncoder(spec, precision, "cpu", 2, ir_root=ir_root, model_id=model_identity(path))
    except eb.BackendUnavailable as exc:
        out[f"openvino {precision}"] = f"refused: {exc}"
        continue
    ids = np.array([[101] + [2000 + i for i in range(62)] + [102]] * 4)
    enc.encode(ids, np.ones_like(ids))
    kinds = {}
    for op in enc.compiled.get_runtime_model().get_ops():
        rt = {k: v.astype(str) for k, v in op.get_rt_info().items() if k != "originalLayersNames"}
        if rt.get("layerType") in ("FullyConnected", "MatMul", "Subgraph", "MVN"):
            kinds[f"{rt['layerType']}:{rt['primitiveType']}"] = 1
    out[f"openvino {precision}"] = " ".join(sorted(kinds))
for backend, precision in [("openvino", "bf16"), ("openvino", "fp32"), ("torch", "bf16"), ("torch", "fp32")]:
    try:
        vecs, _ = E.embed_texts(SEEDS[:8], backend=backend, precision=precision, threads=2)
        out[f"{backend}-{precision}"] = hashlib.sha256(vecs.tobytes()).hexdigest()[:10]
    except Exception as exc:  # a backend refusing the level
        out[f"{backend}-{precision}"] = "refused"
print("RESULT " + json.dumps(out))
"""


def probe(level: str, extra: dict, ir_root: str) -> dict:
    env = {**os.environ, **extra, "PAPERTOPICS_CPU_BF16": "1"}
    # torch's libraries, verbose (OpenVINO's CPU plugin fails to compile with ONEDNN_VERBOSE set)
    verbose = {**env, "ONEDNN_VERBOSE": "1", "MKL_VERBOSE": "1"}
    done = subprocess.run([sys.executable, "-c", TORCH_PROBE], env=verbose, capture_output=True, text=True)
    text = done.stdout + done.stderr
    aten = re.search(r"^ATEN (.*)$", text, re.M)
    isa = re.search(r"onednn_verbose,[^\n]*info,cpu,isa:([^\n]*)", text)
    kernel = re.search(r"onednn_verbose,[^\n]*exec,cpu,(?:matmul|inner_product),([^,]*)", text)
    mkl = re.search(r"MKL_VERBOSE (?:oneMKL|Intel\(R\) MKL)[^\n]*", text)
    out = {
        "aten": aten.group(1) if aten else "?",
        "onednn": (isa.group(1).strip() if isa else "?") + (f" | matmul {kernel.group(1)}" if kernel else ""),
        "mkl": mkl.group(0)[12:120] if mkl else "(no MKL version line)",
    }
    done = subprocess.run(
        [sys.executable, "-c", PROBE, str(ROOT), ir_root], env=env, capture_output=True, text=True
    )
    result = re.search(r"^RESULT (.*)$", done.stdout, re.M)
    if not result:
        sys.exit(f"{level}: probe failed\n{(done.stdout + done.stderr)[-3000:]}")
    return {**out, **json.loads(result.group(1))}


def main() -> None:
    import tempfile

    only = sys.argv[1:]  # level names to probe (default: all)
    if set(only) - set(LEVELS):
        sys.exit(f"usage: cpu_levels.py [LEVEL ...], LEVEL one of: {', '.join(map(repr, LEVELS))}")
    ir_root = tempfile.mkdtemp(prefix="cpu-levels-ir-")
    rows = {}
    for level, extra in LEVELS.items():
        if only and level not in only:
            continue
        rows[level] = probe(level, extra, ir_root)
        print(f"\n== {level} {extra or ''}", flush=True)
        for key, value in rows[level].items():
            print(f"  {key:<14} {value}")
    print("\nvector digests (one that differs from the own row's: that cap changed the kernels' bits):")
    keys = [k for k in next(iter(rows.values())) if k.startswith(("openvino-", "torch-"))]
    print(f"{'level':<18}" + "".join(f"{k:>16}" for k in keys))
    for level, row in rows.items():
        print(f"{level:<18}" + "".join(f"{row[k]:>16}" for k in keys))


if __name__ == "__main__":
    main()
