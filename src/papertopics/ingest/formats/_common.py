"""What every format reader shares: the record list it returns and one-line messages."""

from __future__ import annotations

import warnings
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, NamedTuple

# A reader returns (columns, records): the source's column names in order, and one
# (where, {column: value}) per record, `where` naming it in messages ("line 12", "row 3").
Records = list[tuple[str, dict]]


class ListingWarning(UserWarning):
    """A listing was read, but something in it was skipped, truncated or guessed."""


class ListingChoice(ListingWarning):
    """A choice the reading made among columns or values (which of two year columns, how
    "01/02/2020" or "'19" was read), said in one line like every ListingWarning; `field` names
    the canonical field it is about ("year", "keywords", "columns", ...). read_listing keeps
    each one in the parsed table's `attrs["choices"]` ({"field", "line"}), add_dates in the
    corpus's, so that the report can list them (the data page) as the run's log does."""

    def __init__(self, line: str, field: str = ""):
        super().__init__(line)
        self.field = field


@contextmanager
def choices_kept() -> Iterator[list[dict[str, str]]]:
    """The ListingChoice lines warned inside, as {"field", "line"} in the list it gives; every
    warning is still warned as it was, once the block ends."""
    kept: list[dict[str, str]] = []
    caught: list[warnings.WarningMessage] = []
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield kept
    finally:
        for w in caught:
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno, source=w.source)
            if isinstance(w.message, ListingChoice):
                kept.append({"field": w.message.field, "line": str(w.message)})


def one_line(s: str, limit: int = 80) -> str:
    s = " ".join(str(s).split())
    return s if len(s) <= limit else s[: limit - 3] + "..."


def listing_of(items: Iterable[str], limit: int = 5) -> str:
    items = list(items)
    shown = ", ".join(items[:limit])
    return shown + (f" and {len(items) - limit} more" if len(items) > limit else "")


def columns_of(records: Records, first: Iterable[str] = ()) -> list[str]:
    """Column names over all records (those in `first` first, when any record has them)."""
    keys: dict[str, None] = dict.fromkeys(first)
    for _, rec in records:
        keys.update(dict.fromkeys(rec))
    return [k for k in keys if any(k in rec for _, rec in records)]


def json_type(v: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(v), "a number"
    )


def line_starts(text: str, starts: Iterable[int]) -> list[int]:
    """1-based line numbers of the character offsets `starts` (ascending), counted in one pass."""
    out, line, seen = [], 1, 0
    for offset in starts:
        line += text.count("\n", seen, offset)
        seen = offset
        out.append(line)
    return out


class Parsed(NamedTuple):
    """What a reader returns. columns: the source's column names in order; records: one
        (where, {column: value}) per record, `where` naming it in messages ("line 12", "row 3");
        title: the listing's own title (the text format's header line); roles: the columns a
        format knows to be the abstract ("text"), title or id, or a metadata column under the
        name the other formats give it ({"title": "Document Title", "url": "PDF Link"}), used
        unless config.yaml maps that name or that column; skipped: the records the reader could not
    read, counted as `unparsable` in the listing's one line of records not read."""

    columns: list[str]
    records: Records
    title: str = ""
    roles: dict[str, str] = {}  # a NamedTuple default, never mutated
    skipped: tuple[str, ...] = ()  # records that do not parse, "line 7 (why)": one warning line


@dataclass(frozen=True)
class Format:
    """One listing format: its reader and how a file is recognised as one.

    read(content, path) -> Parsed, where content is the decoded text (BOM removed), or the
    file's bytes for a binary format; readers taking `sheet` get it as a keyword.
    extensions pick the format from a file name; aliases are other names for `format:`;
    a format with `claims` takes a file that the extension gives to one of those formats
    when `sniff(first 64 KiB of text)` says the content is its own (`savedrecs.txt`, WoS plain
    text, is `wos`, not `text`): True, or a note to warn with when the content only looks so.
    """

    name: str
    read: Callable[..., Parsed]
    extensions: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()
    binary: bool = False
    sheets: bool = False
    claims: tuple[str, ...] = ()
    sniff: Callable[[str], bool | str] | None = None
    label: str = ""  # what a file is read as, in messages: "Web of Science plain text"
