"""The package files a job runs: its import closure within papertopics, a rule's `code` input.

common.smk gives each rule one small file as its `code` input (`code_manifest`): a content hash
per package module that the job imports, directly or through another. An edit to any of them
rewrites the file, so the job reruns (Snakemake's mtime trigger; its checksum check leaves a
rewrite with the same bytes alone); upgrading papertopics over a finished folder is the same event,
and the first parse after it names the modules that changed. Hashes, not paths: moving the folder
or reinstalling the same code into another environment reruns nothing.

The closure is found by reading the files, not importing them, so parsing the Snakefile stays
quick: one regular expression over each module's text (the package bans relative imports; an
import written inside a function counts, as the layering test's graph counts it), plus the modules
imported by name (the report's page registry, the listing formats' registry, lazily exported
names). tests/test_architecture.py checks the statements found against the exact `ast` graph.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import re
from functools import cache
from pathlib import Path

PACKAGE = "papertopics"

# `import papertopics.a.b [as x]` and `from papertopics.a import b, c` (parenthesised or not)
_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+(papertopics(?:\.\w+)*)[ \t]+import[ \t]+(\([^)]*\)|[^\n]*)"
    r"|import[ \t]+(papertopics(?:\.\w+)*))",
    re.MULTILINE,
)
_COMMENT = re.compile(r"#[^\n]*")
_NAME = re.compile(r"(\w+)(?:\s+as\s+\w+)?")
# imported by name at run time: the report registry's "papertopics.report.barchart:visualize_barchart"
_QUOTED = re.compile(r"[\"'](papertopics(?:\.\w+)+)[:\"']")
# a package that imports its own modules by name (ingest/formats' registry) runs all of them
_OWN_MODULES = 'import_module(f"{__name__}.'
# a package's names that load their module on first use (papertopics.lazy_exports)
_LAZY = re.compile(r"lazy_exports\((?:[^{]*)\{([^}]*)\}")
_LAZY_ENTRY = re.compile(r"[\"'](\w+)[\"']\s*:\s*[\"']([\w.]+)[\"']")


@cache
def package_root() -> Path:
    """The folder of the papertopics package in use (found, not imported)."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise ModuleNotFoundError(PACKAGE)
    return Path(next(iter(spec.submodule_search_locations)))


@cache
def module_file(name: str) -> Path | None:
    """The file of module `name` (`papertopics.topics.fit`), or None if it is no module."""
    parts = name.split(".")
    if parts[0] != PACKAGE:
        return None
    base = package_root().joinpath(*parts[1:])
    for candidate in (base / "__init__.py", base.with_suffix(".py")):
        if candidate.is_file():
            return candidate
    return None


def _module_of(name: str) -> str | None:
    """`name` or its longest prefix that is a module (`papertopics.topics.fit.fit_topics_job`
    -> `papertopics.topics.fit`)."""
    while name and module_file(name) is None:
        name = name.rpartition(".")[0]
    return name or None


@cache
def _lazy_names(package: str) -> dict[str, str]:
    """A package's lazily exported names -> their modules (`embed_texts` -> `papertopics.embed.encode`)."""
    path = module_file(package)
    if path is None or path.name != "__init__.py":
        return {}
    return {
        name: f"{package}.{module}"
        for block in _LAZY.findall(path.read_text(encoding="utf-8"))
        for name, module in _LAZY_ENTRY.findall(block)
    }


def imports_in(text: str, lazy: bool = True) -> set[str]:
    """The papertopics modules a module's source imports, at any depth of its code: `import`
    statements, and with `lazy`, what a lazily exported name loads (`from papertopics.embed
    import embed_texts` runs embed/encode.py)."""
    found: set[str | None] = set()
    for match in _IMPORT.finditer(text):
        base, names, plain = match.groups()
        if plain:
            found.add(_module_of(plain))
            continue
        for name in _NAME.findall(_COMMENT.sub("", names).strip("()")):
            found.add(_module_of(f"{base}.{name}"))
            if lazy and name in _lazy_names(base):
                found.add(_module_of(_lazy_names(base)[name]))
    return {module for module in found if module}


def _submodules(package: str) -> set[str]:
    folder = module_file(package).parent
    return {f"{package}.{path.stem}" for path in folder.glob("*.py") if path.stem != "__init__"}


@cache
def _imports_of(module: str) -> frozenset[str]:
    """What running `module` imports, by statement or by name (registries)."""
    path = module_file(module)
    if path is None:
        return frozenset()
    text = path.read_text(encoding="utf-8")
    found = imports_in(text) | {m for m in map(_module_of, _QUOTED.findall(text)) if m}
    if path.name == "__init__.py" and _OWN_MODULES in text:
        found |= _submodules(module)
    return frozenset(found - {module})


def _with_parents(module: str) -> list[str]:
    """Importing `papertopics.topics.fit` first runs `papertopics` and `papertopics.topics`."""
    parts = module.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1)]


def import_closure(modules: list[str] | tuple[str, ...]) -> list[Path]:
    """Every package file importing `modules` runs (themselves, their packages' `__init__`s, and
    what those import, transitively), sorted."""
    seen: set[str] = set()
    todo = [parent for module in modules for parent in _with_parents(module)]
    while todo:
        module = todo.pop()
        if module in seen:
            continue
        seen.add(module)
        for imported in _imports_of(module):
            todo.extend(parent for parent in _with_parents(imported) if parent not in seen)
    return sorted(path for path in map(module_file, seen) if path)


def script_modules(script: str | Path) -> list[str]:
    """The papertopics modules a workflow script imports (its closure's roots)."""
    return sorted(imports_in(Path(script).read_text(encoding="utf-8")))


@cache
def _hashed(path: Path) -> tuple[str, str]:
    """(path in the package, content hash) of a package file."""
    return path.relative_to(package_root()).as_posix(), hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def code_manifest(
    name: str, modules: list[str] | tuple[str, ...], folder: Path, files: list[Path] | tuple[Path, ...] = ()
) -> tuple[Path, list[str]]:
    """Write `.snakemake/papertopics/code/<name>.txt`, one line per file of the closure of
    `modules` and per package file of `files` (the report's scripts and templates): content hash,
    path in the package; written when its text changed. Returns its path
    (relative to `folder`) and the package files that changed since it was last written (none
    the first time). A rule's `code` input: same content, same file, so nothing reruns when the
    folder moves or papertopics is reinstalled elsewhere; a changed module rewrites it, which
    reruns every job whose closure holds the module."""
    lines = dict(map(_hashed, [*import_closure(modules), *files]))
    text = "".join(f"{digest}  {module}\n" for module, digest in lines.items())
    relative = Path(".snakemake") / "papertopics" / "code" / f"{name}.txt"
    path = folder / relative
    try:
        old = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        old = None
    if old == text:
        return relative, []
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_name(f".{path.name}.{os.getpid()}")
    temporary.write_text(text, encoding="utf-8")
    os.replace(temporary, path)
    if old is None:
        return relative, []
    before = dict(reversed(line.split("  ", 1)) for line in old.splitlines() if "  " in line)
    changed = sorted(m for m in lines.keys() | before.keys() if lines.get(m) != before.get(m))
    return relative, changed
