"""The last lines of a run: what came out (success) or the one-line errors again (failure).

Snakemake ends a run with its own log path, or with ~70 lines ending in "At least one job did
not complete successfully"; the Snakefile's onsuccess/onerror handlers (documented: they run once
the workflow has finished, never for a dry run) print these lines after Snakemake's (at
interpreter exit), so they are what the user reads last. The failed jobs are read from the
complete Snakemake log the handlers are given (its "Error in rule ..." entries), their one-line
errors from their own logs.
"""

from __future__ import annotations

import atexit
import json
import os
import re
import sys
from pathlib import Path

ERROR_PREFIX = "papertopics error:"
WARNING_PREFIX = "papertopics warning:"
MAX_WARNINGS = 20
# script_run's log format: "2026-12-03 18:05:29,105 WARNING parse_listing: text"
_RE_WARNING = re.compile(r"^\S+ \S+ WARNING (\S+): (.*)$")


# What Snakemake logs when Ctrl-C (SIGINT) stops its scheduler (9.27, scheduling/job_scheduler.py)
USER_STOP = "Terminating processes on user request"


class FailedJobs(dict):
    """failed_jobs' answer: job name -> log files, and whether the user stopped the run."""

    interrupted: bool = False


def interrupted_line(failed: dict) -> str:
    stopped = ", ".join(name.split(" ")[0] for name in failed) if failed else ""
    return (
        "papertopics: interrupted (Ctrl-C)"
        + (f" while {stopped} ran" if stopped else "")
        + "; rerun the same command to finish (the steps already done are kept)"
    )


def error_lines(failed: dict[str, list[str]]) -> list[str]:
    """One line per failed job: its `papertopics error:` lines, else its log's last line.

    `failed` maps a job's name to its log files. A job that died without a papertopics error
    (a traceback, a kill) gets its last log line and the log's path, so the cause is one look away.
    A run the user stopped (Ctrl-C: failed_jobs saw Snakemake's line for it, or a job's log ends
    in KeyboardInterrupt) is one line saying so, not its jobs as failures.
    """
    if getattr(failed, "interrupted", False) or any(
        _last_line(logs) == "KeyboardInterrupt" for logs in failed.values()
    ):
        return [interrupted_line(failed)]
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


def _last_line(logs: list[str]) -> str:
    for path in reversed(list(logs)):
        try:
            text = Path(path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        tail = [line.strip() for line in text.splitlines() if line.strip()]
        if tail:
            return tail[-1]
    return ""


def success_lines(
    metrics_path: str | Path, report_index: str | Path, stopped_early: str | None = None
) -> list[str]:
    """Two lines: topics and outlier share from metrics.json, then where the report is.

    stopped_early: the option that cut the run short (`--until fit_topics`): metrics.json and
    the report may then be an earlier run's, so one line says so instead of quoting them.
    """
    if stopped_early:
        return [
            f"papertopics: stopped early as asked ({stopped_early}): {metrics_path} and the "
            f"report are not brought up to date; run without {stopped_early.split()[0]} to finish"
        ]
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


def failed_jobs(snakemake_logs: str | list[str]) -> FailedJobs:
    """The failed jobs in a complete Snakemake log (the `log` an onerror handler gets: a path,
    or a list of paths since Snakemake 8): each "Error in rule NAME:" entry's name, wildcards and
    log files, as error_lines reads them."""
    paths = [snakemake_logs] if isinstance(snakemake_logs, str | os.PathLike) else list(snakemake_logs or [])
    failed = FailedJobs()
    for path in paths:
        try:
            text = Path(path).read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        failed.interrupted = failed.interrupted or USER_STOP in text
        for entry in re.finditer(r"^Error in rule (\S+):\n((?:[ \t]+.*\n?)*)", text, re.M):
            fields = dict(re.findall(r"^\s+(\w+): (.*)$", entry.group(2), re.M))
            name = entry.group(1) + (f" {fields['wildcards']}" if fields.get("wildcards") else "")
            logs = fields.get("log", "").split(" (check log file")[0]
            failed[name] = [log.strip() for log in logs.split(",") if log.strip()]
    return failed


def release_exit() -> int:
    """Cancel the pending `threading.Timer`s Snakemake left behind once its run is over; returns
    how many.

    Snakemake's job scheduler (with its default job rate limit, 100 jobs per 1 s) re-arms a
    1 s timer after every scheduling pass, only to wake itself again; when the last job is done
    the last one is still pending, and Python waits for it before exiting: 1.0 s added to every
    run that ran a job (Snakemake 9.27; a report tweak takes 5.5 s). `--max-jobs-per-timespan`
    cannot shorten it (its smallest timespan is 1 s: "ms" reads as minutes). Called from the
    onsuccess/onerror handlers, which Snakemake runs after the workflow finished, so no wake-up
    can matter any more. Only Python's documented Timer API is used; timers whose callback is
    not Snakemake's own (a library's) are left alone.
    """
    import threading

    timers = [
        thread
        for thread in threading.enumerate()
        if isinstance(thread, threading.Timer)
        and getattr(getattr(thread, "function", None), "__module__", "").partition(".")[0] == "snakemake"
    ]
    for timer in timers:
        timer.cancel()
    return len(timers)


def at_exit_print(lines: list[str]) -> None:
    """Print lines to stderr when the interpreter exits: after Snakemake's closing lines."""

    def emit():
        if lines:
            sys.stdout.flush()
            print("\n".join(lines), file=sys.stderr, flush=True)

    atexit.register(emit)


def stopped_early(dag_settings) -> str | None:
    """`--until RULE` or `--omit-from RULE` when the run was cut short so, else None."""
    for option, values in (
        ("--until", getattr(dag_settings, "until", None)),
        ("--omit-from", getattr(dag_settings, "omit_from", None)),
    ):
        if values:
            return f"{option} {' '.join(sorted(map(str, values)))}"
    return None


def warning_lines(log_root: str | Path, since: float) -> list[str]:
    """Our warnings (papertopics', the scripts', ListingWarning) from the logs of the jobs this
    run ran, once each, so that one printed mid-run among Snakemake's lines is read at the end.
    Library warnings stay in the logs."""
    lines: list[str] = []
    try:
        logs = sorted(p for p in Path(log_root).rglob("*.log") if p.stat().st_mtime >= since)
    except OSError:
        return []
    for path in logs:
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        for line in text.splitlines():
            match = _RE_WARNING.match(line)
            if not match:
                continue
            name, message = match.groups()
            ours = (
                name.startswith("papertopics")
                or (name == "py.warnings" and message.startswith("ListingWarning:"))
                or ("." not in name and name not in ("py.warnings", "root"))  # a script's own logger
            )
            line = f"{WARNING_PREFIX} {message.removeprefix('ListingWarning: ')}"
            if ours and line not in lines:
                lines.append(line)
    if len(lines) > MAX_WARNINGS:
        extra = len(lines) - MAX_WARNINGS
        lines = lines[:MAX_WARNINGS] + [f"{WARNING_PREFIX} ... and {extra} more in {log_root}"]
    return lines
