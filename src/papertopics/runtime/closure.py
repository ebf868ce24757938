"""What a job runs: its import closure within papertopics, the package data those modules read
and the versions of the libraries they import; a rule's `code` param.

common.smk gives each rule one short digest as its `code` param (`code_version`): of a content
hash per package module the job imports, directly or through another, per package data file
those modules read (`topics/names/title_use.tsv.gz`) and the version of each library they import
(any installed distribution outside the standard library, found from the closure's import
statements: an upgrade of statsmodels, nameparser, matplotlib, rispy or bibtexparser reruns the
jobs whose modules import it, and only those). A change to any of them changes the digest, so
Snakemake's params trigger reruns the job; the same digest (a moved or copied folder, the same
code reinstalled elsewhere) reruns nothing. Nothing the DAG reads is written while the Snakefile
is parsed: a dry run plans the same jobs however often it runs. The one line that names what
changed compares with `.snakemake/papertopics/code/<name>.txt`, the record of the last run that
ran jobs here, which only such a run rewrites (common.smk).

The closure is found by reading the files, not importing them, so parsing the Snakefile stays
quick: one regular expression over each module's text (the package bans relative imports; an
import written inside a function counts, as the layering test's graph counts it), plus the modules
imported by name (the report's page registry, the listing formats' registry, lazily exported
names). tests/test_architecture.py checks the statements found against the exact `ast` graph.
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import importlib.util
import os
import re
import sys
from functools import cache
from pathlib import Path

PACKAGE = "papertopics"

# Libraries named here by their distribution where no installed distribution may declare the
# import name (import name -> distribution); every other library a module imports is found by
# its installed distribution (_distributions). The embedding cache keys its vectors on the
# versions of those that change vectors (embed/user_cache.py), so an upgrade recomputes them.
LIBRARIES = {
    "bertopic": "bertopic",
    "umap": "umap-learn",
    "hdbscan": "hdbscan",
    "sklearn": "scikit-learn",
    "sentence_transformers": "sentence-transformers",
    "openvino": "openvino",
    "torch": "torch",
    "transformers": "transformers",
}
# libraries that run a job without shaping what it writes (the workflow engine, process probes,
# the cache folder's place): an upgrade of one reruns nothing
RUNNERS = frozenset({"snakemake", "psutil", "platformdirs"})
# the top-level name of every `import x.y`, `import x, y` and `from x.y import z`
_TOP_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+([A-Za-z_]\w*)[\w.]*[ \t]+import\b"
    r"|import[ \t]+([A-Za-z_][\w.]*(?:[ \t]*,[ \t]*[A-Za-z_][\w.]*)*))",
    re.MULTILINE,
)
# a file name written in a module ("title_use.tsv.gz"): package data when it lies beside the module
_FILE_NAME = re.compile(r"[\"']([\w-]+(?:\.[\w-]+)+)[\"']")

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
def _data_files(module: str) -> tuple[Path, ...]:
    """Package data a module reads: files beside it (not modules) that its text names."""
    path = module_file(module)
    if path is None:
        return ()
    names = set(_FILE_NAME.findall(path.read_text(encoding="utf-8")))
    found = (path.parent / name for name in names if not name.endswith(".py"))
    return tuple(sorted(file for file in found if file.is_file()))


@cache
def _distributions() -> dict[str, tuple[str, ...]]:
    """{import name: the installed distributions providing it} (importlib.metadata's map)."""
    return {
        name: tuple(dict.fromkeys(dists))
        for name, dists in importlib.metadata.packages_distributions().items()
    }


def top_level_imports(text: str) -> set[str]:
    """The top-level names a module's source imports ("statsmodels", "nameparser", "os")."""
    found = set()
    for base, names in _TOP_IMPORT.findall(text):
        found.update([base] if base else [n.strip().split(".")[0] for n in names.split(",")])
    return found


@cache
def _libraries(module: str) -> frozenset[str]:
    """The installed libraries a module imports (at any depth of its code), by distribution: not
    the standard library, not papertopics, not a name no installed distribution provides."""
    path = module_file(module)
    text = path.read_text(encoding="utf-8") if path else ""
    found = set()
    for name in top_level_imports(text) - {PACKAGE, "__future__"}:
        if name in LIBRARIES:
            found.add(LIBRARIES[name])
        elif name not in sys.stdlib_module_names:
            found.update(_distributions().get(name, ()))
    return frozenset(found - RUNNERS)


@cache
def library_version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "none"


def _module_name(path: Path) -> str:
    parts = path.relative_to(package_root().parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def _hashed(path: Path) -> tuple[str, str]:
    """(path in the package, content hash) of a package file."""
    return path.relative_to(package_root()).as_posix(), hashlib.sha256(path.read_bytes()).hexdigest()[:16]


LIBRARY_MARK = " (library)"


def manifest(
    modules: list[str] | tuple[str, ...], files: list[Path] | tuple[Path, ...] = ()
) -> dict[str, str]:
    """What a job runs, name -> content hash or version: every file of the closure of `modules`,
    the package data they read (`_data_files`), the `files` given (the report's scripts and
    templates), and the libraries they import (`scikit-learn (library)` -> 1.6.1)."""
    closure = import_closure(modules)
    names = [_module_name(path) for path in closure]
    data = [file for name in names for file in _data_files(name)]
    lines = dict(map(_hashed, [*closure, *data, *files]))
    for distribution in sorted({lib for name in names for lib in _libraries(name)}):
        lines[distribution + LIBRARY_MARK] = library_version(distribution)
    return lines


def _said(name: str, old: str | None, new: str | None) -> str:
    """A changed entry as the run's line names it: the file, or `scikit-learn 1.5.2 -> 1.6.1`."""
    if name.endswith(LIBRARY_MARK):
        return f"{name.removesuffix(LIBRARY_MARK)} {old or 'none'} -> {new or 'none'}"
    return name


def record_path(name: str) -> Path:
    """Where the record of what `name`'s jobs last ran with lives, relative to the folder."""
    return Path(".snakemake") / "papertopics" / "code" / f"{name}.txt"


def code_version(
    name: str,
    modules: list[str] | tuple[str, ...],
    folder: Path,
    files: list[Path] | tuple[Path, ...] = (),
    record: bool = False,
) -> tuple[str, list[str], str | None]:
    """A rule's `code` param: the digest of its `manifest`. Also what changed since the record
    of the last run here (`record_path`; nothing the first time) and, where that record does not
    read, a line saying it was rebuilt. With `record` (a run that runs jobs, never a dry run),
    the record is rewritten when it differs, so the next command compares with this run."""
    lines = manifest(modules, files)
    text = "".join(f"{key}  {entry}\n" for entry, key in lines.items())
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
    path = folder / record_path(name)
    damaged = None
    try:
        old = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        old = None
    except (UnicodeDecodeError, OSError) as error:
        old = None
        why = "not UTF-8" if isinstance(error, UnicodeDecodeError) else error.strerror or type(error).__name__
        damaged = (
            f"{record_path(name)} did not read ({why}); {'rebuilt' if record else 'the next run rebuilds it'}"
        )
    if record and old != text:
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.{os.getpid()}")
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
    if old is None or old == text:
        return digest, [], damaged
    before = dict(reversed(line.split("  ", 1)) for line in old.splitlines() if "  " in line)
    # a library the record does not list was not tracked then (an older papertopics): no change
    changed = sorted(
        m
        for m in lines.keys() | before.keys()
        if lines.get(m) != before.get(m) and not (m.endswith(LIBRARY_MARK) and m not in before)
    )
    return digest, [_said(m, before.get(m), lines.get(m)) for m in changed], damaged
