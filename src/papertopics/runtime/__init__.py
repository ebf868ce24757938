"""The workflow's runtime, not modelling: what runs around the jobs rather than inside a stage.

`scripting` wraps each script (logging, one-line errors), `inprocess` runs light jobs in
Snakemake's own process, `recovery` clears what an interrupted run left, `run_summary` prints a
run's closing lines, `environment` sets each job's thread variables. Nothing below imports this.
"""

from papertopics.runtime.environment import runtime_environment
from papertopics.runtime.scripting import script_run

__all__ = ["runtime_environment", "script_run"]
