"""CSV and TSV (Excel, Scopus, IEEE Xplore, Google Sheets exports): the first row is the header;
a database's export names its metadata columns as the other formats do (_exports.py).

The delimiter of a CSV is Excel's `sep=;` first line when there is one, else the one of `,`
`;` TAB `|` that splits the header into the most fields (a quoted header holding a comma
stays one column). A quoted field that runs over a line break and holds what looks like a
whole record is an error naming both lines: a stray quote, not an abstract of two paragraphs.
"""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

from papertopics.errors import ListingError
from papertopics.ingest.formats._common import Format, Parsed
from papertopics.ingest.formats._exports import export_roles
from papertopics.ingest.formats.text import tabular_note

_RE_SEP_LINE = re.compile(r"\Asep=(.)[ \t]*\r?\n", re.I)
_DELIMITERS = ",;\t|"


def read_csv(text: str, path: Path) -> Parsed:
    skip = _RE_SEP_LINE.match(text)
    if skip:  # Excel's "sep=;": the delimiter, on a line of its own
        return read_delimited(text[skip.end() :], path, skip.group(1), first_line=2)
    return read_delimited(text, path, _csv_delimiter(text))


def read_tsv(text: str, path: Path) -> Parsed:
    return read_delimited(text, path, "\t")


def _csv_delimiter(text: str) -> str:
    """The delimiter that splits the header line into the most fields (',' on a tie)."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    best, most = ",", 1
    for delimiter in _DELIMITERS:
        try:
            n = len(next(csv.reader([first], delimiter=delimiter)))
        except (csv.Error, StopIteration):
            continue
        if n > most:
            best, most = delimiter, n
    return best


def read_delimited(
    text: str, path: Path, delimiter: str, *, first_line: int = 1, quoting: int = csv.QUOTE_MINIMAL
) -> Parsed:
    kind = "TSV" if delimiter == "\t" else "CSV"
    if not text.strip():
        raise ListingError(f"{path}: empty file")
    csv.field_size_limit(max(csv.field_size_limit(), 1 << 30))
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True, quoting=quoting)
    header: list[str] | None = None
    records: list[tuple[str, dict]] = []
    line = first_line
    offset = first_line - 1
    try:
        for row in reader:
            start, line = line, reader.line_num + 1 + offset
            where = f"line {start}"
            if not row or all(not c.strip() for c in row):
                continue
            if header is None:
                header = [c.strip() for c in row]
                _refuse_repeated_columns(header, path, start)
                continue
            if line - start > 1:
                _refuse_swallowed_record(row, header, delimiter, path, start, kind)
            if len(row) == len(header) + 1 and not row[-1].strip():
                row = row[:-1]  # a trailing delimiter (Web of Science ends its rows with a TAB)
            if len(row) != len(header):
                raise ListingError(
                    f"{path}: {where}: {len(row)} fields, the header has "
                    f"{len(header)} (a stray delimiter or quote?)"
                )
            records.append((where, dict(zip(header, row))))
    except csv.Error as e:
        raise ListingError(f"{path}: line {reader.line_num + offset}: malformed {kind} ({e})") from None
    if header is None:
        raise ListingError(f"{path}: empty file")
    if not records:
        raise ListingError(f"{path}: header row but no records")
    return Parsed(header, records, roles=export_roles(header))


def _refuse_swallowed_record(row, header, delimiter, path, start, kind) -> None:
    """A quote opened in one field and closed in a later record takes the line break and that
    record into one field. Seen as a field spanning lines that holds a TAB (TSV: abstracts
    have none), or a later line holding quoted-field boundaries (`","`) and as many delimiters
    as a record (CSV: abstracts have commas, not those)."""
    if len(header) < 2:
        return
    for field in row:
        lines = field.split("\n")
        for k, inner in enumerate(lines[1:], 1):
            n = inner.count(delimiter)
            if delimiter == "\t":
                suspect = n > 0 or delimiter in lines[0]
            else:
                edges = f'"{delimiter}' in inner or f'{delimiter}"' in inner
                suspect = n >= len(header) - 1 and edges
            if suspect:
                raise ListingError(
                    f'{path}: line {start}: a quote (") opens a field here and closes in line '
                    f"{start + k} or later, taking the line break and the next record into one "
                    f'field; remove the stray quote, or double it ("") if it belongs to the text'
                )


def _refuse_repeated_columns(header: list[str], path: Path, line: int = 1) -> None:
    """A column name given twice: which one holds the abstracts is anyone's guess, so say so."""
    seen: dict[str, int] = {}
    for number, name in enumerate(header, 1):
        if name in seen:
            raise ListingError(
                f"{path}: line {line}: column {name!r} appears twice (columns {seen[name]} and {number}); "
                f"rename or delete one of them"
            )
        seen[name] = number


FORMATS = (
    Format("csv", read_csv, extensions=(".csv",), label="a CSV table"),
    Format(
        "tsv",
        read_tsv,
        extensions=(".tsv", ".tab"),
        claims=("text",),
        sniff=tabular_note,
        label="a tab-separated table",
    ),
)
