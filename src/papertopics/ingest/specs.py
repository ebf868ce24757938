"""Config `listings` entries -> one ListingSpec per file: globs expanded, names made unique.

Rules in docs/listings.md ("Adding a listing").
"""

from __future__ import annotations

import glob
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from papertopics.errors import ConfigError, ListingError
from papertopics.ingest.formats import FORMATS, by_extension, lookup

__all__ = ["ListingSpec", "listing_name", "normalise_format", "relative_to_folder", "resolve_listings"]

_ENTRY_KEYS = frozenset({"path", "name", "format", "columns", "sheet"})


@dataclass(frozen=True)
class ListingSpec:
    """One listing file and how to read it (format None: from the extension)."""

    name: str
    path: Path
    format: str | None = None
    columns: dict[str, str] = field(default_factory=dict, hash=False)
    sheet: str | int | None = None  # Excel: a sheet name or 0-based position; None: the first


# --- resolving config entries ---------------------------------------------------------------


def listing_name(path: str | Path) -> str:
    """File name without listing extensions: 'a/neurips.jsonl.gz' -> 'neurips'."""
    name = Path(path).name
    if name.lower().endswith(".gz"):
        name = name[:-3]
    stem, dot, ext = name.rpartition(".")
    if dot and stem and by_extension("." + ext) is not None:
        name = stem
    # Snakemake reads `{v2}` in a file path as a wildcard: 'papers {v2}.txt' -> 'papers (v2)'
    return name.replace("{", "(").replace("}", ")")


def _entry_error(i: int, msg: str) -> ConfigError:
    return ConfigError(f"listings[{i}]: {msg}")


def resolve_listings(entries: list, base_dir: Path) -> list[ListingSpec]:
    """Expand config `listings` entries (path, glob or mapping) into one spec per file."""
    base_dir = Path(base_dir)
    if isinstance(entries, (str, dict)):
        entries = [entries]
    found: list[tuple[Path, str | None, str | None, dict, Any]] = []  # path, name, format, columns, sheet
    for i, entry in enumerate(entries or []):
        sheet = None
        if isinstance(entry, (str, Path)):
            pattern, name, fmt, columns = str(entry), None, None, {}
        elif isinstance(entry, dict):
            unknown = set(entry) - _ENTRY_KEYS
            if unknown:
                raise _entry_error(
                    i,
                    f"unknown key(s) {', '.join(sorted(map(str, unknown)))};"
                    f" allowed: path, name, format, columns, sheet",
                )
            if not isinstance(entry.get("path"), (str, Path)) or not str(entry["path"]):
                raise _entry_error(i, "a mapping needs 'path' (a file or glob)")
            pattern = str(entry["path"])
            name = entry.get("name")
            fmt = entry.get("format")
            columns = entry.get("columns") or {}
            sheet = entry.get("sheet")
            valid_number = isinstance(sheet, int) and not isinstance(sheet, bool) and sheet >= 0
            if sheet is not None and not valid_number and not (isinstance(sheet, str) and sheet.strip()):
                raise _entry_error(i, "'sheet' must be a sheet name or a 0-based sheet number")
            if name is not None and (not isinstance(name, str) or not name.strip()):
                raise _entry_error(i, "'name' must be a non-empty string")
            if fmt is not None:
                fmt = normalise_format(fmt, lambda m, i=i: _entry_error(i, m))
            if not isinstance(columns, dict) or not all(
                isinstance(k, str) and isinstance(v, str) and v for k, v in columns.items()
            ):
                raise _entry_error(
                    i,
                    "'columns' must map output names to source column names,"
                    " e.g. {text: abstract, title: title}",
                )
        else:
            raise _entry_error(i, f"expected a path, glob or mapping, got {type(entry).__name__}")
        paths = _expand(pattern, base_dir)
        if not paths:
            where = "" if Path(pattern).expanduser().is_absolute() else f" (relative to {base_dir})"
            raise ListingError(f"{pattern}: matches no file{where}")
        if name is not None and len(paths) > 1:
            raise ListingError(
                f"{pattern}: 'name: {name}' given but the pattern matches "
                f"{len(paths)} files; drop 'name' or list them one by one"
            )
        found += [
            (path, name.strip() if name is not None else None, fmt, dict(columns), sheet) for path in paths
        ]
    found = _once_each(found)
    names = _unique_names([f[0] for f in found], [f[1] for f in found], base_dir)
    specs: list[ListingSpec] = []
    seen: dict[str, Path] = {}
    for (path, given, fmt, columns, sheet), spec_name in zip(found, names):
        if not spec_name or any(ch in spec_name for ch in ";/\\{}"):
            raise ListingError(
                f"{path}: listing name {spec_name!r} must be non-empty and "
                f"contain no ';', '/', '\\' or braces"
            )
        if spec_name in seen:
            raise ListingError(
                f"{path}: listing name {spec_name!r} is also used by "
                f"{seen[spec_name]}; give " + ("it another 'name'" if given else "one of them a 'name'")
            )
        seen[spec_name] = path
        specs.append(ListingSpec(spec_name, path, fmt, columns, sheet))
    return specs


