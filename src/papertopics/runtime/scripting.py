"""What every thin workflow script shares: logging to the rule's log, one-line errors, thread caps."""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import shutil
import sys
import threading
import traceback
import warnings
from pathlib import Path

from papertopics.errors import PapertopicsError

THREAD_VARIABLES = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "NUMBA_NUM_THREADS")


class JobFailed(Exception):
    """A job run inside Snakemake's process (papertopics.runtime.inprocess) failed on bad input; its
    one-line message is already on stderr and in the rule's log. SystemExit would escape
    Snakemake's job callback there and leave the run waiting for the job forever."""


# Set by runtime.inprocess.run_job while a light job runs in this thread of Snakemake's process.
JOB_THREAD = threading.local()


def in_process() -> bool:
    """True inside `runtime.inprocess.run_job` (in this thread): the job shares Snakemake's process."""
    return getattr(JOB_THREAD, "active", False)


@contextlib.contextmanager
def script_run(snakemake, writes: list | tuple = ()):
    """Log to the rule's log file and stderr; turn a PapertopicsError into one line and exit 1.

    Snakemake deletes the outputs of a failed job, so nothing half-written survives. Inside
    Snakemake's own process (papertopics.runtime.inprocess) nothing process-wide changes: the log
    handlers take this thread's records only, and a bad input raises JobFailed, not SystemExit.
    writes: folders outside its outputs that the job writes to (the embedding cache), so that a
    full disk there is the one named.
    """
    from papertopics.runtime.recovery import record_written

    record_written(getattr(snakemake, "output", ()))  # before writing: only these are ever repaired
    shared = in_process()
    log_path = snakemake.log[0] if len(snakemake.log) else None
    handlers: list[logging.Handler] = [logging.StreamHandler(sys.stderr)]
    if log_path:
        handlers.append(logging.FileHandler(log_path, mode="w", encoding="utf-8"))
    formatter = logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s")
    for handler in handlers:
        handler.setFormatter(formatter)
    root = logging.getLogger()
    if shared:
        thread = threading.get_ident()
        for handler in handlers:
            handler.addFilter(lambda record: record.thread == thread)
            root.addHandler(handler)
        if root.getEffectiveLevel() > logging.INFO:
            root.setLevel(logging.INFO)
        route_thread_warnings()
    else:
        threads = str(max(1, int(getattr(snakemake, "threads", 1) or 1)))
        for variable in THREAD_VARIABLES:
            os.environ[variable] = threads
        logging.basicConfig(level=logging.INFO, handlers=handlers, force=True)
        logging.captureWarnings(True)
        warnings.formatwarning = one_line_warning
    log = logging.getLogger(snakemake.rule)
    try:
        yield log
    except Exception as error:
        message = (
            error
            if isinstance(error, PapertopicsError)
            else disk_full_message(error, [Path(w) for w in writes] + job_paths(snakemake))
            or damaged_input_message(snakemake)
        )
        if message is None:
            # A bug, not bad input: Snakemake shows the traceback; the rule's log keeps it too.
            if log_path:
                with contextlib.suppress(OSError), open(log_path, "a", encoding="utf-8") as handle:
                    traceback.print_exc(file=handle)
            raise
        # One line on the terminal (not a log record as well), the same line in the rule's log.
        line = f"papertopics error: {message}"
        if log_path:
            with contextlib.suppress(OSError), open(log_path, "a", encoding="utf-8") as handle:
                handle.write(line + "\n")
        print(line, file=sys.stderr, flush=True)
        if shared:
            raise JobFailed(line) from None
        raise SystemExit(1) from None
    finally:
        if shared:
            for handler in handlers:
                root.removeHandler(handler)
                handler.close()


def route_thread_warnings() -> None:
    """Warnings raised in an in-process job's thread go to its log as one line (what
    captureWarnings does for a job's own process); other threads' warnings, Snakemake's own
    included, are shown as before. Installed once; process-wide by nature of `warnings`."""
    previous = warnings.showwarning
    if getattr(previous, "routes_job_warnings", False):
        return

    def show(message, category, filename, lineno, file=None, line=None):
        if in_process():
            text = one_line_warning(message, category, filename, lineno, line)
            logging.getLogger("py.warnings").warning(text)
        else:
            previous(message, category, filename, lineno, file, line)

    show.routes_job_warnings = True
    warnings.showwarning = show


