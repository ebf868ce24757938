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

import contextlib
import errno
import hashlib
import json
import os
import tempfile
from importlib import metadata
from pathlib import Path

from papertopics.errors import ConfigError

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


def unwritable(folder: Path) -> str | None:
    """Why nothing can be written in `folder` (created if missing), or None when it can."""
    try:
        Path(folder).mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, prefix=".probe-"):
            pass
    except OSError as error:
        if error.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
            return None  # full, not unwritable: the disk-full message names it
        return error.strerror or str(error)
    return None


@contextlib.contextmanager
def cache_errors(cache_dir: Path | None):
    """A cache that cannot be written (read-only, not a folder, no permission) is one line naming
    it and what to do, not the OSError (or OpenVINO's "iostream error") of whichever write met it
    first. A run whose vectors are all cached never writes, so a read-only cache serves it."""
    try:
        yield
    except (OSError, RuntimeError):
        problem = unwritable(cache_dir) if cache_dir is not None else None
        if problem is None:
            raise
        raise ConfigError(
            f"the embedding cache {cache_dir} cannot be written ({problem}); make it writable, or "
            f"point {ENV_VAR} (or embedding.cache_dir in config.yaml) to a folder you can write, "
            "and rerun"
        ) from None
