"""Which source column of a listing is the abstract, the title, the id, and which canonical
metadata name each other column is carried under: the spellings in ingest/columns.py applied
to one file's columns. Rules in docs/listings.md ("Columns")."""

from __future__ import annotations

from pathlib import Path

from papertopics.errors import ListingError
from papertopics.ingest.columns import (
    BASE_COLUMNS,
    METADATA_COLUMNS,
    SPELLINGS,
    TEXT_SHOWN,
    fold_name,
    spelled,
)

__all__ = ["plan_columns"]

_ROLES = ("text", "title", "id")
_RESERVED = frozenset(BASE_COLUMNS) | {"listings", "id"}


def _find(columns: list[str], wanted: str, path: Path | None = None) -> str | None:
    """The column named `wanted`, else the one spelled so in other capitals, spacing or
    underscores; two such (`Abstract`, `ABSTRACT`) and none exact is an error naming both."""
    if wanted in columns:
        return wanted
    low = fold_name(wanted)
    matches = [c for c in columns if fold_name(c) == low]
    if len(matches) > 1:
        raise ListingError(
            f"{path}: columns {', '.join(map(repr, matches))} differ only in capitals or spacing; which is "
            f"{wanted!r} is ambiguous: rename one, or name it under 'columns:' in config.yaml"
        )
    return matches[0] if matches else None


def _detect(found: list[str], canonical: str, path: Path) -> list[str]:
    """The columns spelled as `canonical`, in the table's order (each spelling found once)."""
    out: list[str] = []
    for name in SPELLINGS[canonical]:
        col = _find(found, name, path)
        if col is not None and col not in out:
            out.append(col)
    return out


def plan_columns(found: list[str], mapping: dict[str, str], path: Path, known: dict[str, str] | None = None):
    """-> (text_col, title_col, id_col, [(out_name, src_col)]) for the source columns; text_col
    is a list (first non-empty wins, per record) when several text columns were detected.
    `known`: the columns the format names ({"text": "text"}, {"url": "PDF Link"}), taken
    unless `mapping` names that output or that column."""
    roles: dict[str, str | None] = {}
    extras: list[tuple[str, str]] = []
    shown = ", ".join(" ".join(str(c).split()) for c in found[:30]) + (" ..." if len(found) > 30 else "")
    for out, src in mapping.items():
        col = _find(found, src, path)
        if col is None:
            raise ListingError(f"{path}: column {src!r} (columns.{out}) not found; columns found: {shown}")
        if out in ("text", "abstract"):
            roles["text"] = col
        elif out in ("title", "id"):
            roles[out] = col
        else:
            extras.append((out, col))
    mapped = {c for c in roles.values() if c} | {c for _, c in extras}
    named = {o for o, _ in extras}  # output names the mapping gives
    renamed: dict[str, str] = {}  # source column -> the metadata name the format knows it by
    for role, col in (known or {}).items():
        if col not in found or col in mapped:
            continue
        if role in _ROLES:
            roles.setdefault(role, col)
        elif role not in named and role not in found and role not in renamed.values() and col not in renamed:
            renamed[col] = role
    text_fallbacks: list[str] = []
    if "text" not in roles:
        # detected: the first spelling found, and per record the next ones when a record lacks
        # it (a listing merged from sources that name the field differently)
        detected = _detect(found, "text", path)
        roles["text"] = detected[0] if detected else None
        text_fallbacks = detected[1:]
    for role in ("title", "id"):
        if role not in roles:
            roles[role] = next(iter(_detect(found, role, path)), None)
    if roles["text"] is None:
        raise ListingError(
            f"{path}: no text column (looked for {TEXT_SHOWN}); "
            f"columns found: {shown or '(none)'}; set 'columns: {{text: ...}}'"
        )
    used = {c for c in roles.values() if c} | {c for _, c in extras}
    taken = {o for o, _ in extras}
    _canonical_names(found, used, renamed, taken)
    for col in found:
        if col in used:
            continue
        out = renamed.get(col) or str(col).strip() or "column"
        if out in _RESERVED or out in taken:
            out = f"src_{out}"
        while out in _RESERVED or out in taken:
            out += "_"
        taken.add(out)
        extras.append((out, col))
    text = [roles["text"], *text_fallbacks] if text_fallbacks else roles["text"]
    return text, roles["title"], roles["id"], extras


def _canonical_names(found: list[str], used: set[str], renamed: dict[str, str], taken: set[str]) -> None:
    """Give each canonical metadata name (`year`, `journal`, `keywords`, ...) to the first
    column spelled as it (`Publication Year`, `Manual Tags`), unless a column, the format or
    config.yaml gives that name already."""
    claimed = taken | set(renamed.values()) | {str(c) for c in found}
    free = [c for c in found if c not in used and c not in renamed]
    for canonical in METADATA_COLUMNS:
        if canonical in claimed:
            continue
        col = next(iter(spelled(free, canonical)), None)
        if col is not None:
            renamed[col] = canonical
            claimed.add(canonical)
            free.remove(col)
