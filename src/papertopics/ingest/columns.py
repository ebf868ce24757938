"""Which source column is the abstract, the title, the id; the rest carried along as text.

Rules in docs/listings.md ("Columns").
"""

from __future__ import annotations

import json
import re
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

# One table of column spellings per canonical column, shared by CSV, TSV, Excel and JSON (and the
# tagged formats' tags): matched without regard to capitals, spaces, `_`, `-` or `.`, the first
# spelling present wins. Extended from ASReview's (`notes_abstract`, `abstract note`,
# `primary_title`, `first_authors`, `author names`) and synthesisr's RIS/WoS tag lookup (`AB`,
# `N2`, `TI`, `T1`, `PY`, `Y1`, `JO`, `JF`, `T2`, `SO`, `DE`, `KW`). docs/listings.md, "Columns".
SPELLINGS: dict[str, tuple[str, ...]] = {
    "text": (
        "abstract", "text", "summary", "abstract note", "abstractnote", "notes abstract",
        "abstract text", "abstracttext", "abstracts", "ab", "n2", "description",
    ),
    "title": ("title", "document title", "article title", "primary title", "paper title", "ti", "t1"),
    "id": ("id", "uid"),
    "authors": ("authors", "author", "author names", "author full names", "first authors", "creators", "au"),
    "year": ("year", "publication year", "pub year", "publication_year", "pubyear", "py"),
    "date": ("date", "publication date", "pubdate", "date published", "da", "dp", "y1"),
    "journal": (
        "journal", "publication title", "source title", "journal name", "journal title",
        "secondary title", "container title", "jo", "jf", "t2", "so",
    ),
    "keywords": ("keywords", "author keywords", "manual tags", "keywords author", "kw", "de"),
    "index_keywords": (
        "index keywords", "automatic tags", "keywords plus", "mesh terms", "mesh", "mh",
        "ieee terms", "inspec controlled terms", "index terms",
    ),
    "doi": ("doi", "do", "di"),
    "url": ("url", "urls", "link", "ur"),
    # times cited (topics/citations.py): Scopus, OpenAlex, WoS tab-delimited/Excel (Core
    # Collection, as bibliometrix's TC) and plain text (rispy's name for TC), Publish or Perish,
    # Lens, Dimensions, IEEE Xplore
    "cited_by": (
        "cited by", "cited by count", "times cited, wos core", "times cited wos core",
        "wos core collection cited count", "times cited", "cites", "scholarly citation count",
        "article citation count", "citation count", "tc",
    ),
}  # fmt: skip
TEXT_COLUMNS = SPELLINGS["text"]
# how messages name them
TEXT_SHOWN = "abstract, text, summary, Abstract Note, AB, description and other spellings in docs/listings.md"
TITLE_COLUMNS = SPELLINGS["title"]
ID_COLUMNS = SPELLINGS["id"]
BASE_COLUMNS = ("doc_id", "listing", "title", "text_raw", "text")
# metadata columns other formats and the outputs read by name (the workbook's authors and url
# columns, the report's links, the names' keywords): a source column spelled as one of them
# (`Publication Year`, `Manual Tags`) is carried under the canonical name, unless the listing
# has a column of that name already; any other column keeps its own
METADATA_COLUMNS = tuple(k for k in SPELLINGS if k not in ("text", "title", "id"))
_ROLES = ("text", "title", "id")
_RESERVED = frozenset(BASE_COLUMNS) | {"listings", "id"}
_RE_FOLD = re.compile(r"[\s_.\-]+")


def fold_name(name: object) -> str:
    """A column name as the spelling table matches it: `Abstract_Note` -> `abstract note`."""
    return _RE_FOLD.sub(" ", str(name).casefold()).strip()


KNOWN_NAMES = frozenset(fold_name(n) for names in SPELLINGS.values() for n in names)


def spelled(columns: list[str], canonical: str) -> list[str]:
    """The columns spelled as `canonical`'s spellings, in the table's order of preference."""
    by_fold: dict[str, list[str]] = {}
    for c in columns:
        by_fold.setdefault(fold_name(c), []).append(c)
    return [c for name in SPELLINGS[canonical] for c in by_fold.get(fold_name(name), [])]


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
