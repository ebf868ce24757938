"""What a sentence-transformers model folder says about how it embeds: pooling, dimension,
positions, and whether papertopics' own encoders can rebuild its pipeline."""

from __future__ import annotations

import json
import pathlib
from dataclasses import dataclass, field

from papertopics.errors import ConfigError

# Pooling modes we can reproduce outside sentence-transformers, in sentence-transformers' order
# (it concatenates the enabled modes in this order).
_POOLING_ORDER = ("cls_token", "max_tokens", "mean_tokens", "mean_sqrt_len_tokens")
_PIPELINE_MODULES = {"Transformer", "Pooling", "Normalize"}


@dataclass(frozen=True)
class ModelSpec:
    """What the model folder says about how sentence-transformers would embed with it."""

    path: pathlib.Path
    pooling: tuple[str, ...]
    dim: int
    max_positions: int
    # False when modules.json has layers (Dense, ...) or pooling modes we do not rebuild: only
    # the sentence-transformers backend then gives the model's real vectors.
    rebuildable: bool
    unsupported: list[str] = field(default_factory=list)


WEIGHT_FILES = (
    "model.safetensors",
    "pytorch_model.bin",
    "model.safetensors.index.json",
    "pytorch_model.bin.index.json",
)
TOKENIZER_FILES = ("tokenizer.json", "vocab.txt", "tokenizer_config.json")


def read_model_spec(path: pathlib.Path) -> ModelSpec:
    """Read modules.json / 1_Pooling/config.json / config.json (sentence-transformers' own files).
    A folder that cannot be a model (no weights, no tokenizer, a config.json without
    `model_type`) is a ConfigError saying what is missing, before any library guesses why."""
    config = _read_json(path / "config.json")
    missing = []
    if not isinstance(config, dict) or not config.get("model_type"):
        missing.append("config.json names no model_type")
    if not any((path / name).is_file() for name in WEIGHT_FILES):
        missing.append(f"no weights ({' or '.join(WEIGHT_FILES[:2])})")
    if not any((path / name).is_file() for name in TOKENIZER_FILES):
        missing.append(f"no tokenizer ({' or '.join(TOKENIZER_FILES[:2])})")
    if missing:
        raise ConfigError(
            f"embedding.model: {path} is not a usable model folder: {'; '.join(missing)}; point "
            "embedding.model to a complete sentence-transformers model folder (as "
            "SentenceTransformer.save() writes it)"
        )
    hidden = int(config.get("hidden_size") or config.get("dim") or 0)
    max_positions = int(config.get("max_position_embeddings") or 512)
    unsupported: list[str] = []
    pooling_dir = None
    modules_file = path / "modules.json"
    if modules_file.exists():
        for module in _read_json(modules_file):
            kind = str(module.get("type", "")).rsplit(".", 1)[-1]
            if kind not in _PIPELINE_MODULES:
                unsupported.append(f"module {kind}")
            if kind == "Pooling":
                pooling_dir = path / module.get("path", "")
    pooling: tuple[str, ...] = ("mean_tokens",)  # what sentence-transformers uses without config
    if pooling_dir is not None and (pooling_dir / "config.json").exists():
        pcfg = _read_json(pooling_dir / "config.json")
        hidden = int(pcfg.get("word_embedding_dimension") or hidden)
        enabled = [
            k[len("pooling_mode_") :] for k, v in pcfg.items() if k.startswith("pooling_mode_") and v is True
        ]
        unsupported += [f"pooling {m}" for m in enabled if m not in _POOLING_ORDER]
        pooling = tuple(m for m in _POOLING_ORDER if m in enabled)
        if not pooling:
            unsupported.append("no pooling mode")
    return ModelSpec(
        path=path,
        pooling=pooling,
        dim=hidden * max(1, len(pooling)),
        max_positions=max_positions,
        rebuildable=not unsupported,
        unsupported=unsupported,
    )


def _read_json(path: pathlib.Path):
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"embedding.model: cannot read {path}: {exc}") from None
