"""Where per-model artefacts and embedding vectors live: once per machine and user, not per folder.

A corpus folder used to keep its own converted OpenVINO model (~90 MB, 8-19 s to convert) and
its own vectors under results/cache, so every new folder paid the conversion again and
re-embedded abstracts another folder had already embedded. Both are keyed by content (model
files, library versions, the abstract's exact text), so one shared cache is safe to reuse:

    1. `embedding.cache_dir` in config.yaml (relative paths: to the corpus folder), else
    2. the PAPERTOPICS_CACHE_DIR environment variable, else
    3. the user cache directory of the platform (platformdirs: ~/.cache/papertopics on Linux,
       ~/Library/Caches/papertopics on macOS, %LOCALAPPDATA%\\papertopics\\Cache on Windows).

Deleting the folder is always safe (the next run converts and embeds again). Its size grows by
~2.7 KB per distinct abstract and ~90 MB per converted model.
"""

from __future__ import annotations

import hashlib
import json
import os
from importlib import metadata
from pathlib import Path

ENV_VAR = "PAPERTOPICS_CACHE_DIR"

# Libraries whose upgrade can change a vector by more than rounding: the runtimes (openvino,
# torch), the model code and conversion (transformers, sentence-transformers, optimum-intel)
# and the tokenizer. A new version of any of them starts a new vector cache and a new IR.
VECTOR_LIBRARIES = (
    "openvino",
    "torch",
    "transformers",
    "sentence-transformers",
    "tokenizers",
    "optimum-intel",
)


def cache_root(configured: str | os.PathLike | None = None, base: Path | None = None) -> Path:
    """The cache folder: config key, else $PAPERTOPICS_CACHE_DIR, else the platform's user cache."""
    if configured:
        path = Path(configured).expanduser()
        return path if path.is_absolute() else (base or Path.cwd()) / path
    if os.environ.get(ENV_VAR):
        return Path(os.environ[ENV_VAR]).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("papertopics", appauthor=False))


def library_versions(names: tuple[str, ...] = VECTOR_LIBRARIES) -> dict[str, str | None]:
    """Installed version of each library (None: not installed), read without importing it."""
    versions = {}
    for name in names:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            versions[name] = None
    return versions


def versions_digest(versions: dict[str, str | None] | None = None) -> str:
    """Short hash of the library versions, for folder names."""
    versions = library_versions() if versions is None else versions
    return hashlib.sha256(json.dumps(versions, sort_keys=True).encode()).hexdigest()[:12]
