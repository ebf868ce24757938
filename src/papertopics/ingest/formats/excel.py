"""Excel workbooks via pandas: .xlsx/.xlsm with openpyxl, the old .xls (Web of Science's
"Excel" export) with xlrd; the engine is chosen by the file's first bytes, not its name.

The header is the first row that names a text column (abstract, text, summary, Abstract Note,
...: columns.SPELLINGS; or the one mapped under `columns:`) within the first rows, so a blank
or merged title row above it is passed over (with a note naming the row taken); without such a
row, the first row that is not blank. A sheet without records names the sheets that have some.
"""

from __future__ import annotations

import io
import logging
import warnings
from pathlib import Path

from papertopics.errors import ListingError
from papertopics.ingest.columns import SPELLINGS, TEXT_SHOWN, export_roles, fold_name
from papertopics.ingest.formats._common import Format, Parsed, one_line

_LOG = logging.getLogger(__name__)
_OLE2 = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # the .xls (BIFF) container
HEADER_SEARCH_ROWS = 20  # rows searched for the header
TEXT_NAMES = SPELLINGS["text"]
_TEXT_FOLDED = frozenset(map(fold_name, TEXT_NAMES))


def read_excel(
    data: bytes, path: Path, sheet: str | int | None = None, text_column: str | None = None
) -> Parsed:
    """Records are named by their row in Excel ("row 2" is the first below a header in row 1)."""
    engine, kind = ("xlrd", ".xls") if data.startswith(_OLE2) else ("openpyxl", ".xlsx")
    with warnings.catch_warnings():
        # pandas 3.1 deprecates its xlrd engine for pandas 4 (python-calamine); pyproject keeps pandas<4
        warnings.filterwarnings(
            "ignore", message="The xlrd engine is deprecated", category=DeprecationWarning
        )
        return _read_excel(data, path, sheet, text_column, engine, kind)


def _read_excel(data, path, sheet, text_column, engine, kind) -> Parsed:
    sheets = _read_sheets(data, path, engine, kind, sheet)
    name, rows = next(iter(sheets.items()))
    found = _header_row(rows, text_column)
    if found is None or not any(any(c.strip() for c in row) for row in rows[found + 1 :]):
        raise ListingError(_no_records(path, name, rows, found, sheet, data, engine, text_column))
    header = [c.strip() for c in rows[found]]
    if found and not text_column and not _TEXT_FOLDED & {fold_name(c) for c in header}:
        shown = ", ".join(" ".join(c.split()) for c in header if c)[:200]
        raise ListingError(
            f"{path}: sheet {name!r}: no row of the first {HEADER_SEARCH_ROWS} names a text column "
            f"(looked for {TEXT_SHOWN}); took row {found + 1} as the header: {shown}; "
            f"set 'columns: {{text: ...}}'"
        )
    if found:
        _LOG.info(
            "%s: sheet %r: the header is row %d (rows above it are blank or a title)", path, name, found + 1
        )
    header = [c or f"Unnamed: {i}" for i, c in enumerate(header)]
    records = []
    for i, row in enumerate(rows[found + 1 :], found + 2):
        if not any(c.strip() for c in row):
            continue
        records.append((f"row {i}", dict(zip(header, row))))
    return Parsed(header, records, roles=export_roles(header))


def _read_sheets(data, path, engine, kind, sheet) -> dict[str, list[list[str]]]:
    """{sheet name: rows of cell text} for `sheet` (None: the first)."""
    import zipfile

    import pandas as pd

    try:
        frames = pd.read_excel(
            io.BytesIO(data),
            sheet_name=[0 if sheet is None else sheet],
            header=None,
            dtype=str,
            keep_default_na=False,
            na_filter=False,
            engine=engine,
        )
    except (ValueError, IndexError, KeyError) as e:
        if sheet is not None and ("not found" in str(e) or isinstance(e, IndexError)):
            raise ListingError(
                f"{path}: no sheet {sheet!r}; sheets: {', '.join(_sheet_names(data, engine))}"
            ) from None
        raise ListingError(f"{path}: not readable as {kind} ({one_line(str(e))})") from None
    except (zipfile.BadZipFile, OSError) as e:
        raise ListingError(
            f"{path}: not an Excel workbook ({one_line(str(e))}); save it from Excel as .xlsx or .csv"
        ) from None
    except ImportError as e:
        raise ListingError(f"{path}: reading {kind} needs {e.name or 'xlrd'} (pip install xlrd)") from None
    except Exception as e:  # openpyxl's InvalidFileException, xlrd's XLRDError and the like
        raise ListingError(
            f"{path}: not readable as {kind} ({one_line(str(e) or type(e).__name__)})"
        ) from None
    names = _sheet_names(data, engine)
    out = {}
    for key, frame in frames.items():
        name = names[key] if isinstance(key, int) and key < len(names) else str(key)
        out[name] = [[str(c) for c in row] for row in frame.itertuples(index=False, name=None)]
    return out


def _header_row(rows: list[list[str]], text_column: str | None) -> int | None:
    """The first row naming a text column within the first rows, when the rows above it are a
    preamble (fewer cells filled than it: a title, a date), else the first non-blank one:
    a record titled "Text" under a header naming no text column is no header."""
    wanted = {fold_name(text_column)} if text_column else _TEXT_FOLDED
    for i, row in enumerate(rows[:HEADER_SEARCH_ROWS]):
        if wanted & {fold_name(c) for c in row}:
            width = sum(1 for c in row if c.strip())
            if all(sum(1 for c in above if c.strip()) < width for above in rows[:i]):
                return i
            break
    return next((i for i, row in enumerate(rows) if any(c.strip() for c in row)), None)


def _no_records(path, name, rows, found, sheet, data, engine, text_column) -> str:
    what = "empty sheet" if found is None else "header row but no records"
    where = f"sheet {name!r}: " if sheet is not None or len(_sheet_names(data, engine)) > 1 else ""
    others = []
    if sheet is None:
        for other in _sheet_names(data, engine)[1:]:
            try:
                rows = next(iter(_read_sheets(data, path, engine, "", other).values()))
            except ListingError:
                continue
            head = _header_row(rows, text_column)
            n = 0 if head is None else sum(1 for r in rows[head + 1 :] if any(c.strip() for c in r))
            if n:
                others.append(f"{other!r} ({n} rows)")
    hint = f"; sheets with records: {', '.join(others)}: set 'sheet' in the listing entry" if others else ""
    return f"{path}: {where}{what}{hint}"


def _sheet_names(data: bytes, engine: str) -> list[str]:
    import pandas as pd

    with pd.ExcelFile(io.BytesIO(data), engine=engine) as book:
        return [str(s) for s in book.sheet_names]


FORMATS = (
    Format("xlsx", read_excel, extensions=(".xlsx", ".xlsm"), aliases=("excel",), binary=True, sheets=True),
    Format("xls", read_excel, extensions=(".xls",), binary=True, sheets=True),
)
