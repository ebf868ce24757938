"""The `papertopics` command: `run` a folder of listings through the packaged workflow, `open` its report.

`papertopics run LISTING...` makes the current folder (or --directory) a corpus folder: it
writes a config.yaml naming the listings when the folder has none (an existing one is never
rewritten) and runs the same Snakefile, profile and closing lines as `snakemake --cores 4` in
the repository, through Snakemake's own command line (snakemake.cli.main, in this process).
This module reads the command line and runs the commands; the concerns it calls live beside it:
`folder_config` (config.yaml), `overrides` (--config), `launch` (the workflow, its profile and
Snakemake's call).
"""

from __future__ import annotations

import argparse
import glob
import os
import sys
from collections.abc import Sequence
from pathlib import Path

import papertopics
from papertopics.errors import CliError, PapertopicsError
from papertopics.runtime.folder_config import named_entries, prepare_config
from papertopics.runtime.launch import profile_options, run_snakemake, workflow_root
from papertopics.runtime.overrides import CLI_CONFIG, parse_overrides, write_overrides

__all__ = [
    "CLI_CONFIG",
    "CliError",
    "main",
    "named_entries",
    "open_report",
    "parse_overrides",
    "prepare_config",
    "run",
    "workflow_root",
]

REPORT = Path("results") / "report" / "index.html"


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
    argv += profile_options(folder, root, snakemake_args)
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
        written = write_overrides(folder, overrides, own=busy is not None)
        argv += ["--configfile", str(written)]
    try:
        return run_snakemake(argv, folder, root)
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
