# Config validation and the input functions the rules share (the run's lifecycle: lifecycle.smk).
import re
import sys
from dataclasses import replace
from pathlib import Path

from snakemake.exceptions import WorkflowError
from snakemake.utils import validate

from papertopics.config import SCHEMA, check_config_files, read_config_file
from papertopics.errors import ConfigError, PapertopicsError
from papertopics.ingest.listings import listing_fingerprint, relative_to_folder, resolve_listings
from papertopics.runtime.environment import runtime_environment
from papertopics.runtime.closure import code_manifest, package_root, script_modules
from papertopics.runtime.inprocess import run_job
from papertopics.runtime.recovery import refuse_listings_in_results


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
    """A light job's code input (`run:` blocks, runtime.inprocess): a file of hashes of the package
    modules importing `name` runs (runtime.closure.code_manifest), rewritten when one of them
    changes, so editing any of them reruns the job, as upgrading papertopics does. Found, not
    imported: parsing this file stays quick."""
    return _code_input(name, [name])


def script_code(script):
    """A `script:` job's code input: the same for the package modules workflow/scripts/<script>.py
    imports (Snakemake itself reruns the job when the script changes)."""
    path = Path(workflow.basedir) / "workflow" / "scripts" / f"{script}.py"
    return _code_input(f"scripts.{script}", script_modules(path))


def package_files(name, patterns):
    """Package files that are not modules (`report/templates/*.html`) as a rule's input: one
    file of their content hashes, as for code, so an edit reruns the job and a move does not."""
    root = package_root()
    return _code_input(name, [], sorted({path for pattern in patterns for path in root.glob(pattern)}))


_CODE_SAID = set()


def _code_input(name, modules, files=()):
    path, changed = code_manifest(name, modules, Path.cwd(), files)
    new = [module for module in changed if module not in _CODE_SAID]
    if new:
        _CODE_SAID.update(new)
        print(
            f"papertopics: package files changed since the last run here: {', '.join(new)}; "
            f"the jobs that use them rerun",
            file=sys.stderr,
        )
    return str(path)


# Wildcards only ever take listing names, never a path with a slash.
wildcard_constraints:
    listing="|".join(re.escape(name) for name in LISTINGS),
    shard=r"\d+",
    seed=r"\d+",


def listing_path(wildcards):
    """The listing file as input; none where its path has braces, which Snakemake would read
    as wildcards (`papers {v2}.txt`): the content hash in params reruns it then."""
    path = str(LISTINGS[wildcards.listing].path)
    return [] if "{" in path or "}" in path else path


def listing_content(wildcards):
    """The listing's content hash (cached by size, mtime, ctime and inode under .snakemake/)."""
    return listing_fingerprint(
        LISTINGS[wildcards.listing].path, Path(".snakemake/papertopics/listing-hashes.json")
    )


def listing_spec(wildcards):
    spec = LISTINGS[wildcards.listing]
    return {
        "name": spec.name,
        "path": str(spec.path),
        "format": spec.format,
        "columns": dict(spec.columns),
        "sheet": spec.sheet,
    }


def n_documents():
    """Documents in the corpus: known once build_corpus has run (a checkpoint)."""
    import json

    stats_path = checkpoints.build_corpus.get().output.stats
    return json.loads(Path(stats_path).read_text())["n_documents"]


def stability_refits(wildcards):
    """One refit file per seed (none when the corpus is clustered by Ward, which has no seed)."""
    from papertopics.params import refit_seeds, resolve_method

    n = n_documents()
    evaluation = config["evaluation"]
    seeds = refit_seeds(
        n,
        evaluation["stability_runs"],
        evaluation["stability_sample"],
        config["random_state"],
        resolve_method(config["clustering"], n),
    )
    return [f"results/evaluation/refits/{seed}.parquet" for seed in seeds]


def embedding_shards(wildcards):
    """Shard files for the corpus at hand: known once build_corpus has run (a checkpoint)."""
    from papertopics.params import embedding_shard_count

    n_shards = embedding_shard_count(n_documents(), config["embedding"]["shard_size"])
    return [f"results/embed/shards/{i}.parquet" for i in range(n_shards)]


def embedding_threads(wildcards):
    """embedding.threads for this corpus (`auto`: papertopics.params.resolve_embedding_threads)."""
    import os

    from papertopics.params import resolve_embedding_threads

    cpus = None
    if workflow.local_exec:  # a cluster gives every job its own CPUs
        try:
            cpus = min(workflow.cores, os.cpu_count() or workflow.cores)
        except WorkflowError:  # no --cores (a dry run): as on a cluster
            pass
    n_shards = len(embedding_shards(wildcards))
    return resolve_embedding_threads(config["embedding"]["threads"], n_shards, cpus)
