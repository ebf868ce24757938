"""The environment every papertopics process runs in, set by common.smk, the tests and bench/.

Models are never downloaded (the hub is told it is offline); UMAP's numba JIT costs seconds in
every new process, so its cache is kept across runs and corpora; tokenizers' own thread pool
would fight the thread caps of parallel jobs.
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping
from pathlib import Path

FORCED = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
DEFAULTS = {"TOKENIZERS_PARALLELISM": "false"}


def runtime_environment(
    repo: Path, environ: MutableMapping[str, str] | None = None
) -> MutableMapping[str, str]:
    """Set the variables in environ (default os.environ) and return it; a NUMBA_CACHE_DIR or
    TOKENIZERS_PARALLELISM set by the user wins, the offline switches always hold."""
    environ = os.environ if environ is None else environ
    environ.setdefault("NUMBA_CACHE_DIR", str(Path(repo) / ".numba_cache"))
    for key, value in DEFAULTS.items():
        environ.setdefault(key, value)
    environ.update(FORCED)
    return environ
