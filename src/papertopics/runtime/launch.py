"""Calling Snakemake for the `papertopics` command: the workflow it runs, its profile, the call.

The workflow is found beside the installed package (`workflow_root`): the repository for an
editable install, `papertopics/_workflow/` (copied in by setup.py) for a wheel. Snakemake runs
through its own command line (snakemake.cli.main) in this process, as the `snakemake` command.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from pathlib import Path

import papertopics
from papertopics.errors import CliError


def workflow_root() -> Path:
    """The folder holding the Snakefile, workflow/ and profiles/ this papertopics runs.

    A wheel carries them as package data in `papertopics/_workflow/` (setup.py copies them at
    build time); an editable install or a checkout (PYTHONPATH=src) uses the repository's own.
    """
    package = Path(papertopics.__file__).resolve().parent
    for root in (package / "_workflow", *package.parents[:2]):
        if (root / "Snakefile").is_file() and (root / "workflow" / "rules" / "common.smk").is_file():
            return root
    raise CliError(
        f"the papertopics workflow (Snakefile, workflow/) is neither in {package / '_workflow'} nor in "
        f"the repository above {package}; reinstall papertopics"
    )


PROFILE_OPTIONS = ("--profile", "--workflow-profile")


def profile_options(folder: Path, root: Path, snakemake_args: Sequence[str]) -> list[str]:
    """The package's own profile (profiles/default beside the Snakefile), named explicitly:
    Snakemake would otherwise read a profiles/default/ of the corpus folder first, and a user's
    own one there would replace it (drop rerun-incomplete, or fail on its unknown keys). A
    --profile or --workflow-profile after `--` is the user's choice and is left as given."""
    if any(arg.split("=")[0] in PROFILE_OPTIONS for arg in snakemake_args):
        return []
    package = root / "profiles" / "default"
    own = folder / "profiles" / "default"
    if own.is_dir() and own.resolve() != package.resolve():
        print(
            f"papertopics: runs with its own profile {package}, not {own} (to use that one: "
            f"papertopics run -- --workflow-profile {own})",
            file=sys.stderr,
        )
    return ["--workflow-profile", str(package)] if (package / "config.yaml").is_file() else []


def run_snakemake(argv: list[str], folder: Path, root: Path) -> int:
    """Snakemake's own command line in this process, as the `snakemake` command runs it."""
    from papertopics.runtime import runtime_environment
    from papertopics.runtime.run_summary import interrupted_line

    runtime_environment(root)
    from snakemake.cli import main as snakemake_main

    os.chdir(folder)  # Snakemake looks for profiles/ in the working folder first, as in the repository
    # the Snakefile reads the command line as Snakemake's (recovery.runs_jobs: no recovery in a
    # dry run; a live run's advice names the snakemake command)
    saved, sys.argv = sys.argv, ["snakemake", *argv]
    try:
        snakemake_main(argv)
    except KeyboardInterrupt:  # Ctrl-C before Snakemake's scheduler ran (it reports its own)
        print(interrupted_line({}), file=sys.stderr, flush=True)
        return 130
    except SystemExit as done:
        code = done.code
        if isinstance(code, int):
            return code
        if code is None:
            return 0
        # the Snakefile's one line (`sys.exit("papertopics error: ...")`): Python prints it when
        # plain `snakemake` exits with it; here the command prints it, then returns 1
        print(code, file=sys.stderr, flush=True)
        return 1
    finally:
        sys.argv = saved
    return 0
