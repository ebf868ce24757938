"""config.yaml against its JSON schema, with errors a person can act on in one line.

Snakemake's validate() fills the defaults but reports a violation as a page of schema dump;
this check runs first and names the key path and what was expected.
"""

from __future__ import annotations

import copy
import functools
import math
import re
from pathlib import Path
from typing import Any

import yaml

from papertopics.errors import ConfigError

# Package data, so an installed (non-editable) papertopics validates too; common.smk uses it.
SCHEMA = Path(__file__).resolve().parent / "schemas" / "config.schema.yaml"


def load_schema(path: Path = SCHEMA) -> dict:
    """The schema as a fresh dict (callers may fill defaults into it); parsed once per process."""
    return copy.deepcopy(_parsed_schema(str(path)))


@functools.lru_cache(maxsize=4)
def _parsed_schema(path: str) -> dict:
    # libyaml's loader where PyYAML has it: the schema is parsed while every run's Snakefile is
    # read (0.08 s in Python, 0.002 s in C); a user's config keeps the Python loader's messages
    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    return yaml.load(Path(path).read_text(encoding="utf-8"), Loader=loader)  # a safe loader either way


def check_config(
    config: dict, schema: dict | None = None, source: str = "config", partial: bool = False
) -> None:
    """Raise ConfigError naming the first violation's key path, e.g. `umap.n_neighbours`.

    partial: one of several config files (a folder's config.yaml, then --configfile), where
    a required key may come from another file.
    """
    import jsonschema

    schema = schema or load_schema()
    if partial:
        schema = {key: value for key, value in schema.items() if key != "required"}
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(config), key=lambda e: (list(e.path), e.validator))
    if errors:
        error = jsonschema.exceptions.best_match(errors)
        raise ConfigError(f"{source}: {_describe(error)}")
    problem = _cross_field_problem(config)
    if problem:
        raise ConfigError(f"{source}: {problem}")


def _not_a_number(value: Any, path: str = "") -> str | None:
    """The key path of the first NaN or infinity (YAML's .nan, .inf), which JSON schema's
    bounds let through (a NaN is neither below a minimum nor above a maximum)."""
    if isinstance(value, float) and not math.isfinite(value):
        written = ".nan" if value != value else (".inf" if value > 0 else "-.inf")
        return f"{path}: {written} is not a number; write a number (config.yaml's comment gives its range)"
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    for key, item in items:
        found = _not_a_number(item, f"{path}[{key}]" if isinstance(key, int) else f"{path}.{key}".lstrip("."))
        if found:
            return found
    return None


def _cross_field_problem(config: dict) -> str | None:
    """Constraints between keys that JSON schema cannot state; each would crash mid-run."""
    problem = _not_a_number(config)
    if problem:
        return problem
    vectorizer = config.get("vectorizer") or {}
    ngram = vectorizer.get("ngram_range")
    if isinstance(ngram, list) and len(ngram) == 2 and ngram[0] > ngram[1]:
        return (
            f"vectorizer.ngram_range: {ngram} has its lower bound above its upper; "
            f"use [{ngram[1]}, {ngram[0]}]"
        )
    years = (config.get("filters") or {}).get("years")
    if isinstance(years, list) and len(years) == 2 and None not in years and years[0] > years[1]:
        return f"filters.years: {years} has its first year after its last; use [{years[1]}, {years[0]}]"
    return _curation_problem(config.get("topics") or {})


def _topic_id(key: Any) -> int | None:
    """A topic id as config.yaml may write it (12 or "12"); None when it is not one."""
    if isinstance(key, bool):
        return None
    if isinstance(key, int):
        return key if key >= 0 else None
    text = str(key).strip()
    return int(text) if text.isdigit() else None


