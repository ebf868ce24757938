"""Repairs of a delimited file the strict reading refuses (formats/delimited.py): quotes
inside quoted fields that are not doubled (IEEE Xplore, hand-edited files), and a column the
header does not name (older Scopus exports)."""

from __future__ import annotations

import re

from papertopics.errors import ListingError

_RE_QUOTES = re.compile('"+')


def unnamed_column(header, records, widths, path, exact, notes):
    """(header, records) with the column the header does not name, where records are wider."""
    wide = next(((where, row) for where, row in records if len(row) > len(header)), None)
    if not wide:
        return header, records
    # old Scopus: every row one field more than the header, the last unnamed, mostly empty
    blank = sum(len(row) == len(header) for _, row in records)  # its empty field dropped
    if widths == {len(header) + 1} and 2 * blank > len(records):
        return [*header, f"column {len(header) + 1}"], records
    return _unnamed_mid_row(header, records, wide, path, exact, notes)


_RE_NUMBERED = re.compile(r"(.*\S)\s+1")


def _unnamed_mid_row(header, records, wide, path, exact, notes):
    """Older Scopus CSVs: the header names "Funding Text 1" but not the "Funding Text 2" that
    records with a second funding text hold beside it, so those records are one field wider
    than the header from there on. The one column numbered 1 without a 2 in the header is where
    the unnamed column stands: it is read as "column N" (empty in the narrower records) when
    the header's last column then holds values alike in the wide and the narrow records (an
    EID is an EID); anything else stays the error naming the first wide record."""
    stems = [m.group(1) for name in header if (m := _RE_NUMBERED.fullmatch(name))]
    lone = [s for s in stems if f"{s} 2" not in header]
    if exact or len(lone) != 1:
        refuse_fields(path, *wide, header)
    at = header.index(f"{lone[0]} 1") + 1
    wider = [row for _, row in records if len(row) > len(header)]
    narrow = [row for _, row in records if len(row) == len(header)]
    if narrow and not {_shape(r[-1]) for r in wider} & {_shape(r[-1]) for r in narrow}:
        refuse_fields(path, *wide, header)
    name = f"column {at + 1}"
    notes.append(
        f"the header names {len(header)} columns, {len(wider)} of {len(records)} records hold "
        f"{len(header) + 1}: the column after {header[at - 1]!r} has no name (Scopus's "
        f"{lone[0] + ' 2'!r}); read as {name!r}"
    )
    header = [*header[:at], name, *header[at:]]
    records = [(w, row if len(row) == len(header) else [*row[:at], "", *row[at:]]) for w, row in records]
    return header, records


def _shape(value: str) -> str:
    """A value's look, to tell one column's values from another's: `2-s2.0-85` -> `9-a9.9-99`."""
    return re.sub(r"\d+", "9", re.sub(r"[^\W\d_]+", "a", value.strip()[:10]))


def double_stray_quotes(text: str, delimiter: str, doubled: bool = True) -> str:
    """`text` with every quote inside a quoted field that is neither doubled nor followed by a
    delimiter or a line end doubled: IEEE Xplore's and hand-edited files' `"a "stray" word"`
    become `"a ""stray"" word"`. A quote that does end a field stays; the strict reader then
    says whether the records still have the header's fields (read_delimited).
    doubled=False, for a file that never doubles a quote (IEEE Xplore: `"... on "Computer as a
    Tool""`): of a run of quotes before a delimiter or a line end only the last ends the field,
    the others are text."""
    out: list[str] = []
    ends = (delimiter, "\r", "\n", "")
    boundary = re.compile(f'[{re.escape(delimiter)}\r\n"]')
    i, n, quoted, at_start = 0, len(text), False, True
    while i < n:
        if quoted:
            j = text.find('"', i)
            if j < 0:
                out.append(text[i:])
                break
            out.append(text[i:j])
            after = text[j + 1 : j + 2]
            if not doubled:
                run = _RE_QUOTES.match(text, j).end() - j  # the quotes from j on
                if text[j + run : j + run + 1] in ends:  # the last one ends the field
                    out.append('""' * (run - 1) + '"')
                    quoted, i = False, j + run
                else:
                    out.append('""' * run)
                    i = j + run
                continue
            if after == '"':
                out.append('""')
                i = j + 2
            elif after in ends:
                out.append('"')
                quoted, i = False, j + 1
            else:
                out.append('""')
                i = j + 1
            continue
        if at_start and text[i] == '"':
            out.append('"')
            quoted, at_start, i = True, False, i + 1
            continue
        m = boundary.search(text, i)
        if m is None:
            out.append(text[i:])
            break
        j = m.start()
        if text[j] == '"':  # a quote inside an unquoted field: text as it stands
            out.append(text[i : j + 1])
            at_start, i = False, j + 1
            continue
        out.append(text[i : j + 1])
        at_start, i = True, j + 1
    return "".join(out)


def refuse_fields(path, where, row, header) -> None:
    raise ListingError(
        f"{path}: {where}: {len(row)} fields, the header has {len(header)} (a stray delimiter or quote?)"
    )
