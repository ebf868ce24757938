"""The seed text format: a header line, then one abstract per blank-line-separated paragraph
(rules in docs/listings.md, "Text format")."""

from __future__ import annotations

import logging
import re
import warnings
from pathlib import Path

from papertopics.errors import ListingError
from papertopics.ingest.formats._common import Format, ListingWarning, Parsed, one_line

_LOG = logging.getLogger(__name__)

# header rule: see _is_header
HEADER_MAX_CHARS = 120
# one abstract per line (no blank lines between them): lines at least this long are abstracts,
# never the hard-wrapped lines of one abstract (arXiv wraps at 80)
LINE_ABSTRACT_MIN_CHARS = 200
_SENTENCE_END = tuple(".!?。！？…")

# A markdown (ATX) heading: 1-6 '#' then a space or the line's end, as CommonMark defines it.
# "#P-hard problems ..." and "#MeToo ..." are abstracts, not headings.
_RE_HEADING = re.compile(r"^ {0,3}#{1,6}(?:[ \t]|$)")


def read_text(text: str, path: Path) -> Parsed:
    """Paragraphs of the seed format: one record {'text': raw} each; the header is the title."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\u2029", "\n\n")
    text = text.replace("\u2028", "\n").replace("\x0c", "\n")
    paragraphs: list[tuple[int, list[str]]] = []
    current: list[str] = []
    start = 0
    for lineno, line in enumerate(text.split("\n"), 1):
        if line.strip():
            if not current:
                start = lineno
            current.append(line)
        elif current:
            paragraphs.append((start, current))
            current = []
    if current:
        paragraphs.append((start, current))
    if not paragraphs:
        raise ListingError(f"{path}: empty file (no text)")
    header = ""
    start, first = paragraphs[0]
    if (
        len(first) >= 3
        and _is_header(first[:1])
        and all(len(line.strip()) >= LINE_ABSTRACT_MIN_CHARS for line in first[1:])
    ):
        # a header line straight above one abstract per line (a spreadsheet's column name)
        paragraphs[:1] = [(start, first[:1]), (start + 1, first[1:])]
    if _is_header(paragraphs[0][1]):
        header = paragraphs[0][1][0].strip().lstrip("#").strip()
        paragraphs = paragraphs[1:]
        if not paragraphs:
            raise ListingError(
                f"{path}: header {one_line(header, 40)!r} but no abstracts "
                f"(one abstract per blank-line-separated paragraph)"
            )
    records = []
    split: list[int] = []
    headings = 0
    for start, lines in paragraphs:
        if len(lines) == 1 and _RE_HEADING.match(lines[0]):
            headings += 1  # a markdown section heading ("## Oral session"), not an abstract
            continue
        if _lines_are_abstracts(start, lines, len(paragraphs), path):
            split.append(start)
            records += [(f"line {start + k}", {"text": _unquote(line)}) for k, line in enumerate(lines)]
            continue
        records.append((f"line {start}", {"text": "\n".join(lines).strip()}))
    if not records:
        raise ListingError(f"{path}: no abstracts, only headings")
    if headings:
        _LOG.info("%s: skipped %d markdown heading line(s) ('# ...')", path, headings)
    if split:
        n_lines = sum(1 for where, _ in records if int(where.split()[1]) >= split[0])
        warnings.warn(
            f"{path}: no blank lines between abstracts (line {split[0]} on): read "
            f"each line of {LINE_ABSTRACT_MIN_CHARS}+ characters as one abstract "
            f"({n_lines} in all); the text format separates abstracts by a blank "
            f"line",
            ListingWarning,
            stacklevel=4,
        )
    return Parsed(["text"], records, header, {"text": "text"})


def _lines_are_abstracts(start: int, lines: list[str], n_paragraphs: int, path: Path) -> bool:
    """A paragraph of long lines is one abstract per line; half long and half short: stop.

    Two long lines in a file of many paragraphs are one abstract of two paragraphs.
    """
    if len(lines) < 2:
        return False
    n_long = sum(1 for line in lines if len(line.strip()) >= LINE_ABSTRACT_MIN_CHARS)
    if n_long == len(lines) and (len(lines) >= 3 or n_paragraphs == 1):
        return True
    if len(lines) >= 3 and n_long >= 2 and 2 * n_long >= len(lines):
        raise ListingError(
            f"{path}: line {start}: {len(lines)} lines with no blank line between them, "
            f"{n_long} of them over {LINE_ABSTRACT_MIN_CHARS} characters: one abstract per "
            f"line? The text format takes one abstract per blank-line-separated paragraph: "
            f"put a blank line between abstracts, or save the table as .csv or .tsv"
        )
    return False


def _unquote(line: str) -> str:
    """Excel's "Unicode Text" quotes a cell holding a quote and doubles the quote inside."""
    line = line.strip()
    if len(line) >= 2 and line[0] == line[-1] == '"':
        return line[1:-1].replace('""', '"').strip()
    return line


def _looks_tabular(text: str) -> int:
    """Number of tab-separated columns when the first line is a header of them (Excel's
    "Unicode Text" export, saved as .txt), else 0."""
    lines = [line for line in text.lstrip("\ufeff").splitlines()[:50] if line.strip()]
    if len(lines) < 2 or "\t" not in lines[0] or len(lines[0]) > 1000:
        return 0
    n_tabs = lines[0].count("\t")
    names = [c.strip().casefold() for c in lines[0].split("\t")]
    if lines[1].count("\t") != n_tabs and not set(names) & {"abstract", "text", "summary"}:
        return 0
    return n_tabs + 1


def _is_header(lines: list[str]) -> bool:
    """The first paragraph is a header if it is one short line without a sentence end."""
    if len(lines) != 1:
        return False
    line = lines[0].strip()
    if _RE_HEADING.match(line):
        return True
    return len(line) <= HEADER_MAX_CHARS and not line.endswith(_SENTENCE_END)


def tabular_note(head: str) -> str:
    n = _looks_tabular(head)
    return (
        f"read as a tab-separated table: its first line holds {n} tab-separated column names"
        f" (as Excel's \"Unicode Text\" writes); name it .tsv or set 'format: tsv' to silence this"
        if n
        else ""
    )


FORMATS = (
    Format(
        "text",
        read_text,
        extensions=(".txt", ".md", ".markdown", ""),
        aliases=("txt", "md", "markdown"),
        label="one abstract per paragraph",
    ),
)
