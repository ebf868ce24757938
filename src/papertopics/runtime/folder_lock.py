"""One run per folder: an exclusive OS lock (flock) on .snakemake/papertopics/run.lock.

Held by the process that runs Snakemake (`papertopics run` or `snakemake`) from before it
touches the folder until it exits; `busy_line` tells a reader (papertopics.load) that a run is
working there.
"""

from __future__ import annotations

import errno
import json
import os
import socket
import sys
import time
from pathlib import Path

from papertopics.errors import PapertopicsError

# One run per folder: an exclusive OS lock (flock) on this file, held by the process that runs
# Snakemake (`papertopics run` or `snakemake`) from before it touches the folder until it exits.
RUN_LOCK = Path(".snakemake/papertopics/run.lock")


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


def busy_line(workdir: Path) -> str | None:
    """The line naming the run working in workdir now (another process holding its run lock),
    or None when none is (this process's own lock does not count)."""
    import fcntl

    path = Path(workdir) / RUN_LOCK
    if str(path) in _HELD or str(path.resolve()) in _HELD or not path.is_file():
        return None
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except OSError:
        return _busy_message(Path(workdir), _read_holder(fd))
    finally:
        os.close(fd)
    return None
