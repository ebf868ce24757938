"""CSV and TSV (Excel, Scopus, IEEE Xplore, Google Sheets exports): the first row is the header;
a database's export names its metadata columns as the other formats do (columns.EXPORTS).

The delimiter of a CSV is Excel's `sep=;` first line when there is one, else the one of `,`
`;` TAB `|` that splits the header into the most fields (a quoted header holding a comma
stays one column). A quoted field that runs over a line break and holds what looks like a
whole record is an error naming both lines: a stray quote, not an abstract of two paragraphs.
"""

from __future__ import annotations

import csv
import io
import logging
import re
import warnings
from pathlib import Path

from papertopics.errors import ListingError
from papertopics.ingest.columns import SPELLINGS, export_roles, fold_name
from papertopics.ingest.formats._common import Format, ListingChoice, ListingWarning, Parsed
from papertopics.ingest.formats._repair import double_stray_quotes, refuse_fields, unnamed_column
from papertopics.ingest.formats.text import tabular_note

_LOG = logging.getLogger(__name__)
_RE_SEP_LINE = re.compile(r"\Asep=(.)[ \t]*\r?\n", re.I)
HEADER_SEARCH_LINES = 10  # lines searched for the header below a preamble
_TEXT_FOLDED = frozenset(map(fold_name, SPELLINGS["text"]))
_DELIMITERS = ",;\t|"


def read_csv(text: str, path: Path) -> Parsed:
    skip = _RE_SEP_LINE.match(text)
    if skip:  # Excel's "sep=;": the delimiter, on a line of its own
        return read_delimited(text[skip.end() :], path, skip.group(1), first_line=2)
    above = _preamble_lines(text)
    if above:  # IEEE Xplore (2015-2019) writes the search URL and a timestamp above the header
        cut = 0
        for _ in range(above):
            cut = text.index("\n", cut) + 1
        warnings.warn(
            f"{path}: line {above + 1} is the header; "
            + ("line 1 above it" if above == 1 else f"lines 1-{above} above it")
            + " skipped (they name no column and are not records)",
            ListingWarning,
            stacklevel=3,
        )
        return read_delimited(text[cut:], path, _csv_delimiter(text[cut:]), first_line=above + 1)
    return read_delimited(text, path, _csv_delimiter(text))


def _preamble_lines(text: str) -> int:
    """How many lines stand above the header: the first of the first few lines that names an
    abstract column, when every line above it is a preamble, one that does not look like the
    rows under it (fewer fields than the header: a URL, a date); 0 when none is. A data
    row holding "Text" (a title) is not a header: the header above it has as many fields."""
    lines = [x.rstrip("\r") for x in text.split("\n", HEADER_SEARCH_LINES)[:HEADER_SEARCH_LINES]]
    for k, line in enumerate(lines):
        for d in _DELIMITERS:
            names = _fields(line, d)
            if not {fold_name(f) for f in names} & _TEXT_FOLDED:
                continue
            if k == 0:
                return 0
            if len(names) >= 2 and all(len(_fields(x, d)) < len(names) for x in lines[:k]):
                return k
    return 0


def _fields(line: str, delimiter: str) -> list[str]:
    try:
        return next(csv.reader([line.rstrip("\r")], delimiter=delimiter), [])
    except csv.Error:
        return []


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
    """Records of a delimited text. A quote inside a quoted field that is not doubled (IEEE
    Xplore writes them) stops the strict reading: read again leniently, the quote is kept as
    text, with a warning naming the line, when every record still has the header's fields."""
    kind = "TSV" if delimiter == "\t" else "CSV"
    if not text.strip():
        raise ListingError(f"{path}: empty file")
    csv.field_size_limit(max(csv.field_size_limit(), 1 << 30))
    try:
        header, records, skipped, notes = _read_rows(text, path, delimiter, first_line, quoting, strict=True)
    except csv.Error as e:
        bad, reason = e.args
        strict_error = ListingError(f"{path}: line {bad}: malformed {kind} ({reason})")
        for doubled in (True, False):  # every quote that cannot end its field taken as text
            try:  # then read strictly again, every record as wide as the header
                repaired = double_stray_quotes(text, delimiter, doubled=doubled)
                header, records, skipped, notes = _read_rows(
                    repaired, path, delimiter, first_line, quoting, strict=True, exact=True
                )
                break
            except (ListingError, csv.Error):
                continue
        else:
            raise strict_error from None
        warnings.warn(
            f'{path}: line {bad}: a quote (") inside a field is not doubled; read as text, '
            f"{len(records)} records as the header's {len(header)} columns say",
            ListingWarning,
            stacklevel=4,
        )
    if not records:
        raise ListingError(
            f"{path}: no readable record; {skipped[0]}" if skipped else f"{path}: header row but no records"
        )
    for note in notes:
        warnings.warn(ListingChoice(f"{path}: {note}", field="columns"), stacklevel=4)
    return Parsed(header, records, roles=export_roles(header), skipped=tuple(skipped))


