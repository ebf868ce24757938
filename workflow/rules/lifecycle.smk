# The run's lifecycle around the jobs: recovery from an interrupted run at the start, the
# closing lines at the end (papertopics.runtime.recovery and run_summary). Included right after
# common.smk, so it runs once the config is read and before any rule is built.
import sys
import time
from pathlib import Path

from papertopics.runtime.recovery import recover, runs_jobs
from papertopics.runtime.run_summary import (
    at_exit_print,
    error_lines,
    failed_jobs,
    release_exit,
    stopped_early,
    success_lines,
    warning_lines,
)

# A plain rerun recovers from kill -9, a swallowed Ctrl-C or a full disk: stale locks and damaged
# intermediates go (profiles/default adds rerun-incomplete). Only for a command that runs jobs
# (not -n, --lint, --report, ...; papertopics.runtime.recovery.runs_jobs), and not in cluster jobs: they
# re-read this file while their run is alive.
if workflow.is_main_process and runs_jobs(sys.argv):
    LIVE_RUN = recover(Path.cwd(), say=lambda line: print(line, file=sys.stderr))
    if LIVE_RUN:  # Snakemake refuses the lock next and suggests --unlock: say what to do instead
        at_exit_print([LIVE_RUN.advice(Path.cwd(), sys.argv)])

RUN_STARTED = time.time()  # warning_lines: the logs of the jobs this run ran


# The last lines a user reads: the outcome and the report's path, or the one-line errors again
# (printed at exit, after Snakemake's own closing lines). `log` is Snakemake's complete log.
onsuccess:
    release_exit()  # else Python waits 1 s for the scheduler's last wake-up (run_summary)
    at_exit_print(
        warning_lines("results/logs", RUN_STARTED)
        + success_lines(
            "results/metrics.json",
            "results/report/index.html",
            stopped_early(workflow.dag_settings),
        )
    )


onerror:
    release_exit()
    at_exit_print(warning_lines("results/logs", RUN_STARTED) + error_lines(failed_jobs(log)))
