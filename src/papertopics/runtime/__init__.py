"""The workflow's runtime, not modelling: what runs around the jobs rather than inside a stage.

`scripting` wraps each script (logging, one-line errors), `inprocess` runs light jobs in
Snakemake's own process, `recovery` clears what an interrupted run left, `run_summary` prints a
run's closing lines, `environment` sets each job's thread variables. Nothing below imports this.
"""

from papertopics import lazy_exports

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "runtime_environment": "environment",
        "script_run": "scripting",
    },
)
__all__ = ["runtime_environment", "script_run"]
