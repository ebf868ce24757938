"""Snakemake's own lock files (.snakemake/locks): whose they are, and whether the run is alive.

A `kill -9` leaves them behind and Snakemake then asks for `--unlock`; recovery removes them
when no run is working in the folder (`live_run`). Only a command that runs jobs recovers
(`runs_jobs`).
"""

from __future__ import annotations

import json
import os
import socket
from dataclasses import dataclass
from pathlib import Path

LOCK_DIR = Path(".snakemake/locks")
OWNER_FILE = Path(".snakemake/papertopics/run.json")  # host and pid of the run that took the lock


@dataclass(frozen=True)
class LiveRun:
    """Who holds the folder's lock: a process on this host, or an unknown one on another."""

    pid: int | None
    host: str
    command: str

    def advice(self, workdir: Path, argv: list[str]) -> str:
        """The one line to act on: wait for (or stop) the live run, or unlock a foreign host's."""
        if self.pid is None:
            again = " ".join(["snakemake", *argv[1:], "--unlock"])
            return (
                f"papertopics error: {workdir} is locked by a Snakemake run on host {self.host}; "
                f"if that run has ended, run: {again}   and then rerun"
            )
        return (
            f"papertopics error: another Snakemake run is working in {workdir} (pid {self.pid}); "
            f"wait for it to finish, or stop it (kill {self.pid}), then rerun"
        )


# Snakemake's options (argparse names) for commands that run no job: nothing to recover for them.
LOOK_ONLY_OPTIONS = (
    "dryrun",
    "lint",
    "report",
    "touch",
    "summary",
    "detailed_summary",
    "list_rules",
    "list_target_rules",
    "list_changes",
    "list_input_changes",
    "list_params_changes",
    "list_untracked",
    "dag",
    "rulegraph",
    "filegraph",
    "d3dag",
    "containerize",
    "export_cwl",
    "generate_unit_tests",
    "print_compilation",
    "archive",
    "cleanup_metadata",
    "delete_all_output",
    "delete_temp_output",
    "unlock",
)


def runs_jobs(argv: list[str]) -> bool:
    """Whether the Snakemake command line argv runs jobs (`snakemake --cores 4`), rather than
    only looking at the workflow (`-n`, `--lint`, `--report`, `--dag`, `--unlock` ...).

    While the Snakefile is parsed Snakemake tells no mode (its `workflow.dryrun` reads False then,
    9.27), so the command line is read with Snakemake's own documented parser (the one its CLI
    reference is built from); options from a profile are not seen. A command line that is not
    Snakemake's (its Python API, a test) counts as a run, as before.
    """
    if not argv or Path(argv[0]).name not in ("snakemake", "__main__.py"):
        return True
    from snakemake.cli import get_argument_parser

    parser = get_argument_parser()

    def refuse(message):
        raise ValueError(message)

    parser.error = refuse  # an unreadable command line is Snakemake's to report, not ours
    try:
        args, _ = parser.parse_known_args(argv[1:])
    except (ValueError, SystemExit):
        return True
    if getattr(args, "executor", None) in ("dryrun", "touch"):
        return False
    return not any(getattr(args, option, None) for option in LOOK_ONLY_OPTIONS)


def lock_files(workdir: Path) -> list[Path]:
    folder = Path(workdir) / LOCK_DIR
    return sorted(folder.glob("*.lock")) if folder.is_dir() else []


def live_run(workdir: Path) -> LiveRun | None:
    """The process that may be working in workdir (a Snakemake run or one of its jobs), or None.

    Snakemake changes into the working directory and its jobs run .snakemake/scripts/*.py from
    there, so a live run shows as a process with that cwd and 'snakemake' on its command line.
    A lock taken on another host (shared filesystem) cannot be checked and counts as live.
    """
    import psutil

    workdir = Path(workdir).resolve()
    owner = _read_owner(workdir)
    if owner and owner.get("host") not in (None, socket.gethostname()):
        return LiveRun(None, str(owner["host"]), "")
    me = os.getpid()
    ancestors = {p.pid for p in psutil.Process(me).parents()}
    for process in psutil.process_iter(["pid", "cmdline"]):
        if process.pid == me or process.pid in ancestors:
            continue
        try:
            command = " ".join(process.info["cmdline"] or [])
            if "snakemake" not in command or Path(process.cwd()).resolve() != workdir:
                continue
        except (psutil.Error, OSError):
            continue
        return LiveRun(process.pid, socket.gethostname(), command)
    return None


def _read_owner(workdir: Path) -> dict | None:
    try:
        return json.loads((workdir / OWNER_FILE).read_text())
    except (OSError, ValueError):
        return None


def record_owner(workdir: Path) -> None:
    """Note this host and process beside the locks Snakemake is about to take."""
    path = Path(workdir) / OWNER_FILE
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(path.name + ".tmp")
        tmp.write_text(json.dumps({"host": socket.gethostname(), "pid": os.getpid()}))
        os.replace(tmp, path)
    except OSError:  # a read-only or full disk: Snakemake's own lock handling still applies
        pass
