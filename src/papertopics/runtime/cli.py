"""The `papertopics` command: `run` a folder of listings through the packaged workflow, `open` its report.

`papertopics run LISTING...` makes the current folder (or --directory) a corpus folder: it
writes a config.yaml naming the listings when the folder has none (an existing one is never
rewritten) and runs the same Snakefile, profile and closing lines as `snakemake --cores 4` in
the repository, through Snakemake's own command line (snakemake.cli.main, in this process).
The workflow is found beside the installed package (workflow_root): the repository for an
editable install, `papertopics/_workflow/` (copied in by setup.py) for a wheel.
"""

from __future__ import annotations

import argparse
import glob
import os
import sys
from collections.abc import Sequence
from pathlib import Path

import papertopics
from papertopics.errors import PapertopicsError

REPORT = Path("results") / "report" / "index.html"
CLI_CONFIG = Path(".snakemake") / "papertopics" / "cli-config.yaml"


def _listing_formats() -> str:
    """The listing formats as the ingest registry has them (its names and extensions)."""
    import textwrap

    from papertopics.ingest.formats import REGISTRY

    items = []
    for fmt in REGISTRY.values():
        shown = " ".join(e for e in fmt.extensions if e)
        by_content = "/".join(REGISTRY[c].extensions[0] for c in fmt.claims if REGISTRY[c].extensions)
        if by_content:
            shown += ("; " if shown else "") + f"{by_content} by content"
        items.append(f"{fmt.name} ({shown})")
    line = "Listing formats (from the extension, optionally .gz): " + ", ".join(items)
    return textwrap.fill(line + "; docs/listings.md has the rules.", width=90, break_on_hyphens=False)


_RUN_EPILOG = """\
examples:
  papertopics run my-library.bib                  # Zotero: File > Export Library > BibTeX
  papertopics run accepted.xlsx --cores 8
  papertopics run *.csv --config random_state=7 clustering.method=agglomerative
  papertopics run -- --dry-run                    # anything after -- goes to snakemake

{formats}
The folder gets a config.yaml naming the listings when it has none; edit it to rename
listings, map columns (columns: {text: Abstract}), pick an Excel sheet or tune any step
(every key is commented in the repository's config.yaml). An existing config.yaml is used
as it is and never rewritten; listings given here must be among those it names.
Steer the map from config.yaml, kept across reruns by topic id (README "Steer the map"):
  topics:
    names: {12: "my name for topic 12"}   # a rename reruns only the report
    merge: [[4, 17]]                      # topics 4 and 17 become topic 4
    pinned: ["graph neural networks", {name: ..., description: ..., examples: my-papers.bib}]
    pinned_min_similarity: auto           # or a cosine 0-1; 0: every paper to its nearest pinned topic
Results go to FOLDER/results/; the last lines name the report (papertopics open shows it).
""".replace("{formats}", _listing_formats())


