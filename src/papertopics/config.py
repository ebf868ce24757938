"""config.yaml against its JSON schema, with errors a person can act on in one line.

Snakemake's validate() fills the defaults but reports a violation as a page of schema dump;
this check runs first and names the key path and what was expected.
"""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import yaml

from papertopics.errors import ConfigError

# Package data, so an installed (non-editable) papertopics validates too; common.smk uses it.
SCHEMA = Path(__file__).resolve().parent / "schemas" / "config.schema.yaml"


def load_schema(path: Path = SCHEMA) -> dict:
    return yaml.safe_load(Path(path).read_text(encoding="utf-8"))


def check_config(config: dict, schema: dict | None = None, source: str = "config") -> None:
    """Raise ConfigError naming the first violation's key path, e.g. `umap.n_neighbours`."""
    import jsonschema

    schema = schema or load_schema()
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(config), key=lambda e: (list(e.path), e.validator))
    if not errors:
        return
    error = jsonschema.exceptions.best_match(errors)
    raise ConfigError(f"{source}: {_describe(error)}")


def _key_path(parts) -> str:
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "(top level)"


def _expected(schema: dict) -> str:
    if "const" in schema:
        return repr(schema["const"])
    if "enum" in schema:
        return "one of " + ", ".join(map(repr, schema["enum"]))
    if "$ref" in schema:
        return "an integer >= 1 or 'auto'" if schema["$ref"].endswith("auto_int") else "a listing path or mapping"
    kind = schema.get("type", "a value")
    bounds = [f">= {schema['minimum']}" for _ in [0] if "minimum" in schema]
    bounds += [f"<= {schema['maximum']}" for _ in [0] if "maximum" in schema]
    bounds += [f"> {schema['exclusiveMinimum']}" for _ in [0] if "exclusiveMinimum" in schema]
    article = "an" if str(kind)[0] in "aeiou" else "a"
    return f"{article} {kind}" + (" " + " and ".join(bounds) if bounds else "")


def _describe(error) -> str:
    where = _key_path(error.absolute_path)
    value = error.instance
    if error.validator == "additionalProperties":
        allowed = ", ".join(sorted(error.schema.get("properties", {})))
        unknown = sorted(set(value) - set(error.schema.get("properties", {})))
        keys = ", ".join(repr(k) for k in unknown)
        prefix = f"{where}: " if error.absolute_path else ""
        return f"{prefix}unknown key {keys} (allowed: {allowed})"
    if error.validator == "required":
        return f"{where}: {error.message}"
    if error.validator in ("oneOf", "anyOf"):
        options = " or ".join(_expected(option) for option in error.validator_value)
        return f"{where}: expected {options}, got {value!r}"
    if error.validator in ("minimum", "maximum", "exclusiveMinimum", "minItems", "maxItems", "minLength"):
        return f"{where}: {error.message}"
    if error.validator == "enum":
        return f"{where}: expected one of {', '.join(map(repr, error.validator_value))}, got {value!r}"
    if error.validator == "type":
        return f"{where}: expected {error.validator_value}, got {value!r}"
    if error.validator == "pattern":
        hint = error.schema.get("description")
        return f"{where}: {value!r} " + (hint or f"does not match {error.validator_value}")
    return f"{where}: {error.message}"


def _defaults(schema: dict) -> Any:
    if schema.get("type") == "object" and "properties" in schema:
        return {key: _defaults(sub) for key, sub in schema["properties"].items()
                if "default" in sub or sub.get("type") == "object"}
    return copy.deepcopy(schema.get("default"))


def default_config(**overrides: Any) -> dict:
    """The schema's defaults (what a config naming only `listings` gets), sections overridden."""
    config = _defaults(load_schema())
    for section, values in overrides.items():
        config[section] = {**config[section], **values} if isinstance(values, dict) else values
    return config
