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

import errno
import json
import logging
import os
import socket
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from papertopics.errors import PapertopicsError

log = logging.getLogger(__name__)

LOCK_DIR = Path(".snakemake/locks")
OWNER_FILE = Path(".snakemake/papertopics/run.json")  # host and pid of the run that took the lock
# One run per folder: an exclusive OS lock (flock) on this file, held by the process that runs
# Snakemake (`papertopics run` or `snakemake`) from before it touches the folder until it exits.
RUN_LOCK = Path(".snakemake/papertopics/run.lock")
# What papertopics' jobs wrote: each job adds its outputs before it starts (scripting.script_run),
# and only these are ever repaired. A user's own file under results/ is never touched.
WRITTEN = Path(".snakemake/papertopics/written.txt")
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


class FolderBusy(PapertopicsError):
    """Another run holds the folder (its RUN_LOCK), or the folder cannot hold a lock at all."""


_HELD: dict[str, int] = {}  # lock file -> descriptor, for the locks this process holds


def hold_folder(workdir: Path) -> None:
    """Take workdir's run lock for the rest of this process's life, or raise FolderBusy naming
    the run that holds it (one line: what to do).

    An exclusive `fcntl.flock` on RUN_LOCK: the OS drops it when the holder exits, however it
    ends (kill -9 included), so a lock never outlives its run and needs no unlocking. Taken by
    the command before it writes anything (config.yaml, --config) and by the Snakefile when it
    is parsed (plain `snakemake`); a second call in the same process is a no-op. Its descriptor
    is not inherited by jobs (Python's default), so a job left running holds nothing.
    """
    import fcntl

    workdir = Path(workdir).resolve()
    path = workdir / RUN_LOCK
    key = str(path)
    if key in _HELD:
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as error:
        raise FolderBusy(
            f"{workdir}: cannot write there ({error.strerror or error}: {error.filename or path}); "
            f"run in a folder you can write to (copy the listings and config.yaml there)"
        ) from None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as error:
        holder = _read_holder(fd)
        os.close(fd)
        if error.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
            raise FolderBusy(_busy_message(workdir, holder)) from None
        return  # a filesystem without locks (ENOLCK): Snakemake's own lock files still apply
    record = {
        "host": socket.gethostname(),
        "pid": os.getpid(),
        "started": time.strftime("%Y-%m-%d %H:%M:%S"),
        "command": _command_line(sys.argv),
    }
    os.ftruncate(fd, 0)
    os.pwrite(fd, json.dumps(record).encode(), 0)
    _HELD[key] = fd


def _command_line(argv: list[str]) -> str:
    """The command as typed: `papertopics run ...`, `snakemake --cores 4` (not the script's path)."""
    if not argv:
        return ""
    program = Path(argv[0])
    name = program.parent.name if program.name == "__main__.py" else program.name
    return " ".join([name, *argv[1:]])[:300]


def release_folder(workdir: Path) -> None:
    """Give back workdir's run lock if this process holds it (the OS does so at exit anyway)."""
    fd = _HELD.pop(str(Path(workdir).resolve() / RUN_LOCK), None)
    if fd is not None:
        os.close(fd)


def _read_holder(fd: int) -> dict:
    try:
        holder = json.loads(os.pread(fd, 4096, 0) or b"{}")
    except (OSError, ValueError):
        return {}
    return holder if isinstance(holder, dict) else {}


def _busy_message(workdir: Path, holder: dict) -> str:
    pid = holder.get("pid")
    who = f"pid {pid}" if pid else "a process"
    if holder.get("host") not in (None, socket.gethostname()):
        who += f" on host {holder['host']}"
    if holder.get("started"):
        who += f", started {holder['started']}"
    if holder.get("command"):
        who += f": {holder['command']}"
    here = holder.get("host") in (None, socket.gethostname())
    stop = f" (or stop it: kill {pid})" if pid and here else ""
    return (
        f"another run is working in {workdir} ({who}); wait for it to finish{stop}, then rerun "
        f"(two runs in one folder would overwrite each other's results)"
    )


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


def record_written(outputs, workdir: Path | None = None) -> None:
    """Add a job's outputs (paths relative to the folder, under results/) to the folder's list of
    what papertopics wrote. Called before the job writes them, so a file a killed job
    half-wrote is on it. Only in a Snakemake working folder (one with .snakemake/); one append
    per job (O_APPEND: jobs running side by side do not mix their lines)."""
    workdir = Path.cwd() if workdir is None else Path(workdir)
    lines = []
    for output in outputs:
        path = os.path.normpath(str(output))
        if not os.path.isabs(path) and path.split(os.sep)[0] == "results":
            lines.append(Path(path).as_posix() + "\n")
    if not lines or not (workdir / ".snakemake").is_dir():
        return
    try:
        (workdir / WRITTEN).parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(workdir / WRITTEN, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        try:
            os.write(fd, "".join(lines).encode("utf-8"))
        finally:
            os.close(fd)
    except OSError:  # a full disk: the job says so itself when it writes
        pass


def written_files(workdir: Path) -> set[str]:
    """What papertopics' jobs wrote in workdir (relative paths), as record_written noted it."""
    try:
        text = (Path(workdir) / WRITTEN).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return set()
    return {line for line in text.splitlines() if line.strip()}


def _compact_written(workdir: Path, written: set[str]) -> None:
    """Rewrite the list once per run, each path once (it would grow by a run's outputs per run)."""
    from papertopics.artifacts import atomic_write_text

    if written:
        try:
            atomic_write_text(Path(workdir) / WRITTEN, "".join(f"{p}\n" for p in sorted(written)))
        except OSError:
            pass


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
            reason = _damage(path)
            if reason:
                found.append((path, reason))
    return found


def refuse_listings_in_results(paths, workdir: Path) -> None:
    """Raise a PapertopicsError (one line) for the first listing kept under workdir/results/."""
    for path in paths:
        problem = listing_inside_results(path, workdir)
        if problem:
            raise PapertopicsError(problem)


def listing_inside_results(path: str | Path, workdir: Path) -> str | None:
    """The one line refusing a listing kept under workdir/results/ (papertopics' own folder,
    which a run rewrites and repairs), or None for a listing elsewhere."""
    results = os.path.realpath(Path(workdir) / "results")
    full = os.path.realpath(Path(workdir) / Path(path).expanduser())
    if os.path.commonpath([results, full]) != results:
        return None
    return (
        f"{path}: a listing inside results/, the folder papertopics writes its results to; "
        f"move it out of results/ (e.g. to {Path(workdir) / Path(full).name}) and name it there"
    )


def _damage(path: Path) -> str | None:
    """Why a .parquet or .json file cannot be read, or None (other files are not checked)."""
    try:
        if path.suffix == ".parquet":
            import pyarrow.parquet as pq

            pq.read_metadata(path)
        elif path.suffix == ".json":
            json.loads(path.read_bytes())
    except Exception as error:  # noqa: BLE001 - any reader failure means the file is unusable
        return str(error).splitlines()[0][:120] if str(error) else type(error).__name__
    return None


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
    _compact_written(workdir, written)
    for path, reason in damaged_files(workdir, written):
        path.unlink(missing_ok=True)
        say(f"papertopics: removed damaged {path.relative_to(workdir)} ({reason}); this run rebuilds it")
    record_owner(workdir)
    return None