def _curation_problem(topics: dict) -> str | None:
    """topics.names: keys are topic ids, names are not blank (one line naming the key)."""
    for key, name in (topics.get("names") or {}).items():
        if _topic_id(key) is None:
            return (
                f"topics.names: {key!r} is not a topic id; use the number in the topic column "
                f'of results/topics/topics.csv (e.g. 12: "my name")'
            )
        if not str(name).strip():
            return f"topics.names.{key}: the name is empty; write topic {key}'s name, or remove the line"
    ids: dict[int, Any] = {}
    for key in topics.get("names") or {}:
        if _topic_id(key) in ids:
            return (
                f"topics.names: topic {_topic_id(key)} is named twice ({ids[_topic_id(key)]!r} and "
                f"{key!r}); keep one"
            )
        ids[_topic_id(key)] = key
    seen: dict[int, int] = {}
    for i, group in enumerate(topics.get("merge") or []):
        for topic in group if isinstance(group, list) else []:
            if topic in seen and seen[topic] != i:
                return (
                    f"topics.merge[{i}]: topic {topic} is also in topics.merge[{seen[topic]}]; "
                    f"write the two lists as one"
                )
            seen[topic] = i
    names: dict[str, int] = {}
    for i, entry in enumerate(topics.get("pinned") or []):
        key = f"topics.pinned[{i}]"
        problem = _pinned_problem(entry, key)
        if problem:
            return problem
        name = " ".join(str(entry if isinstance(entry, str) else entry["name"]).split()).casefold()
        if name in names:
            return f"{key}: {name!r} is pinned twice (also topics.pinned[{names[name]}]); keep one"
        names[name] = i
    return None


PINNED_KEYS = ("name", "description", "examples")


def _pinned_problem(entry: Any, key: str) -> str | None:
    """A pinned topic is a phrase or {name, description, examples}: one line naming the key."""
    if isinstance(entry, str):
        return None if entry.strip() else f"{key}: the phrase is empty; write the pinned topic's name"
    unknown = sorted(set(map(str, entry)) - set(PINNED_KEYS))
    if unknown:
        allowed = ", ".join(PINNED_KEYS)
        return f"{key}: unknown key {', '.join(map(repr, unknown))} (allowed: {allowed})"
    if not isinstance(entry.get("name"), str) or not entry["name"].strip():
        example = '{name: "graph neural networks", description: ..., examples: my-papers.bib}'
        return f"{key}: a pinned topic needs a name: {example}"
    if not isinstance(entry.get("description", ""), (str, type(None))):
        return f"{key}.description: expected a sentence (text), got {entry['description']!r}"
    examples = entry.get("examples", [])
    examples = [examples] if isinstance(examples, str) else examples
    if examples is None:
        return None
    if not isinstance(examples, list) or not all(isinstance(e, str) and e.strip() for e in examples):
        return (
            f"{key}.examples: expected a listing file (or a list of them) of papers that define "
            f"the topic, e.g. my-papers.bib"
        )
    return None


# YAML 1.1 (PyYAML) reads `012` as the octal number 10, `0x1f` as 31, `0b11` as 3, `1:30` as 90
# (base 60) and drops underscores (`5_0` is 50, `0.2_5` 0.25): in config.yaml each is a typo or a
# text, never meant so. Each is refused with what YAML made of it, named for what it is.
# Digits grouped by thousands (10_000) read as written and stay accepted.
_THOUSANDS = re.compile(r"[-+]?[1-9][0-9]{0,2}(_[0-9]{3})+")
_NUMBER_KINDS = (
    (re.compile(r"[-+]?0x[0-9a-fA-F_]+"), "is hexadecimal (0x)"),
    (re.compile(r"[-+]?0b[01_]+"), "is binary (0b)"),
    (re.compile(r"[-+]?0[0-7_]+"), "reads as the number {value} in YAML (a leading 0 is octal)"),
    (re.compile(r"[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?"), "is base 60 (sexagesimal)"),
    (re.compile(r".*_.*"), "reads as the number {value} in YAML (YAML drops the underscores)"),
)


def _number_problem(text: str, value) -> str | None:
    """What YAML 1.1 made of a number written `text` (read as `value`) when it is not the plain
    decimal it looks like, as one line ending with what to write; None for a plain number."""
    if _THOUSANDS.fullmatch(text):
        return None
    for pattern, what in _NUMBER_KINDS:
        if pattern.fullmatch(text):
            said = what.format(value=value)
            said += "" if "{value}" in what else f", the number {value} in YAML"
            plain = text.lstrip("+-0") or "0" if "octal" in what else str(value)
            return f'{text} {said}; write {plain} for the number, or quote it ("{text}") for text'
    return None


