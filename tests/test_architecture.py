"""The package is laid out as the DAG is: imports only go down the stage order, and never in a circle.

LAYERS is the one place the order is written down (docs/design.md points here). A module may
import its own layer and the layers before it; the graph counts every import, also those inside
functions, so a cycle cannot hide behind an import that waits until a call.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

from conftest import REPO

PACKAGE = REPO / "src" / "papertopics"

# Bottom to top. The first entry holds the top-level modules every stage may use; then one
# subpackage per stage, in the DAG's order; `pipeline` strings the modelling stages together for
# benchmarks and notebooks; the report reads the modelling outputs; last, what runs around the
# workflow: its runtime, the `papertopics` command and `results` (a finished folder in a notebook).
LAYERS: list[tuple[str, ...]] = [
    ("errors", "constants", "config", "artifacts", "params", "vectors"),
    ("ingest",),
    ("embed",),
    ("reduce",),
    ("cluster",),
    ("topics",),
    ("analyses",),
    ("evaluate",),
    ("pipeline",),
    ("report",),
    ("runtime", "results", "__main__"),
]
RANK = {name: rank for rank, names in enumerate(LAYERS) for name in names}


def modules() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def import_graph() -> dict[str, set[str]]:
    """Module -> the papertopics modules it imports (at any depth of its code)."""
    known = modules()

    def resolve(name: str) -> str | None:
        while name and name not in known:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for module, path in known.items():
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        targets: set[str | None] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(
                    resolve(alias.name) for alias in node.names if alias.name.startswith("papertopics")
                )
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(parent + ([base] if base else []))
                if base.startswith("papertopics"):
                    targets.update(resolve(f"{base}.{alias.name}") for alias in node.names)
        graph[module] = {target for target in targets if target and target != module}
    return graph


def layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def test_every_module_belongs_to_a_layer():
    unplaced = sorted(m for m in modules() if m != "papertopics" and layer(m) not in RANK)
    assert not unplaced, f"add these to LAYERS in tests/test_architecture.py: {unplaced}"
    top_level = [m for m, path in modules().items() if m.count(".") == 1 and not path.name.startswith("__")]
    assert len(top_level) <= 8, f"more than 8 modules at the top of the package: {sorted(top_level)}"


def test_imports_only_go_down_the_stage_order():
    upward = [
        f"{source} imports {target} ({layer(target)} comes after {layer(source)})"
        for source, targets in import_graph().items()
        for target in sorted(targets)
        if "papertopics" not in (source, target) and RANK[layer(target)] > RANK[layer(source)]
    ]
    assert not upward, "\n".join(upward)


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected component of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(graph.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_no_import_cycles():
    # A package's __init__ re-exports its modules; an edge from a module back up to its own
    # package's __init__ is Python's normal loading order, not a cycle of the code.
    graph = {
        source: {
            t for t in targets if not (source.startswith(t + ".") and modules()[t].name == "__init__.py")
        }
        for source, targets in import_graph().items()
    }
    found = cycles(graph)
    assert not found, "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def _python(code: str) -> str:
    """stdout of `code` in a fresh interpreter that sees only this package's src/."""
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(PACKAGE.parent)},
    )
    return result.stdout


def _loaded_after(statement: str) -> list[str]:
    """Third-party and papertopics modules a fresh interpreter holds after `statement`."""
    code = (
        f"import sys\n{statement}\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in"
        " ('numpy', 'pandas', 'scipy', 'plotly', 'pyarrow', 'yaml') or m.startswith('papertopics.')))\n"
    )
    return ast.literal_eval(_python(code).strip())


def test_import_papertopics_is_light_and_names_its_public_api():
    assert _loaded_after("import papertopics") == []
    code = (
        "import papertopics; print(papertopics.read_listing.__module__, papertopics.model_topics.__module__)"
    )
    stdout = _python(code)
    assert stdout.split() == ["papertopics.ingest.listings", "papertopics.pipeline"]


def test_light_modules_stay_light_inside_their_packages():
    # advance_history, the last job of every run, starts on the stdlib alone; report.smk reads
    # the page registry while the Snakefile is parsed, without plotly or pandas.
    assert _loaded_after("import papertopics.topics.snapshot_store") == [
        "papertopics.topics",
        "papertopics.topics.snapshot_store",
    ]
    assert _loaded_after("import papertopics.report.registry") == [
        "papertopics.report",
        "papertopics.report.registry",
    ]


