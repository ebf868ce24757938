"""What every thin workflow script shares: logging to the rule's log, one-line errors, thread caps."""

from __future__ import annotations

import contextlib
import logging
import os
import sys

from papertopics.errors import PapertopicsError

THREAD_VARIABLES = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "NUMBA_NUM_THREADS")


@contextlib.contextmanager
def script_run(snakemake):
    """Log to the rule's log file and stderr; turn a PapertopicsError into one line and exit 1.

    Snakemake deletes the outputs of a failed job, so nothing half-written survives.
    """
    threads = str(max(1, int(getattr(snakemake, "threads", 1) or 1)))
    for variable in THREAD_VARIABLES:
        os.environ[variable] = threads
    log_path = snakemake.log[0] if len(snakemake.log) else None
    handlers: list[logging.Handler] = [logging.StreamHandler(sys.stderr)]
    if log_path:
        handlers.append(logging.FileHandler(log_path, mode="w", encoding="utf-8"))
    logging.basicConfig(
        level=logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        handlers=handlers,
        force=True,
    )
    logging.captureWarnings(True)
    log = logging.getLogger(snakemake.rule)
    try:
        yield log
    except PapertopicsError as error:
        # One line on the terminal (not a log record as well), the same line in the rule's log.
        line = f"papertopics error: {error}"
        if log_path:
            with open(log_path, "a", encoding="utf-8") as handle:
                handle.write(line + "\n")
        print(line, file=sys.stderr, flush=True)
        raise SystemExit(1) from None