def _read_rows(text, path, delimiter, first_line, quoting, strict, exact=False):
    """(header, records, skipped); csv.Error(line, reason) where the strict reader stops.
    exact (a text whose stray quotes were doubled): every record must end as the first does
    (as many empty fields after the header's last), else a quote moved its text to another
    column; and a field over several lines is checked for a swallowed record (an RFC 4180
    file, read as written, never is: what it says is what it holds)."""
    kind = "TSV" if delimiter == "\t" else "CSV"
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=strict, quoting=quoting)
    header: list[str] | None = None
    records: list[tuple[str, dict]] = []
    skipped: list[str] = []
    short: tuple[str, list[str]] | None = None
    tail: int | None = None  # empty fields after the header's last, in the first record
    widths: set[int] = set()  # the records' field counts as written
    line = first_line
    offset = first_line - 1
    rows = iter(reader)
    while True:
        try:
            row = next(rows)
        except StopIteration:
            break
        except csv.Error as e:
            if "end of data" in str(e):  # a quoted field open at the end: the file is cut
                short = None
                skipped.append(
                    f"line {line} (a quoted field runs to the end of the file: it ends mid-record)"
                )
                break
            raise csv.Error(reader.line_num + offset, str(e)) from None
        start, line = line, reader.line_num + 1 + offset
        where = f"line {start}"
        if not row or all(not c.strip() for c in row):
            continue
        if header is None:
            header = [c.strip() for c in row]
            while len(header) > 1 and not header[-1]:
                header.pop()  # a trailing delimiter after the last name: no column
            _refuse_repeated_columns(header, path, start)
            continue
        if line - start > 1 and (exact or delimiter == "\t"):
            _refuse_swallowed_record(row, header, delimiter, path, start, kind, exact)
        width = len(row)
        while len(row) > len(header) and not row[-1].strip():
            row = row[:-1]  # a trailing delimiter (WoS ends its rows with a TAB; old Scopus, a comma)
        if exact and len(row) == len(header):
            tail = width - len(row) if tail is None else tail
            if width - len(row) != tail:
                raise csv.Error(start, "fields out of step")
        if short:  # a short row that is not the last: misaligned, not cut
            refuse_fields(path, *short, header)
        if len(row) < len(header):
            short = (where, row)  # the last row of a file cut mid-record, unless another follows
            continue
        if len(row) != len(header) and (len(row) != len(header) + 1 or exact):
            refuse_fields(path, where, row, header)
        widths.add(width)
        records.append((where, row))
    if header is None:
        raise ListingError(f"{path}: empty file")
    notes: list[str] = []
    header, records = unnamed_column(header, records, widths, path, exact, notes)
    if short:
        skipped.append(f"{short[0]} ({len(short[1])} of {len(header)} fields: the file ends mid-record)")
    return header, [(where, dict(zip(header, row))) for where, row in records], skipped, notes


def _refuse_swallowed_record(row, header, delimiter, path, start, kind, exact=False) -> None:
    """A quote opened in one field and closed in a later record takes the line break and that
    record into one field. Seen as a field spanning lines that holds a TAB (TSV: abstracts
    have none), or a later line holding quoted-field boundaries (`","`) and as many delimiters
    as a record (CSV: abstracts have commas, not those); `exact` (stray quotes doubled): any quote
    in a field over several lines, as which quote ends that field is a guess."""
    if exact and any("\n" in f and '"' in f for f in row):  # which quote ends it is a guess
        raise csv.Error(start, "a quote in a field over several lines")
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
