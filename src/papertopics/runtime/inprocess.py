"""Light jobs run their script inside Snakemake's own process.

A tweak reruns cluster_documents -> fit_topics -> evaluate_topics -> render_report, each under a
second of work on 3,582 abstracts. As `script:` jobs each first started Python and imported
pandas, scipy and scikit-learn again: 1-2.5 s per job, most of a tweak. Rules whose work is that
light call `run_script` from a one-line `run:` block instead. With Snakemake's
`--force-use-threads` (profiles/default; Snakemake adds it to every cluster job) the block runs
in a thread of Snakemake's process, so a library is imported once per run. Without it Snakemake
spawns one process per `run:` job: slower, same results.

The script file is unchanged (it is the rule's `script` input, so editing it reruns the job, as
under `script:`) and reads the same `snakemake` object; `scripting.script_run` notices the
thread and logs to the rule's log without touching process-wide state. What a thread cannot
do: Ctrl-C lets a running light job finish (seconds; ~25 s for fit_topics at 75k abstracts),
and the rule's benchmark file measures Snakemake's process with its children, so its memory
and CPU columns are an upper bound (the wall time is the job's).
"""

from __future__ import annotations

import threading
from pathlib import Path

_job = threading.local()


def in_process() -> bool:
    """True inside `run_script` (in this thread): the job shares Snakemake's process."""
    return getattr(_job, "active", False)


def run_script(input, output, params, wildcards, threads, resources, log, rule, config) -> None:
    """Run the rule's script (`input.script`) as `script:` would, in this process.

    The arguments are the names a `run:` block sees. BLAS pools are capped at the rule's
    threads while it runs, as Snakemake's environment variables cap a `script:` job.
    """
    from snakemake.iocontainers import Snakemake
    from threadpoolctl import threadpool_limits

    from papertopics.runtime.scripting import JobFailed

    script = Path(input.script)
    snakemake = Snakemake(
        input, output, params, wildcards, threads, resources, log, config, rule, None, str(script.parent)
    )
    # exec, not runpy: runpy swaps sys.modules["__main__"] and sys.argv[0] for the whole
    # process, and two overlapping jobs would restore each other's.
    code = compile(script.read_text(encoding="utf-8"), str(script), "exec")
    namespace = {"__name__": f"papertopics_job_{rule}", "__file__": str(script), "snakemake": snakemake}
    _job.active = True
    try:
        with threadpool_limits(limits=max(1, int(threads or 1))):
            exec(code, namespace)  # noqa: S102 - the workflow's own script, as Snakemake runs it
    except JobFailed as failed:
        # bad input, already said in one line: Snakemake repeats it without the script's frames
        raise JobFailed(*failed.args) from None
    except SystemExit as stop:  # would escape Snakemake's job callback and hang the run
        raise JobFailed(f"papertopics error: {rule} exited with status {stop.code}") from None
    finally:
        _job.active = False
