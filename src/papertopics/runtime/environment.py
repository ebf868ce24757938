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
    TOKENIZERS_PARALLELISM set by the user wins, the offline switches always hold. The numba
    cache sits beside the Snakefile, or in the per-user cache for a wheel's packaged workflow."""
    environ = os.environ if environ is None else environ
    if "NUMBA_CACHE_DIR" not in environ:
        if Path(repo).name == "_workflow":  # a wheel's workflow: site-packages may be read-only
            from papertopics.embed.user_cache import cache_root

            environ["NUMBA_CACHE_DIR"] = str(cache_root() / "numba")
        else:
            environ["NUMBA_CACHE_DIR"] = str(Path(repo) / ".numba_cache")
    for key, value in DEFAULTS.items():
        environ.setdefault(key, value)
    environ.update(FORCED)
    return environ