class StrictLoader(yaml.SafeLoader):
    """PyYAML's safe loader that refuses what it would read silently wrong: a key given twice in
    one mapping (PyYAML keeps the last) and numbers YAML 1.1 reads as octal, hex, binary, base 60
    or without their underscores."""

    def construct_mapping(self, node, deep=False):
        seen: dict = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=deep)
            if not isinstance(key, (list, dict)) and key in seen:
                raise yaml.constructor.ConstructorError(
                    None,
                    None,
                    f"{key!r} is given twice in one mapping (also line {seen[key]}); keep one",
                    key_node.start_mark,
                )
            if not isinstance(key, (list, dict)):
                seen[key] = key_node.start_mark.line + 1
        return super().construct_mapping(node, deep=deep)

    def _refuse_number(self, node, value):
        problem = _number_problem(str(node.value), value)
        if problem:
            raise yaml.constructor.ConstructorError(None, None, problem, node.start_mark)
        return value

    def construct_yaml_int(self, node):
        return self._refuse_number(node, super().construct_yaml_int(node))

    def construct_yaml_float(self, node):
        return self._refuse_number(node, super().construct_yaml_float(node))


def _key_at(text: str, mark) -> str:
    """The dotted key (topics.names, hdbscan.min_cluster_size) of the scalar at `mark`: the key
    it is the value of, or the mapping it is a key in; '' when not found."""

    def walk(node, path: str) -> str | None:
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if key.start_mark.index == mark.index:
                    return path
                inner = f"{path}.{key.value}" if path else str(key.value)
                if isinstance(value, yaml.ScalarNode) and value.start_mark.index == mark.index:
                    return inner
                found = walk(value, inner)
                if found is not None:
                    return found
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                if isinstance(item, yaml.ScalarNode) and item.start_mark.index == mark.index:
                    return f"{path}[{i}]"
                found = walk(item, f"{path}[{i}]")
                if found is not None:
                    return found
        return None

    try:
        return walk(yaml.compose(text, Loader=yaml.SafeLoader), "") or ""
    except yaml.YAMLError:
        return ""


StrictLoader.add_constructor("tag:yaml.org,2002:int", StrictLoader.construct_yaml_int)
StrictLoader.add_constructor("tag:yaml.org,2002:float", StrictLoader.construct_yaml_float)
StrictLoader.add_constructor("tag:yaml.org,2002:map", StrictLoader.construct_mapping)


def read_config_file(path: str | Path) -> dict:
    """A config file as a mapping; a YAML syntax error is one line naming the file and line."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ConfigError(f"{path}: config file not found") from None
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: cannot read the config file ({error})") from None
    try:
        data = yaml.load(text, Loader=StrictLoader)  # a safe loader
    except yaml.MarkedYAMLError as error:
        mark = error.problem_mark or error.context_mark
        where = f"line {mark.line + 1}, column {mark.column + 1}: " if mark else ""
        problem = " ".join(str(error.problem or error.context or "").split())
        context = error.context_mark if error.problem and error.context else None
        if context is not None:
            problem += (
                f", {' '.join(error.context.split())} that starts at line "
                f"{context.line + 1}, column {context.column + 1}"
            )
        what = "" if isinstance(error, yaml.constructor.ConstructorError) else "YAML syntax error: "
        if what == "" and mark is not None and _key_at(text, mark):
            what = f"{_key_at(text, mark)}: "
        raise ConfigError(f"{path}: {where}{what}{problem}") from None
    except yaml.YAMLError as error:
        raise ConfigError(f"{path}: YAML syntax error ({' '.join(str(error).split())})") from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(
            f"{path}: expected keys at the top level (listings: ...), got {type(data).__name__}"
        )
    return data


def check_config_files(files: list[str | Path], merged: dict, overrides: dict | None = None) -> None:
    """Check each file on its own, so a violation names the file it is in, then the merge.

    overrides: Snakemake's --config key=value pairs, applied last.
    """
    sources = [str(path) for path in files]
    for path in files:
        check_config(read_config_file(path), source=str(path), partial=True)
    if overrides:
        check_config(dict(overrides), source="--config", partial=True)
        sources.append("--config")
    check_config(merged, source=" + ".join(sources) or "config")


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
        return (
            "an integer >= 1 or 'auto'"
            if schema["$ref"].endswith("auto_int")
            else "a listing path or mapping"
        )
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
        why = error.schema.get("description")
        return f"{where}: {error.message}" + (f" ({why})" if why else "")
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
        return {
            key: _defaults(sub)
            for key, sub in schema["properties"].items()
            if "default" in sub or sub.get("type") == "object"
        }
    return copy.deepcopy(schema.get("default"))


def default_config(**overrides: Any) -> dict:
    """The schema's defaults (what a config naming only `listings` gets), sections overridden."""
    config = _defaults(load_schema())
    for section, values in overrides.items():
        config[section] = {**config[section], **values} if isinstance(values, dict) else values
    return config