def test_fitting_topics_does_not_load_the_report_or_the_runtime():
    loaded = _loaded_after("import papertopics.topics.fit, papertopics.evaluate.metrics")
    assert not {m.split(".")[1] for m in loaded if m.startswith("papertopics.")} & {"report", "runtime"}


def _section(path: Path, heading: str) -> str:
    text = path.read_text(encoding="utf-8")
    start = text.index(heading)
    end = text.find("\n## ", start + len(heading))
    return text[start : end if end >= 0 else len(text)]


def test_design_md_lists_every_module_and_no_other():
    table = _section(REPO / "docs" / "design.md", "## Modules")
    listed = {
        cell.strip("`")
        for row in table.splitlines()
        if row.startswith("| `")
        for cell in row.split("|")[1].replace(",", " ").split()
    }
    files = {str(path.relative_to(PACKAGE)) for path in PACKAGE.rglob("*.py")}
    assert not files - listed, f"docs/design.md's module table misses {sorted(files - listed)}"
    stale = {m for m in listed if m.endswith(".py")} - files
    assert not stale, f"docs/design.md's module table lists modules that are gone: {sorted(stale)}"


def test_readme_layout_names_every_subpackage_and_top_level_module():
    layout = _section(REPO / "README.md", "## Layout")
    names = {
        path.name for path in PACKAGE.iterdir() if path.suffix == ".py" and not path.name.startswith("__")
    }
    names |= {f"{path.name}/" for path in PACKAGE.iterdir() if (path / "__init__.py").exists()}
    missing = sorted(name for name in names if name not in layout.split())
    assert not missing, f"README.md's layout leaves out {missing}"


def test_the_code_input_scanner_finds_every_import_the_ast_finds():
    """common.smk's code inputs (runtime.closure) read imports with a regular expression, for a
    quick parse: it finds exactly the import statements `ast` finds, in every module (less
    `papertopics` itself, in every closure anyway: results.py's docstring shows `import papertopics`)."""
    from papertopics.runtime.closure import imports_in

    graph = import_graph()
    differ = {}
    for module, path in modules().items():
        found = imports_in(path.read_text(encoding="utf-8"), lazy=False) - {module, "papertopics"}
        if found != graph[module] - {"papertopics"}:
            differ[module] = {"missed": graph[module] - found, "extra": found - graph[module]}
    assert not differ, differ


def test_a_job_closure_holds_the_helpers_it_calls_and_no_other_stage():
    from papertopics.runtime.closure import import_closure, package_root

    def closure(module: str) -> set[str]:
        return {path.relative_to(package_root()).as_posix() for path in import_closure([module])}

    fit = closure("papertopics.topics.fit")
    # the package __init__s run on the way, a module of a subpackage, merge_clusters' module
    assert {"__init__.py", "topics/__init__.py", "topics/fit.py", "topics/names/score.py"} <= fit
    assert {"topics/curate.py", "topics/merge.py"} & fit
    assert not {path for path in fit if path.startswith(("report/", "runtime/", "evaluate/"))}
    # the page registry names its figures as "module:function" strings
    assert {"report/dendrogram.py", "report/barchart.py"} <= closure("papertopics.report.render")
    # the listing formats are imported by name from their registry
    assert "ingest/formats/bibtex.py" in closure("papertopics.ingest.listings")
    # a lazily exported name loads its module: `from papertopics.embed import embed_texts`
    assert "embed/encode.py" in closure("papertopics.cluster.pinned")
    assert closure("papertopics.topics.snapshot_store") == {
        "__init__.py",
        "topics/__init__.py",
        "topics/snapshot_store.py",
    }


MODULE_LINES = 400
NARROW_LINES = 300  # ingest/ and topics/names/: modules that had grown several jobs each
FUNCTION_LINES = 80
BENCH_LINES = 300
OVERSIZE_ALLOWED: set[str] = set()  # what may stay over its size: nothing now (issue 60)