class CliError(PapertopicsError):
    """A command-line problem a user fixes (one line)."""


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


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="papertopics",
        description="Topic maps for listings of paper abstracts.",
        epilog="Run `papertopics run --help` or `papertopics open --help` for each command.",
    )
    parser.add_argument("--version", action="version", version=f"papertopics {papertopics.__version__}")
    commands = parser.add_subparsers(dest="command", metavar="{run,open}")
    run = commands.add_parser(
        "run",
        help="model listings of abstracts in a folder and write its report",
        description="Model one or more listings of paper abstracts in a folder (default: the "
        "current one) and write results/, with the HTML report in results/report/.",
        epilog=_RUN_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    run.add_argument("listings", nargs="*", metavar="LISTING", help="listing files (or quoted globs)")
    run.add_argument(
        "-d", "--directory", metavar="FOLDER", help="the corpus folder (default: the current folder)"
    )
    run.add_argument(
        "-c",
        "--cores",
        metavar="N",
        help="CPU cores to use (default 4, from the workflow's profiles/default; 'all' for every core)",
    )
    run.add_argument(
        "--config",
        nargs="+",
        action="extend",
        default=[],
        metavar="KEY=VALUE",
        help="override config values for this run: random_state=7, umap.n_neighbors=10, "
        "clustering.method=agglomerative, embedding.model=/path/to/model (values in YAML)",
    )
    run.add_argument("-n", "--dry-run", action="store_true", help="show the jobs that would run; run none")
    opener = commands.add_parser(
        "open",
        help="open a folder's report in the web browser",
        description="Print the path of FOLDER/results/report/index.html and open it in the web browser.",
    )
    opener.add_argument("folder", nargs="?", default=".", metavar="FOLDER", help="corpus folder (default: .)")
    opener.add_argument("--print-only", action="store_true", help="print the path; open no browser")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # everything after `--` goes to snakemake untouched
    snakemake_args: list[str] = []
    if "--" in argv:
        cut = argv.index("--")
        argv, snakemake_args = argv[:cut], argv[cut + 1 :]
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    try:
        if args.command == "open":
            return open_report(Path(args.folder), browse=not args.print_only)
        return run(
            args.listings,
            Path(args.directory) if args.directory else Path.cwd(),
            cores=args.cores,
            config=args.config,
            dry_run=args.dry_run,
            snakemake_args=snakemake_args,
        )
    except PapertopicsError as error:
        print(f"papertopics error: {error}", file=sys.stderr)
        return 1


# --- open -------------------------------------------------------------------------------------


def open_report(folder: Path, browse: bool = True) -> int:
    index = (folder / REPORT).resolve()
    if not index.is_file():
        raise CliError(
            f"{index}: no report yet; run `papertopics run LISTING...` in {folder.resolve()} first"
        )
    print(index)
    if browse:
        import webbrowser

        webbrowser.open(index.as_uri())
    return 0


# --- run --------------------------------------------------------------------------------------


def run(
    listings: Sequence[str],
    folder: Path,
    *,
    cores: str | None = None,
    config: Sequence[str] = (),
    dry_run: bool = False,
    snakemake_args: Sequence[str] = (),
) -> int:
    """Prepare `folder` (config.yaml, --config overrides) and run Snakemake there; its exit code."""
    from papertopics.runtime.recovery import FolderBusy, hold_folder, runs_jobs

    folder = folder.expanduser().resolve()
    root = workflow_root()
    entries = [_listing_entry(item, folder) for item in listings]
    if entries:
        _make_folder(folder)
    elif not folder.is_dir():
        raise CliError(f"{folder}: no such folder" if not folder.exists() else f"{folder}: not a folder")
    argv = ["--snakefile", str(root / "Snakefile"), "--directory", str(folder)]
    argv += _profile_options(folder, root, snakemake_args)
    if cores is not None:
        argv += ["--cores", _cores(cores)]
    if dry_run:
        argv.append("--dry-run")
    argv += list(snakemake_args)
    overrides = parse_overrides(config)
    looks_only = not runs_jobs(["snakemake", *argv])
    busy = None
    try:
        # one run per folder: taken before anything here is written, held until this process
        # exits; the Snakefile's recovery finds it already held by this process
        hold_folder(folder)
    except FolderBusy as error:
        if not looks_only:
            raise
        busy = error  # a dry run only looks: it may look while another run works
    prepare_config(folder, entries)  # never rewrites a config.yaml, so a dry run may look
    written = None
    if overrides:
        written = _write_overrides(folder, overrides, own=busy is not None)
        argv += ["--configfile", str(written)]
    try:
        return _snakemake(argv, folder, root)
    finally:
        if busy is not None and written is not None:
            written.unlink(missing_ok=True)


def _cores(cores: str) -> str:
    """--cores as Snakemake takes it: a number of at least 1, or 'all'."""
    text = str(cores).strip()
    if text.lower() == "all":
        return "all"
    try:
        number = int(text)
    except ValueError:
        number = 0
    if number < 1:
        raise CliError(f"--cores {cores}: give a number of CPU cores of at least 1, or 'all' for every core")
    return str(number)


PROFILE_OPTIONS = ("--profile", "--workflow-profile")


def _profile_options(folder: Path, root: Path, snakemake_args: Sequence[str]) -> list[str]:
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


def _make_folder(folder: Path) -> None:
    """Create the corpus folder (and its parents) or say in one line why it cannot be."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise CliError(f"{folder}: a file, not a folder; name a folder with -d/--directory") from None
    except NotADirectoryError:
        parent = next((p for p in folder.parents if p.exists()), folder)
        raise CliError(
            f"{folder}: {parent} is a file, not a folder; name a folder with -d/--directory"
        ) from None
    except OSError as error:
        raise CliError(
            f"{folder}: cannot create it ({error.strerror or error}); name another folder with -d/--directory"
        ) from None


def _listing_entry(item: str, folder: Path) -> str:
    """A config `listings` entry for a listing named on the command line: relative to the folder
    when inside it, else absolute; a file must exist, a (quoted) glob must match."""
    path = Path(item).expanduser()
    full = path if path.is_absolute() else Path.cwd() / path
    if glob.has_magic(item) and not full.is_file():
        if not glob.glob(str(full), recursive=True):
            raise CliError(f"{item}: matches no file")
    elif not full.is_file():
        raise CliError(
            f"{item}: file not found" if not full.is_dir() else f"{item}: is a folder, not a listing"
        )
    full = Path(os.path.abspath(full))
    from papertopics.runtime.recovery import listing_inside_results

    inside = listing_inside_results(full, folder)
    if inside:
        raise CliError(inside.replace(str(full), item, 1))
    try:
        return full.relative_to(folder).as_posix()
    except ValueError:
        return str(full)


def named_entries(entries: Sequence[str | dict]) -> list[str | dict]:
    """Each listing as config.yaml names it: its path, or `{path, name}` where the name its file
    name gives cannot be used: one with ';' or '\\' (`a;b.csv` -> `a_b`), or one that two listings
    share (`lib.bib` beside `lib.ris` -> `lib.bib` and `lib.ris`). Globs are left as they are."""
    import re
    from collections import Counter

    from papertopics.ingest.listings import listing_name

    plain = [e for e in entries if isinstance(e, str) and not glob.has_magic(e)]
    stems = {e: listing_name(e) for e in plain}
    counts = Counter(stems.values())
    out: list[str | dict] = []
    for entry in entries:
        if entry not in stems:
            out.append(entry)
            continue
        name = stems[entry]
        if counts[name] > 1:
            clashing = [Path(e).name for e in plain if stems[e] == name]
            if len(set(clashing)) == len(clashing):  # same stem, other extensions: the file names
                name = Path(entry).name
        name = re.sub(r"[;/\\{}]", "_", name).strip("_ ") or "listing"
        out.append(entry if name == stems[entry] else {"path": entry, "name": name})
    return out


def _shown(entry: str | dict) -> str:
    return entry["path"] if isinstance(entry, dict) else entry


def prepare_config(folder: Path, entries: list[str]) -> Path:
    """Write folder/config.yaml naming `entries` when there is none; else check that it names
    each of them. An existing config.yaml is never rewritten."""
    from papertopics.config import check_config, read_config_file
    from papertopics.ingest.listings import format_for, resolve_listings

    path = folder / "config.yaml"
    entries = named_entries(entries)
    wanted = resolve_listings(entries, folder) if entries else []
    for spec in wanted:
        if spec.format is None:
            format_for(spec.path)  # an unknown extension stops here, before anything is written
    if not path.exists():
        if not entries:
            raise CliError(
                f"{folder}: no config.yaml and no listing given; run `papertopics run LISTING...` "
                f"(a .bib, .ris, .csv, .xlsx, ... file of abstracts)"
            )
        _write_new_config(path, entries)
        print(
            f"papertopics: wrote {path} naming {len(entries)} listing{'s' if len(entries) != 1 else ''}"
            f" (edit it to tune the run; papertopics never rewrites it)",
            file=sys.stderr,
        )
        for entry in entries:
            if isinstance(entry, dict):
                print(
                    f"papertopics: {entry['path']} is the listing '{entry['name']}' (change its `name:` "
                    "in config.yaml to rename it)",
                    file=sys.stderr,
                )
        return path
    if not wanted:
        return path
    config = read_config_file(path) or {}
    check_config(config, source=str(path), partial=True)  # `listings: 5`: the Snakefile's one line
    named = resolve_listings(config.get("listings") or [], folder) if isinstance(config, dict) else []
    have = {os.path.realpath(spec.path) for spec in named}
    for entry in entries:  # each entry resolved on its own, so the message names the right one
        for spec in resolve_listings([entry], folder):
            if os.path.realpath(spec.path) not in have:
                line = (
                    _shown(entry)
                    if isinstance(entry, str)
                    else f"{{path: {entry['path']}, name: {entry['name']}}}"
                )
                raise CliError(
                    f"{path} does not name {_shown(entry)}; add `  - {line}` under `listings:` there (an "
                    f"existing config.yaml is never rewritten), or run in another folder"
                )
    return path


def _write_new_config(path: Path, entries: list[str]) -> None:
    import yaml

    listing_lines = yaml.safe_dump(
        {"listings": entries}, allow_unicode=True, default_flow_style=False, sort_keys=False
    )
    text = (
        "# papertopics corpus folder, written by `papertopics run`; edit freely (it is never rewritten).\n"
        "# Every other key takes its default: see config.yaml in the papertopics repository, where\n"
        "# each key is commented. A listing entry may be a mapping, e.g.\n"
        "#   - path: decisions.xlsx\n"
        "#     sheet: Accepted\n"
        '#     columns: {text: "Abstract Text", title: "Paper Title"}\n' + listing_lines
    )
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text, encoding="utf-8")
    try:
        os.link(tmp, path)  # fails if a config.yaml appeared meanwhile: never overwrite one
    except FileExistsError:
        raise CliError(f"{path}: appeared while papertopics was writing it; run again") from None
    except OSError:
        if path.exists():
            raise CliError(f"{path}: appeared while papertopics was writing it; run again") from None
        tmp.replace(path)
        return
    finally:
        tmp.unlink(missing_ok=True)


def parse_overrides(pairs: Sequence[str]) -> dict:
    """`KEY=VALUE` pairs, KEY dotted for a section's key (`umap.n_neighbors=10`), VALUE in YAML."""
    import yaml

    overrides: dict = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        parts = key.strip().split(".")
        if not eq or not all(parts):
            raise CliError(f"--config {pair!r}: expected KEY=VALUE (random_state=7, umap.n_neighbors=10)")
        try:
            parsed = yaml.safe_load(value) if value.strip() else None
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


def _write_overrides(folder: Path, overrides: dict, own: bool = False) -> Path:
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


def _snakemake(argv: list[str], folder: Path, root: Path) -> int:
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