def damaged_input_message(snakemake) -> str | None:
    """'<input> is damaged (...)' when one of the job's parquet/JSON inputs no longer reads.

    A reader's own error (pyarrow's "Parquet magic bytes not found") does not name the file.
    """
    from papertopics.runtime.damage import damage

    for path in getattr(snakemake, "input", []):
        reason = damage(Path(path)) if Path(path).is_file() else None
        if reason:
            return f"{path} is damaged ({reason}); delete it and rerun, the run rebuilds it"
    return None


def one_line_warning(message, category, filename, lineno, line=None) -> str:
    """A warning as one line: ours by category and text (not the temporary script's path that
    stacklevel points at), a library's with the file and line it came from."""
    text = " ".join(str(message).split())
    if category.__module__.split(".")[0] == "papertopics":
        return f"{category.__name__}: {text}"
    return f"{category.__name__}: {text} ({Path(filename).parent.name}/{Path(filename).name}:{lineno})"


# Below this much free space, a write error that does not say why (OpenVINO's model save says
# only "basic_ios::clear: iostream error") is taken to be a full disk.
LOW_SPACE_BYTES = 256 * 2**20
DISK_FULL_ERRNOS = {errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)}


def job_paths(snakemake) -> list[Path]:
    """Where a job writes: any folder named in its params (caches: OpenVINO's model save), then
    its outputs."""
    params = getattr(snakemake, "params", None)
    paths = [
        Path(value)
        for _, value in (params.items() if hasattr(params, "items") else ())
        if isinstance(value, str) and value and Path(value).is_dir()
    ]
    return paths + [Path(p) for p in snakemake.output]


def disk_full_message(error: BaseException, paths: list[Path]) -> str | None:
    """'no space left on <folder> (...)' for a full disk (or quota), else None.

    Recognised: OSError ENOSPC/EDQUOT, any error that says "No space left on device", and an
    unspecific write error ("iostream error") while a folder the job writes to has almost no
    free space left.
    """
    text = str(error)
    full = (
        (isinstance(error, OSError) and error.errno in DISK_FULL_ERRNOS)
        or "No space left on device" in text
        or "Disk quota exceeded" in text
    )
    candidates = []
    if isinstance(error, OSError) and error.filename:
        candidates.append(Path(error.filename))
    candidates += paths
    if not full:
        if "iostream error" not in text and not isinstance(error, OSError):
            return None
        low = [p for p in candidates if _free_bytes(p) is not None and _free_bytes(p) < LOW_SPACE_BYTES]
        if not low:
            return None
        candidates = low
    # The error's own file, else the fullest of the places the job writes to (the cache may
    # live on another filesystem than results/).
    named = [Path(error.filename)] if full and isinstance(error, OSError) and error.filename else []
    known = [p for p in named or candidates if _existing_folder(p) is not None]
    where = min(known, key=lambda p: _free_bytes(p) or 0) if known else Path.cwd()
    folder = _existing_folder(where) or Path.cwd()
    free = _free_bytes(folder)
    free_text = f", {free / 2**20:.0f} MB free" if free is not None else ""
    return (
        f"no space left on {_mount_point(folder)} (writing {where}{free_text}); "
        "free some space there and rerun"
    )


def _existing_folder(path: Path) -> Path | None:
    path = Path(path).absolute()
    for candidate in (path, *path.parents):
        if candidate.is_dir():
            return candidate
    return None


def _free_bytes(path: Path) -> int | None:
    folder = _existing_folder(path)
    try:
        return shutil.disk_usage(folder).free if folder else None
    except OSError:
        return None


def _mount_point(folder: Path) -> Path:
    folder = Path(folder).absolute()
    while not os.path.ismount(folder) and folder != folder.parent:
        folder = folder.parent
    return folder
