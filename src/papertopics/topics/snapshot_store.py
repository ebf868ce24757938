"""The history folder's files: which snapshot is current, and moving it on after a run.

Kept apart from history.py (numpy, pandas, topic matching) so that advance_history, the last
job of every run, starts in a fraction of a second.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import tempfile
from pathlib import Path

SNAPSHOT_FILES = ("topics.parquet", "documents.parquet", "meta.json")
CURRENT = "current.json"


def snapshot_name(snapshot: Path) -> str:
    """A snapshot's name in the history: a hash of its files' bytes."""
    digest = hashlib.sha256()
    for name in SNAPSHOT_FILES:
        digest.update((Path(snapshot) / name).read_bytes())
    return digest.hexdigest()[:16]


def current_name(history: Path) -> str | None:
    """The name of the history's current snapshot (the last finished run's), or None."""
    try:
        return str(json.loads((Path(history) / CURRENT).read_text(encoding="utf-8"))["snapshot"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def advance_history(snapshot: Path, history: Path) -> str:
    """Make `snapshot` the history's current one; returns its name (a content hash).

    Copied into a new subfolder first, then current.json is replaced in one step; older
    snapshots (and a pre-subfolder flat layout) are removed after.
    """
    snapshot, history = Path(snapshot), Path(history)
    name = snapshot_name(snapshot)
    history.mkdir(parents=True, exist_ok=True)
    target = history / name
    if not target.is_dir():
        tmp = Path(tempfile.mkdtemp(prefix=f".{name}.", dir=history))
        try:
            for file in SNAPSHOT_FILES:
                shutil.copyfile(snapshot / file, tmp / file)
            os.replace(tmp, target)
        finally:
            shutil.rmtree(tmp, ignore_errors=True)
    pointer = history / f".{CURRENT}.tmp"
    pointer.write_text(json.dumps({"snapshot": name}))
    os.replace(pointer, history / CURRENT)
    for entry in history.iterdir():
        if entry.name in (name, CURRENT) or not (entry.is_dir() or entry.name in SNAPSHOT_FILES):
            continue
        shutil.rmtree(entry, ignore_errors=True) if entry.is_dir() else entry.unlink(missing_ok=True)
    return name


def advance_history_job(job, log) -> None:
    """Rule advance_history (run by papertopics.runtime.inprocess.run_job): the finished run's topic
    snapshot becomes the one the next run compares with.

    Inputs: results/topics/snapshot (and, as ancient() inputs, the report and metrics it waits for).
    Outputs: results/topics/history/advanced.json (the history is the folder around it).
    """
    name = advance_history(job.input.snapshot, Path(job.output.marker).parent)
    with open(job.output.marker, "w", encoding="utf-8") as handle:
        json.dump({"snapshot": name}, handle)
    log.info("history now at snapshot %s", name)