def oversize() -> list[str]:
    """Modules and functions over the size limits above (issue 52), as
    `path` or `path:function`, with their line counts."""
    found = []
    for root in ("src", "bench", "workflow/scripts", "tools"):
        for path in sorted((REPO / root).rglob("*.py")):
            name = path.relative_to(REPO).as_posix()
            text = path.read_text(encoding="utf-8")
            narrow = name.startswith(("src/papertopics/ingest/", "src/papertopics/topics/names/"))
            limit = BENCH_LINES if root == "bench" else NARROW_LINES if narrow else MODULE_LINES
            if len(text.splitlines()) > limit:
                found.append((name, len(text.splitlines()), limit))
            for node in ast.walk(ast.parse(text)):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                    if node.end_lineno - first + 1 > FUNCTION_LINES:
                        found.append((f"{name}:{node.name}", node.end_lineno - first + 1, FUNCTION_LINES))
    return [f"{name} {lines} lines > {limit}" for name, lines, limit in found if name not in OVERSIZE_ALLOWED]


def test_no_module_or_function_is_over_its_size():
    assert not oversize(), "split these:\n" + "\n".join(oversize())


def test_the_size_allowlist_names_only_what_is_still_over():
    still = set()
    saved = dict.fromkeys(OVERSIZE_ALLOWED)
    OVERSIZE_ALLOWED.clear()
    try:
        still = {line.split(" ")[0] for line in oversize()}
    finally:
        OVERSIZE_ALLOWED.update(saved)
    assert not set(saved) - still, f"no longer over, drop from OVERSIZE_ALLOWED: {sorted(set(saved) - still)}"


def _third_party(paths: list[Path], local: set[str]) -> set[str]:
    """The distributions the top-level imports of these files come from (stdlib and `local` aside)."""
    from importlib.metadata import packages_distributions

    found = set()
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                found.add(node.module.split(".")[0])
    found -= set(sys.stdlib_module_names) | local | {"__future__"}
    where = packages_distributions()
    return {_canonical(where[name][0]) for name in found}


def _canonical(name: str) -> str:
    """A distribution's name as PEP 503 compares it (`PyYAML` = `pyyaml`, `umap_learn` = `umap-learn`)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def _declared(*extras: str) -> set[str]:
    import tomllib

    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    wanted = project["dependencies"] + [r for e in extras for r in project["optional-dependencies"][e]]
    return {_canonical(re.match(r"[\w.-]+", r).group()) for r in wanted}


def test_pyproject_declares_every_library_the_package_and_its_tests_import():
    """What `import` names is declared, not left to arrive with another library (issue 60)."""
    code = [*PACKAGE.rglob("*.py"), *(REPO / "workflow/scripts").glob("*.py")]
    package = _third_party(code, {"papertopics"})
    assert {"numpy", "psutil", "threadpoolctl", "jsonschema", "transformers"} <= package
    assert package <= _declared(), sorted(package - _declared())
    tests = REPO / "tests"
    local = {"papertopics", "conftest", *(path.stem for path in tests.rglob("*.py"))}
    assert _third_party(list(tests.rglob("*.py")), local) <= _declared("test"), "tests import more"


def test_the_lock_pins_what_pyproject_needs_and_nothing_else():
    """requirements.lock is the closure of pyproject's dependencies and extras (their own
    requirements, markers read as pip reads them), one pin each (issue 60)."""
    import tomllib
    from importlib.metadata import PackageNotFoundError, distribution

    from packaging.requirements import Requirement

    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"].values()
    roots = project["dependencies"] + [r for extra in extras for r in extra]
    needed: set[str] = set()
    todo = [(Requirement(r), "") for r in roots]
    while todo:
        requirement, extra = todo.pop()
        if requirement.marker and not requirement.marker.evaluate({"extra": extra}):
            continue
        name = _canonical(requirement.name)
        for wanted in ("", *requirement.extras):
            if (name, wanted) in needed:
                continue
            needed.add((name, wanted))
            try:
                requires = distribution(requirement.name).requires or []
            except PackageNotFoundError:  # another platform's (openvino off x86-64)
                requires = []
            todo += [(Requirement(r), wanted) for r in requires]
    lines = [line for line in (REPO / "requirements.lock").read_text().splitlines() if "==" in line]
    pinned = [_canonical(line.split("==")[0].strip()) for line in lines]
    assert len(pinned) == len(set(pinned))
    names = {name for name, _ in needed} - {"setuptools"}  # torch's, there with pip itself
    assert set(pinned) == names, {"unused": set(pinned) - names, "missing": names - set(pinned)}