def _once_each(found: list[tuple]) -> list[tuple]:
    """A file matched by two entries (`seeds/*.txt` and `seeds/a.txt`) is read once: with the
    settings of the entry that gives some (name, format, columns, sheet), else the first; two entries
    giving different settings for one file is an error naming it."""
    kept: dict[str, int] = {}
    out: list[tuple] = []
    for item in found:
        path, *settings = item
        key = os.path.normcase(os.path.realpath(path))
        if key not in kept:
            kept[key] = len(out)
            out.append(item)
            continue
        _, *earlier = out[kept[key]]
        plain = [None, None, {}] + [None] * (len(settings) - 3)  # no name, format, columns, sheet
        if settings == earlier or settings == plain:
            continue
        if earlier == plain:
            out[kept[key]] = item
            continue
        raise ListingError(
            f"{path}: listed twice under 'listings' with different name, format or columns; list it once"
        )
    return out


def relative_to_folder(path: str | Path, folder: Path) -> Path:
    """`path` as seen from the corpus folder when it lies under it (`..` kept as written), else
    unchanged. Snakemake records a job's input paths and params: relative ones stay the same when
    the folder is moved, copied or reached by another path, so nothing reruns for that."""
    path = Path(path)
    try:
        return path.relative_to(folder) if path.is_absolute() else path
    except ValueError:
        return path


def _unique_names(paths: list[Path], given: list[str | None], base_dir: Path) -> list[str]:
    """Names from file names; files of the same name (a `**` glob) get their parent folders.

    `2024/accepted.csv` and `2025/accepted.csv` become `2024-accepted` and `2025-accepted`
    (folders relative to the working directory); a name given in the config never changes.
    """
    names = [g if g is not None else listing_name(p) for p, g in zip(paths, given)]
    parents = []
    for path in paths:
        try:
            parts = path.parent.relative_to(base_dir).parts
        except ValueError:
            parts = tuple(part for part in path.parent.parts if part not in ("/", "\\"))
        parents.append([listing_name(part) for part in parts])
    derived = [i for i, g in enumerate(given) if g is None]
    for depth in range(1, 64):
        counts: dict[str, int] = {}
        for n in names:
            counts[n] = counts.get(n, 0) + 1
        clashing = [i for i in derived if counts[names[i]] > 1 and len(parents[i]) >= depth]
        if not clashing:
            break
        for i in clashing:
            names[i] = "-".join([*parents[i][-depth:], listing_name(paths[i])])
    return names


# Folders the pipeline writes: a glob such as `**/*.csv` must not read its own results.
_OWN_FOLDERS = ("results", ".snakemake")


def _expand(pattern: str, base_dir: Path) -> list[Path]:
    full = Path(pattern).expanduser()
    rel = not full.is_absolute()
    literal = base_dir / full if rel else full
    if not glob.has_magic(pattern) or literal.is_file():
        # `accepted[1].txt` is a file name, not a character class, when that file exists
        return [literal] if literal.is_file() else []
    root = str(base_dir) if rel else None
    matches = sorted(glob.glob(str(full) if not rel else pattern, root_dir=root, recursive=True))
    paths = [base_dir / m if rel else Path(m) for m in matches]
    return [p for p in paths if p.is_file() and not _in_own_folder(p, base_dir)]


def _in_own_folder(path: Path, base_dir: Path) -> bool:
    for inside, base in ((path, base_dir), (path.resolve(), base_dir.resolve())):
        try:
            parts = inside.relative_to(base).parts
        except ValueError:
            continue
        return bool(parts) and parts[0] in _OWN_FOLDERS
    return False


def normalise_format(fmt: Any, error) -> str:
    """The registry's name for `fmt` ('bib', '.bib', 'BibTeX' -> 'bibtex'); `error(msg)` else."""
    found = lookup(fmt)
    if found is None:
        raise error(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
    return found.name
