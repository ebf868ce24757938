"""`papertopics run --config KEY=VALUE`: the values, checked, and the config file that carries them."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from papertopics.errors import CliError

CLI_CONFIG = Path(".snakemake") / "papertopics" / "cli-config.yaml"


def parse_overrides(pairs: Sequence[str]) -> dict:
    """`KEY=VALUE` pairs, KEY dotted for a section's key (`umap.n_neighbors=10`), VALUE in YAML."""
    import yaml

    from papertopics.config import StrictLoader

    overrides: dict = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        parts = key.strip().split(".")
        if not eq or not all(parts):
            raise CliError(f"--config {pair!r}: expected KEY=VALUE (random_state=7, umap.n_neighbors=10)")
        try:  # as config.yaml reads it: 0x1F, 5_0 or 012 are refused, named for what they are
            parsed = yaml.load(value, Loader=StrictLoader) if value.strip() else None
        except yaml.constructor.ConstructorError as e:
            raise CliError(f"--config {pair!r}: {' '.join(str(e.problem).split())}") from None
        except yaml.YAMLError as e:
            raise CliError(f"--config {pair!r}: value is not YAML ({' '.join(str(e).split())})") from None
        node = overrides
        for part in parts[:-1]:
            node = node.setdefault(part, {})
            if not isinstance(node, dict):
                raise CliError(f"--config {pair!r}: {part} is given a value and keys")
        node[parts[-1]] = parsed
    if overrides:
        from papertopics.config import check_config

        check_config(overrides, source="--config", partial=True)
    return overrides


def write_overrides(folder: Path, overrides: dict, own: bool = False) -> Path:
    """The --config values as a config file on top of config.yaml (typed by YAML, merged per key).

    own: a file of this process's own (removed after it), for a dry run beside a live run,
    whose --config file stays as it is.
    """
    import yaml

    from papertopics.artifacts import atomic_write_text

    path = folder / CLI_CONFIG
    if own:
        path = path.with_name(f"{path.stem}.{os.getpid()}{path.suffix}")
    header = "# --config of the last `papertopics run` (rewritten by each run)\n"
    atomic_write_text(path, header + yaml.safe_dump(overrides))
    return path
