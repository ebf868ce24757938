"""Parse time of a listing: the working tree's cleaning (ingest/text/) against another
revision's (ingest/text/, or ingest/clean.py before issue 52), in one process, alternating.

Why: parse_listing reads every listing on each new corpus; arXiv 75k is the largest listing
the project reads, and cleaning (clean_text, split_abstract, ...) is most of its parse time.
Each round reads the listing once with the revision's cleaning functions swapped into ingest/listings.py
and once with the working tree's, alternating (the order flips each round), so a machine
shared with other work loads both alike; CPU seconds of this process are shown beside wall
time (less sensitive to other users' load). Every other step (reading, decoding, columns,
the table) is the working tree's in both.

    .venv/bin/python bench/parse_time.py ../shared/data/arxiv-daily/arxiv-daily.jsonl.gz \\
        --against 29e3719 --rounds 3
"""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from papertopics.ingest import listings, text  # noqa: E402
from papertopics.ingest.listings import ListingSpec, listing_name, read_listing  # noqa: E402

SWAPPED = ("clean_text", "display_text", "split_abstract", "strip_invisible", "unescape_entities")


def clean_module_at(rev: str):
    """The cleaning functions as they are at git revision `rev`, loaded as a module of their own:
    ingest/clean.py (before issue 52) or the ingest/text/ package, renamed so that it imports
    its own modules, not the working tree's."""
    folder = Path(tempfile.mkdtemp(prefix="parse_time_"))
    package = f"text_at_{rev.replace('/', '_').replace('-', '_')}"
    tree = subprocess.run(
        ["git", "-C", str(REPO), "ls-tree", "--name-only", rev, "src/papertopics/ingest/"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    old = "src/papertopics/ingest/text" not in tree
    names = (
        ["clean.py"]
        if old
        else ["__init__.py", "chars.py", "latex.py", "latex_tables.py", "markup.py", "boilerplate.py"]
    )
    (folder / package).mkdir()
    for name in names:
        where = "src/papertopics/ingest/" + (name if old else f"text/{name}")
        source = subprocess.run(
            ["git", "-C", str(REPO), "show", f"{rev}:{where}"], check=True, capture_output=True, text=True
        ).stdout
        source = source.replace("papertopics.ingest.text", package)
        (folder / package / ("__init__.py" if old else name)).write_text(source, encoding="utf-8")
    sys.path.insert(0, str(folder))
    return importlib.import_module(package)


def timed(spec: ListingSpec, module) -> tuple[float, float, int]:
    """(wall s, CPU s, documents) of read_listing with `module`'s cleaning functions."""
    for name in SWAPPED:
        setattr(listings, name, getattr(module, name))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        wall, cpu = time.perf_counter(), time.process_time()
        n = len(read_listing(spec))
        return time.perf_counter() - wall, time.process_time() - cpu, n


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("listing", type=Path)
    ap.add_argument("--against", default="main", help="git revision whose cleaning is the baseline")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    spec = ListingSpec(listing_name(args.listing), args.listing)
    variants = {args.against: clean_module_at(args.against), "working tree": text}
    results: dict[str, list[tuple[float, float]]] = {name: [] for name in variants}
    for r in range(args.rounds):
        order = list(variants) if r % 2 == 0 else list(reversed(variants))
        for name in order:
            wall, cpu, n = timed(spec, variants[name])
            results[name].append((wall, cpu))
            print(
                f"round {r + 1}: {name:>14}: {wall:6.2f} s wall, {cpu:6.2f} s CPU, {n:,} documents",
                flush=True,
            )
    for name, rows in results.items():
        best_wall = min(w for w, _ in rows)
        best_cpu = min(c for _, c in rows)
        print(f"best of {args.rounds}: {name:>14}: {best_wall:6.2f} s wall, {best_cpu:6.2f} s CPU")


if __name__ == "__main__":
    main()
