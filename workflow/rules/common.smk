# Config validation, listing discovery and the environment every job shares.
import os
import re
import sys
from pathlib import Path

from snakemake.exceptions import WorkflowError
from snakemake.utils import validate

sys.path.insert(0, str(Path(workflow.basedir) / "src"))

from papertopics.config import SCHEMA, check_config
from papertopics.errors import PapertopicsError
from papertopics.listings import resolve_listings
from papertopics.runtime import runtime_environment

CONFIG_SOURCE = ", ".join(map(str, workflow.overwrite_configfiles or ["config.yaml"]))
try:
    check_config(config, source=CONFIG_SOURCE)  # one line naming the key, before validate()'s dump
except PapertopicsError as error:
    sys.exit(f"papertopics error: {error}")
validate(config, schema=str(SCHEMA))  # fills every default from the package's schema

runtime_environment(Path(workflow.basedir))  # offline hub, numba's JIT cache (papertopics.runtime)

try:
    LISTINGS = {spec.name: spec for spec in resolve_listings(config["listings"], Path.cwd())}
except PapertopicsError as error:
    sys.exit(f"papertopics error: {error}")

# Wildcards only ever take listing names, never a path with a slash.
wildcard_constraints:
    listing="|".join(re.escape(name) for name in LISTINGS),
    shard=r"\d+",


def listing_path(wildcards):
    return str(LISTINGS[wildcards.listing].path)


def listing_spec(wildcards):
    spec = LISTINGS[wildcards.listing]
    return {
        "name": spec.name,
        "path": str(spec.path),
        "format": spec.format,
        "columns": dict(spec.columns),
    }


def embedding_shards(wildcards):
    """Shard files for the corpus at hand: known once build_corpus has run (a checkpoint)."""
    import json
    import math

    stats_path = checkpoints.build_corpus.get().output.stats
    n_documents = json.loads(Path(stats_path).read_text())["n_documents"]
    n_shards = max(1, math.ceil(n_documents / config["embedding"]["shard_size"]))
    return [f"results/embed/shards/{i}.parquet" for i in range(n_shards)]
