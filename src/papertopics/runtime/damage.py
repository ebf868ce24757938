"""Damaged intermediates: parquet tables without a readable footer, JSON files that do not parse.

Only files papertopics wrote (the ledger) and under results/ are checked, never a user's own.
"""

from __future__ import annotations

import json
from pathlib import Path

from papertopics.runtime.ledger import written_files

# Intermediates under results/ whose damage is cheap to detect (parquet footer, JSON syntax) and
# that a rerun rebuilds. Skipped: the history (fit_topics reads it with a warning instead), the
# embedding cache (it checks its own chunks), the model, logs and the report.
SKIPPED_FOLDERS = (
    "results/cache",
    "results/topics/history",
    "results/topics/model",
    "results/logs",
    "results/benchmarks",
    "results/report",
    "results/report_bundle",
)


def damaged_files(workdir: Path, written: set[str] | None = None) -> list[tuple[Path, str]]:
    """Parquet tables without a readable footer and JSON files that do not parse, with why:
    only files papertopics wrote (written_files) and under results/, never a user's own."""
    workdir = Path(workdir)
    written = written_files(workdir) if written is None else written
    found = []
    for rel in sorted(written):
        if not rel.endswith((".parquet", ".json")) or any(
            rel == skipped or rel.startswith(skipped + "/") for skipped in SKIPPED_FOLDERS
        ):
            continue
        path = workdir / rel
        if path.is_file() and not path.is_symlink():
            reason = damage(path)
            if reason:
                found.append((path, reason))
    return found


def damage(path: Path) -> str | None:
    """Why a .parquet or .json file cannot be read, or None (other files are not checked)."""
    try:
        if path.suffix == ".parquet":
            import pyarrow.parquet as pq

            pq.read_metadata(path)
        elif path.suffix == ".json":
            json.loads(path.read_bytes())
    except Exception as error:  # any reader failure means the file is unusable
        return str(error).splitlines()[0][:120] if str(error) else type(error).__name__
    return None
