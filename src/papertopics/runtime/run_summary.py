"""The last lines of a run: what came out (success) or the one-line errors again (failure).

Snakemake ends a run with its own log path, or with ~70 lines ending in "At least one job did
not complete successfully"; the Snakefile's onsuccess/onerror hooks print these lines after
Snakemake's (at interpreter exit), so they are what the user reads last.
"""

from __future__ import annotations

import atexit
import json
import os
import sys
from pathlib import Path

ERROR_PREFIX = "papertopics error:"


def error_lines(failed: dict[str, list[str]]) -> list[str]:
    """One line per failed job: its `papertopics error:` lines, else its log's last line.

    `failed` maps a job's name to its log files. A job that died without a papertopics error
    (a traceback, a kill) gets its last log line and the log's path, so the cause is one look away.
    """
    lines: list[str] = []
    for job, logs in failed.items():
        found, last, where = [], "", None
        for path in logs:
            try:
                text = Path(path).read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            found += [line.strip() for line in text.splitlines() if line.startswith(ERROR_PREFIX)]
            tail = [line.strip() for line in text.splitlines() if line.strip()]
            if tail:
                last, where = tail[-1], path
        if found:
            lines += [line for line in found if line not in lines]
        elif last:
            lines.append(f"{ERROR_PREFIX} {job} failed: {last[:300]} (log: {where})")
        else:
            lines.append(
                f"{ERROR_PREFIX} {job} failed; see the Snakemake output above "
                f"({', '.join(map(str, logs)) or 'no log'})"
            )
    return lines


def success_lines(metrics_path: str | Path, report_index: str | Path) -> list[str]:
    """Two lines: topics and outlier share from metrics.json, then where the report is."""
    report_index = Path(report_index)
    try:
        metrics = json.loads(Path(metrics_path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    n_docs, n_topics = metrics.get("n_documents"), metrics.get("n_topics")
    share = metrics.get("outlier_share") or 0.0
    listings = metrics.get("n_listings")
    summary = (
        f"papertopics: {n_topics} topic{'s' if n_topics != 1 else ''} in {n_docs} documents"
        + (f" from {listings} listing{'s' if listings != 1 else ''}" if listings else "")
        + f"; {share:.0%} outliers"
    )
    lines = [summary]
    if report_index.exists():
        lines.append(f"papertopics: report: {os.path.abspath(report_index)}")
    return lines


def cancel_scheduler_timers() -> int:
    """Cancel Snakemake's pending scheduler wake-ups once the run is over; returns how many.

    Snakemake's job scheduler (with its default job rate limit, 100 jobs per 1 s) re-arms a
    non-daemon `threading.Timer` of one timespan after every pass, only to wake itself again.
    When the last job is done the last timer is still pending, and Python waits for it before
    exiting: up to 1 s added to every run that ran a job (a report tweak, 5.5 s). Called from
    onsuccess/onerror, after scheduling has ended, so no wake-up can matter any more.
    """
    import threading

    timers = [
        thread
        for thread in threading.enumerate()
        if isinstance(thread, threading.Timer)
        and getattr(getattr(thread, "function", None), "__module__", "").startswith("snakemake.scheduling")
    ]
    for timer in timers:
        timer.cancel()
    return len(timers)


def at_exit_print(lines: list[str], unless=lambda: False) -> None:
    """Print lines to stderr when the interpreter exits: after Snakemake's closing lines."""

    def emit():
        if lines and not unless():
            sys.stdout.flush()
            print("\n".join(lines), file=sys.stderr, flush=True)

    atexit.register(emit)
