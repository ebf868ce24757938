"""A plain rerun recovers from an interrupted run: stale locks and damaged intermediates.

`kill -9`, a swallowed Ctrl-C or a full disk leave Snakemake's lock files and half-written
tables behind; Snakemake then asks for `--unlock` or fails reading the table. The Snakefile
calls `recover()` at parse time (main process only): locks whose run is gone are removed,
damaged tables and JSON files that papertopics wrote under results/ (WRITTEN lists them; a
user's own file there is never touched) are removed so their jobs rerun. A lock held by a
live run is kept and named. `rerun-incomplete` (profiles/default) covers the rest.

Only a command that runs jobs recovers (`runs_jobs`): a dry run, `--lint`, `--report` and the
other commands that only look leave the folder as it is.
"""

from __future__ import annotations

import logging
from pathlib import Path

from papertopics.runtime.damage import SKIPPED_FOLDERS, damage, damaged_files
from papertopics.runtime.edited import keep_edited_tables
from papertopics.runtime.folder_lock import RUN_LOCK, FolderBusy, hold_folder, release_folder
from papertopics.runtime.ledger import WRITTEN, compact_written, record_written, written_files
from papertopics.runtime.listing_checks import listing_inside_results, refuse_listings_in_results
from papertopics.runtime.owned_folders import foreign_file
from papertopics.runtime.snakemake_locks import (
    LOCK_DIR,
    OWNER_FILE,
    LiveRun,
    live_run,
    lock_files,
    record_owner,
    runs_jobs,
)

# The workflow and the command import these from here (one entry point for a run's start).
__all__ = [
    "LOCK_DIR",
    "OWNER_FILE",
    "RUN_LOCK",
    "SKIPPED_FOLDERS",
    "WRITTEN",
    "FolderBusy",
    "LiveRun",
    "damage",
    "damaged_files",
    "hold_folder",
    "listing_inside_results",
    "record_written",
    "recover",
    "refuse_listings_in_results",
    "release_folder",
    "runs_jobs",
    "written_files",
]

log = logging.getLogger(__name__)


def recover(workdir: Path, say=print) -> LiveRun | None:
    """Clear what an interrupted run left in workdir; return the live run holding it, if any.

    First the folder's run lock is taken (hold_folder): while another run holds it, this exits
    with its one line (SystemExit, as the Snakefile's other errors) and touches nothing.
    With no live run: stale lock files go (so no `--unlock`), damaged intermediates go (so
    their jobs rerun instead of failing to read them), and this process is noted as the owner.
    With a live run nothing is touched: its half-written files are work in progress.
    """
    workdir = Path(workdir)
    try:
        hold_folder(workdir)  # one run per folder, whichever command started it
    except FolderBusy as busy:
        raise SystemExit(f"papertopics error: {busy}") from None
    foreign = foreign_file(workdir)  # before Snakemake deletes a folder it replaces
    if foreign:
        raise SystemExit(f"papertopics error: {foreign}")
    locks = lock_files(workdir)
    running = live_run(workdir) if locks else None
    if running:
        return running
    if locks:
        for lock in locks:
            lock.unlink(missing_ok=True)
        say(
            f"papertopics: removed the lock left by an interrupted run in {workdir} (no Snakemake runs there)"
        )
    written = written_files(workdir)
    compact_written(workdir, written)
    for path, reason in damaged_files(workdir, written):
        path.unlink(missing_ok=True)
        say(f"papertopics: removed damaged {path.relative_to(workdir)} ({reason}); this run rebuilds it")
    for line in keep_edited_tables(workdir, written):  # a hand-edited topic table: kept aside, rebuilt
        say(line)
    record_owner(workdir)
    return None
