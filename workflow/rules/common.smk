# Config validation and the input functions the rules share (the run's lifecycle: lifecycle.smk).
import re
import sys
from dataclasses import replace
from pathlib import Path

from snakemake.utils import validate

from papertopics.config import SCHEMA, check_config_files, read_config_file
from papertopics.errors import ConfigError, PapertopicsError
from papertopics.ingest.listings import listing_fingerprint, relative_to_folder, resolve_listings
from papertopics.runtime.environment import runtime_environment
from papertopics.runtime.closure import code_version, package_root, script_modules
from papertopics.runtime.inprocess import run_job
from papertopics.runtime.recovery import refuse_listings_in_results, runs_jobs


def load_config_files():
    """The folder's config.yaml (what `configfile:` would load), then any --configfile."""
    own = Path.cwd() / "config.yaml"
    given = [Path(f) for f in workflow.overwrite_configfiles or []]
    if own.is_file() and not any(f.is_file() and f.samefile(own) for f in given):
        read_config_file(own)  # a YAML syntax error names the file and line
        workflow.configfile(str(own))
        return [own, *given]
    if not given:
        raise ConfigError(
            f"no config.yaml in {Path.cwd()}; run with --directory FOLDER, a "
            f"folder holding a config.yaml that names its listings"
        )
    return given


try:
    CONFIG_FILES = load_config_files()
    # one line naming the file and key, before validate()'s dump
    check_config_files(CONFIG_FILES, config, overrides=dict(workflow.config_settings.config))
except PapertopicsError as error:
    sys.exit(f"papertopics error: {error}")
validate(config, schema=str(SCHEMA))  # fills every default from the package's schema

runtime_environment(Path(workflow.basedir))  # offline hub, numba JIT cache (runtime.environment)

# Paths under the folder are kept relative to it (listings, and the job modules when the folder is
# the repository): a moved or copied folder shows Snakemake the same inputs and params, and
# reruns nothing. A listing is known by its content (listing_content below), not its path.
try:
    LISTINGS = {
        spec.name: replace(spec, path=relative_to_folder(spec.path, Path.cwd()))
        for spec in resolve_listings(config["listings"], Path.cwd())
    }
    refuse_listings_in_results([spec.path for spec in LISTINGS.values()], Path.cwd())
except PapertopicsError as error:
    sys.exit(f"papertopics error: {error}")


def job_module(name):
    """A light job's (`run:`, runtime.inprocess) `code` param: a digest of the package modules
    importing `name` runs, the package data they read and the versions of the libraries that shape
    their output (runtime.closure.code_version): a change to any reruns the job; a moved folder
    reruns nothing. Found, not imported: parsing this file stays quick."""
    return _code_param(name, [name])


def script_code(script):
    """A `script:` job's `code` param: the same for the package modules workflow/scripts/<script>.py
    imports (Snakemake itself reruns the job when the script changes)."""
    path = Path(workflow.basedir) / "workflow" / "scripts" / f"{script}.py"
    return _code_param(f"scripts.{script}", script_modules(path))


def package_files(name, patterns):
    """Package files that are not modules (`report/templates/*.html`), digested as code is."""
    root = package_root()
    return _code_param(name, [], sorted({path for pattern in patterns for path in root.glob(pattern)}))


_CODE_CHANGED = {}  # what changed since the last run here, as the rules name it (in order)
# Only a command that runs jobs records what they ran with: a dry run says what changed and
# plans the reruns as often as it is run (runtime.closure.code_version).
_RECORD_CODE = workflow.is_main_process and runs_jobs(sys.argv)


def _code_param(name, modules, files=()):
    digest, changed, damaged = code_version(name, modules, Path.cwd(), files, record=_RECORD_CODE)
    if damaged:
        print(f"papertopics: {damaged}", file=sys.stderr)
    _CODE_CHANGED.update(dict.fromkeys(changed))
    return digest


def say_code_changes():
    """The one line naming what changed, once every rule has its code param (the Snakefile's end)."""
    if _CODE_CHANGED:
        print(
            "papertopics: package files or libraries changed since the last run here: "
            f"{', '.join(_CODE_CHANGED)}; the jobs that use them rerun",
            file=sys.stderr,
        )


# Wildcards only ever take listing names, never a path with a slash.
wildcard_constraints:
    listing="|".join(re.escape(name) for name in LISTINGS),
    shard=r"\d+",
    seed=r"\d+",


def n_documents():
    """Documents in the corpus: known once build_corpus has run (a checkpoint)."""
    import json

    stats_path = checkpoints.build_corpus.get().output.stats
    return json.loads(Path(stats_path).read_text())["n_documents"]
