"""A corpus folder's config.yaml for `papertopics run LISTING...`: written once naming the
listings when the folder has none, else checked to name them (never rewritten)."""

from __future__ import annotations

import glob
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from papertopics.errors import CliError


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
