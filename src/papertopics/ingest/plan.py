"""Which source column of a listing is the abstract, the title, the id, and which canonical
metadata name each other column is carried under: the spellings in ingest/columns.py applied
to one file's columns. Rules in docs/listings.md ("Columns")."""

from __future__ import annotations

import warnings
from pathlib import Path

from papertopics.errors import ListingError
from papertopics.ingest.columns import (
    BASE_COLUMNS,
    BLANK_IS_ZERO,
    METADATA_COLUMNS,
    SPELLINGS,
    TEXT_SHOWN,
    fold_name,
    spelled,
    value_text,
)
from papertopics.ingest.formats._common import ListingChoice

__all__ = ["first_filled", "plan_columns", "say_fallbacks"]

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


def plan_columns(
    found: list[str],
    mapping: dict[str, str],
    path: Path,
    known: dict[str, str] | None = None,
    per_row: bool = True,
):
    """-> (text_col, title_col, id_col, [(out_name, src_col)]) for the source columns; text_col
    is a list (first non-empty wins, per record) when several text columns were detected.
    `known`: the columns the format names ({"text": "text"}, {"url": "PDF Link"}), taken
    unless `mapping` names that output or that column. per_row (a table's columns, not a
    tagged format's, whose reader took the first tag present): a canonical column that two
    columns spell is read per row from the first that has it (`_fallbacks`)."""
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
    return text, roles["title"], roles["id"], _fallbacks(found, extras, named) if per_row else extras


# fields a second spelling fills per row ("Year" beside "Publication Year"); the authors are
# topics.sources' (full names per row), the abstract's own fallbacks are the text columns'
_NO_FALLBACK = frozenset({"authors", "author_full_names"})


def _fallbacks(found: list[str], extras: list[tuple[str, str]], named: set[str]):
    """extras with each canonical metadata column that another column also spells ("Year" and
    "Publication Year", "Keywords" and "Author Keywords", "Cited by" and "Times Cited") as the
    list [the chosen column, the others in the table's order]: a row without the first takes
    the next that it has (ingest.listings._frame says so in one line). A column config.yaml
    maps is read alone."""
    out: list[tuple[str, str | list[str]]] = []
    for name, col in extras:
        alone = name in named or name in _NO_FALLBACK or name not in SPELLINGS
        others = [c for c in dict.fromkeys([] if alone else spelled(found, name)) if c != col]
        out.append((name, [col, *others] if others else col))
    return out


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


def first_filled(rec: dict, cols: str | list[str], name: str, counts: dict) -> str:
    """The record's value of `cols`, one column or the first of several that it fills (a field
    two columns spell); `counts` keeps, per (name, column), the rows that took a later column
    and (name, None) the rows whose columns hold different values (the first kept)."""
    if isinstance(cols, str):
        return value_text(rec.get(cols))
    values = [value_text(rec.get(col)) for col in cols]
    filled = [(col, v) for col, v in zip(cols, values, strict=True) if v.strip()]
    if not filled:
        return ""
    col, value = filled[0]
    if col != cols[0]:
        counts[(name, col)] = counts.get((name, col), 0) + 1
    elif any(v.strip() != value.strip() for _, v in filled[1:]):
        counts[(name, None)] = counts.get((name, None), 0) + 1
    return value


def say_fallbacks(path, extras, counts: dict) -> None:
    """One line per field that several columns spell, naming them, when it mattered: rows that
    took a later column, rows whose columns disagree."""
    for name, cols in extras:
        if not isinstance(cols, list):
            continue
        took = [(c, counts.get((name, c), 0)) for c in cols[1:]]
        differ = counts.get((name, None), 0)
        if not differ and not any(n for _, n in took):
            continue  # the same values, or the later columns never needed: no choice was made
        shown = ", ".join(map(repr, cols[:-1])) + f" and {cols[-1]!r}"
        said = ", ".join(f"{n} row(s) from {c!r}" for c, n in took)
        said += f"; {differ} row(s) whose columns differ keep {cols[0]!r}" if differ else ""
        warnings.warn(
            ListingChoice(
                f"{path}: columns {shown} {'both' if len(cols) == 2 else 'all'} spell {name}: each row "
                f"reads {cols[0]!r}, where it is empty the next: {said}",
                field=name,
            ),
            stacklevel=4,
        )


class BlankZeroes:
    """The columns of a listing that write no 0 (columns.BLANK_IS_ZERO: IEEE Xplore's empty
    "Article Citation Count" is an uncited paper): their empty cells read as 0, counted, and said
    in one line. A field may have several spellings (first_filled); the one that writes no 0 counts."""

    def __init__(self, extras):
        self.column = {
            name: col
            for name, cols in extras
            for col in ([cols] if isinstance(cols, str) else cols)
            if fold_name(col) in BLANK_IS_ZERO.get(name, ())
        }
        self.counts = dict.fromkeys(self.column.values(), 0)

    def fill(self, name: str, value: str) -> str:
        if name in self.column and not value.strip():
            self.counts[self.column[name]] += 1
            return "0"
        return value

    def say(self, path, log) -> None:
        for col, count in self.counts.items():
            if count:
                log.info(
                    "%s: %d empty %r cell(s) read as 0 citations: the export writes none for 0",
                    path,
                    count,
                    col,
                )
