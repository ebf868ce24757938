"""Which source column is the abstract, the title, the id; the rest carried along as text.

Rules in docs/listings.md ("Columns").
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from papertopics.errors import ListingError

__all__ = [
    "BASE_COLUMNS",
    "ID_COLUMNS",
    "METADATA_COLUMNS",
    "TEXT_COLUMNS",
    "TITLE_COLUMNS",
    "plan_columns",
    "value_text",
]

# auto-detected source columns, in order of preference (matched case-insensitively)
TEXT_COLUMNS = ("abstract", "text", "summary")
TITLE_COLUMNS = ("title", "document title", "article title")
ID_COLUMNS = ("id", "uid")
BASE_COLUMNS = ("doc_id", "listing", "title", "text_raw", "text")
# metadata columns the outputs read by name (the workbook's authors and url columns, the
# report's links): a source column named so in other capitals ("Authors", "URL") is carried
# under that name; any other column keeps its own ("Year" stays "Year")
METADATA_COLUMNS = ("authors", "url")
_ROLES = ("text", "title", "id")
_RESERVED = frozenset(BASE_COLUMNS) | {"listings", "id"}


def value_text(v: Any) -> str:
    """Metadata value as text: lists joined with '; ', objects and nested lists as JSON."""
    if v is None:
        return ""
    if isinstance(v, str):
        return v
    if isinstance(v, (list, tuple)):
        return "; ".join(s for s in map(_scalar, v) if s)
    return _scalar(v)


def _scalar(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, str):
        return v
    if isinstance(v, (dict, list, tuple)):
        try:
            return json.dumps(v, ensure_ascii=False)
        except (RecursionError, ValueError):
            return ""
    if isinstance(v, float) and v != v:  # NaN
        return ""
    return str(v)


def _find(columns: list[str], wanted: str, path: Path | None = None) -> str | None:
    """The column named `wanted`, else the one named so in other capitals; two such (`Abstract`,
    `ABSTRACT`) and none exact is an error naming both."""
    if wanted in columns:
        return wanted
    low = wanted.strip().casefold()
    matches = [c for c in columns if str(c).strip().casefold() == low]
    if len(matches) > 1:
        raise ListingError(
            f"{path}: columns {', '.join(map(repr, matches))} differ only in capitals; which is "
            f"{wanted!r} is ambiguous: rename one, or name it under 'columns:' in config.yaml"
        )
    return matches[0] if matches else None


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
        # detected: the first of abstract/text/summary found, and per record the next ones when
        # a record lacks it (a listing merged from sources that name the field differently)
        detected = [c for c in (_find(found, w, path) for w in TEXT_COLUMNS) if c]
        roles["text"] = detected[0] if detected else None
        text_fallbacks = detected[1:]
    for role, candidates in (("title", TITLE_COLUMNS), ("id", ID_COLUMNS)):
        if role not in roles:
            roles[role] = next((c for c in (_find(found, w, path) for w in candidates) if c), None)
    if roles["text"] is None:
        raise ListingError(
            f"{path}: no text column (looked for {', '.join(TEXT_COLUMNS)}); "
            f"columns found: {shown or '(none)'}; set 'columns: {{text: ...}}'"
        )
    used = {c for c in roles.values() if c} | {c for _, c in extras}
    taken = {o for o, _ in extras}
    claimed = taken | set(renamed.values()) | {str(c) for c in found}
    for col in found:
        if col in used:
            continue
        out = renamed.get(col) or str(col).strip() or "column"
        if col not in renamed and out.casefold() in METADATA_COLUMNS and out.casefold() not in claimed:
            out = out.casefold()  # "Authors" -> "authors", as the workbook and report read it
            claimed.add(out)
        if out in _RESERVED or out in taken:
            out = f"src_{out}"
        while out in _RESERVED or out in taken:
            out += "_"
        taken.add(out)
        extras.append((out, col))
    text = [roles["text"], *text_fallbacks] if text_fallbacks else roles["text"]
    return text, roles["title"], roles["id"], extras
