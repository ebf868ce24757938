"""Light jobs run their script inside Snakemake's own process.

A tweak reruns cluster_documents -> fit_topics -> evaluate_topics -> render_report, each under a
second of work on 3,582 abstracts. As `script:` jobs each first started Python and imported
pandas, scipy and scikit-learn again: 1-2.5 s per job, most of a tweak. Rules whose work is that
light call `run_script` from a one-line `run:` block instead. With Snakemake's
`--force-use-threads` (profiles/default; Snakemake adds it to every cluster job) the block runs
in a thread of Snakemake's process, so a library is imported once per run. Without it Snakemake
spawns one process per `run:` job: slower, same results.

The script file is unchanged and reads the same `snakemake` object; `scripting.script_run`
notices the thread and logs to the rule's log without touching process-wide state.
"""

from __future__ import annotations

import runpy
import threading
from pathlib import Path

_job = threading.local()


def in_process() -> bool:
    """True inside `run_script` (in this thread): the job shares Snakemake's process."""
    return getattr(_job, "active", False)


def run_script(script, input, output, params, wildcards, threads, resources, log, rule, config) -> None:
    """Run a workflow script as `script:` would, in this process: `snakemake` is the same object.

    The arguments are the names a `run:` block sees, in the order of `snakemake.script`'s object.
    """
    from snakemake.iocontainers import Snakemake

    script = Path(script)
    snakemake = Snakemake(
        input, output, params, wildcards, threads, resources, log, config, rule, None, str(script.parent)
    )
    from papertopics.scripting import JobFailed

    _job.active = True
    try:
        runpy.run_path(str(script), init_globals={"snakemake": snakemake}, run_name="__main__")
    except JobFailed as failed:
        # bad input, already said in one line: Snakemake repeats it without the script's frames
        raise JobFailed(*failed.args) from None
    finally:
        _job.active = False
