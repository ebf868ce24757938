"""Light jobs run in Snakemake's own process, from a `run:` block that calls one package function.

A tweak reruns cluster_documents -> fit_topics -> evaluate_topics -> render_report, each under a
second of work on 3,582 abstracts. As `script:` jobs each first started Python and imported
pandas, scipy and scikit-learn again: 1-2.5 s per job, most of a tweak. Rules whose work is that
light use Snakemake's plain-Python rules instead (`run:`, documented to see input, output,
params, threads and log): the block imports the rule's job function (`<rule>_job`, beside the
code it drives, e.g. `papertopics.cluster.stage.cluster_documents_job`) and hands it to `run_job`.
With Snakemake's `--force-use-threads` (profiles/default; Snakemake adds it to every cluster
job) the block runs in a thread of Snakemake's process, so a library is imported once per run.
Without it Snakemake spawns one process per `run:` job: slower, same results.

The rule's `code` input is the import closure of the module holding the job function
(common.smk's `job_module`, runtime.closure), so editing it or any package module it calls reruns
the job. `scripting.script_run` notices the thread and logs to the rule's log
without touching process-wide state. What a thread cannot do: Ctrl-C lets a running light job
finish (seconds; ~25 s for fit_topics at 75k abstracts), and the rule's benchmark file measures
Snakemake's process with its children, so its memory and CPU columns are an upper bound (the
wall time is the job's).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from papertopics.runtime.scripting import JOB_THREAD, JobFailed, in_process, script_run

__all__ = ["Job", "in_process", "run_job"]


@dataclass(frozen=True)
class Job:
    """What a light job's function reads: the names a `run:` block sees, as a script's
    `snakemake` object has them (`job.input.corpus`, `job.params.hdbscan`, `job.threads`)."""

    rule: str
    input: Any
    output: Any
    params: Any
    threads: int
    log: Sequence[str]


def run_job(function: Callable[[Job, logging.Logger], None], input, output, params, threads, log) -> None:
    """Run `function(job, log)` for the rule `<name>_job` names, as a `script:` job would run.

    The arguments after the function are the names a `run:` block sees. The job logs to the
    rule's log (`scripting.script_run`); BLAS pools are capped at the rule's threads while it
    runs, as Snakemake's environment variables cap a `script:` job; bad input raises
    `JobFailed` with its one line, which fails the job, never Snakemake's process.
    """
    # numpy's and scipy's BLAS loaded first: threadpoolctl caps only the pools already loaded,
    # and a run's first light job may be the first to import them in Snakemake's process
    import numpy  # noqa: F401
    import scipy.linalg  # noqa: F401
    from threadpoolctl import threadpool_limits

    rule = function.__name__.removesuffix("_job")
    threads = max(1, int(threads or 1))
    job = Job(rule=rule, input=input, output=output, params=params, threads=threads, log=log)
    JOB_THREAD.active = True
    try:
        with threadpool_limits(limits=threads), script_run(job) as logger:
            function(job, logger)
    except JobFailed as failed:
        # bad input, already said in one line: Snakemake repeats it without the job's frames
        raise JobFailed(*failed.args) from None
    except SystemExit as stop:  # would escape Snakemake's job thread and hang the run
        raise JobFailed(f"papertopics error: {rule} exited with status {stop.code}") from None
    finally:
        JOB_THREAD.active = False
