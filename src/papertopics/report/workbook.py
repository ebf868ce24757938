"""results/topics/topics.xlsx: the topics and their papers as an Excel workbook, for programme chairs.

Sheets written by XlsxWriter: `topics` (id, name, size, share, terms, cohesion, region, coverage where
topics.csv has it) and `documents` (title, authors, topic, name, assignment, confidence, url,
listings, doc_id; columns the listings lack are left out), and where the listing has dates,
venues, authors, citations or affiliations `over time`, `trends`, `venues and authors`, `authors`,
`thematic map`, `citations`, `most cited`, `main information` and `countries` (described_sheets;
the tables of analyses/registry.py), and `filters` where config.yaml's filters left records
out (filters_sheet: the PRISMA-style count of results/corpus/filters.csv). Every text cell is text: a title
starting with `=` is never a formula (written as a string, formulas off), and characters a
workbook cannot hold (control characters such as the form feed of a JSON-mangled
`\\footnote`) are removed with openpyxl's own ILLEGAL_CHARACTERS_RE. A text longer than a cell
holds is cut with a marker and a warning, never silently (write_workbook).
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

import pandas as pd

from papertopics.report.inputs import read_table

# output column -> source column, in sheet order (None: computed)
TOPIC_COLUMNS = {
    "id": "topic",
    "name": "label",
    "size": "size",
    "share": None,
    "terms": "top_terms",
    "cohesion": "cohesion",
    "coverage": "coverage",
    "region": "region_label",
}
DOCUMENT_COLUMNS = {
    "title": "title",
    "authors": "authors",
    "topic": "topic",
    "name": "topic_label",
    "assignment": "assignment",
    "confidence": "confidence",
    "url": "url",
    "cited_by": "cited_by",  # analyses.citations: a number, empty where the cell held none
    "listings": "listings",
    "doc_id": "doc_id",
}
_NUMBERS = (
    "topic", "count", "total", "share", "size", "first_year", "last_year",
    "centrality", "density", "n_keywords",
)  # fmt: skip
_NUMBERS += ("undated", "dispersion")  # topic_trends.csv: papers in no period, the quasi-binomial scale
_NUMBERS += ("rank", "papers_counted", "citations_total", "citations_median", "per_year_median")
_NUMBERS += ("cited_by", "per_year", "ntc", "as_of_year")  # topic_citations.csv, most_cited.csv
_NUMBERS += ("papers", "papers_fractionalised")  # authors.csv
EXCEL_MAX_CELL = 32_767  # characters Excel shows in one cell
TRUNCATED = " … [truncated: {n} characters]"  # the end of a cell cut to EXCEL_MAX_CELL
log = logging.getLogger(__name__)
_WIDTHS = {"name": 40, "terms": 60, "title": 70, "authors": 40, "url": 40, "region": 30}


def read_tables(topics_csv: str | Path, documents_csv: str | Path) -> tuple[pd.DataFrame, pd.DataFrame]:
    """topics.csv and document_topics.csv with text read as text ("NA" stays "NA")."""
    return read_table(topics_csv), read_table(documents_csv)


def workbook_sheets(topics: pd.DataFrame, documents: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """The two sheets as tables (typed: ids and sizes integers, shares and scores floats)."""
    n = len(documents)
    sheet = pd.DataFrame()
    for out, src in TOPIC_COLUMNS.items():
        if out == "share":
            sheet[out] = pd.to_numeric(topics["size"]) / n if n else 0.0
        elif src in topics.columns:
            sheet[out] = topics[src]
    for col in ("id", "size"):
        sheet[col] = pd.to_numeric(sheet[col]).astype(int)
    for col in ("cohesion", "coverage"):
        if col in sheet.columns:
            sheet[col] = pd.to_numeric(sheet[col].replace("", None), errors="coerce")
    if "terms" in sheet.columns:
        sheet["terms"] = sheet["terms"].str.replace(";", ",", regex=False)
    docs = pd.DataFrame({out: documents[src] for out, src in DOCUMENT_COLUMNS.items() if src in documents})
    docs["topic"] = pd.to_numeric(docs["topic"]).astype(int)
    for col in ("confidence", "cited_by"):
        if col in docs.columns:
            docs[col] = pd.to_numeric(docs[col].replace("", None), errors="coerce")
    return {"topics": sheet, "documents": docs}


def described_sheets(paths: dict[str, str | Path]) -> dict[str, pd.DataFrame]:
    """describe_topics' tables (analyses/registry.py: over time, trends, venues and authors,
    authors, thematic map, citations, most cited, main information, countries) as sheets, in the
    registry's order, numbers typed (_NUMBERS, the suffixes below, and each table's own `numbers`);
    an empty table (a listing without dates, venues, authors or affiliations) gives no sheet.
    Main information's values stay as the CSV writes them ("2018 : 2019" beside "500": one
    column of text, as its figures are mixed)."""
    from papertopics.analyses.registry import tables

    sheets = {}
    for table in tables():
        if not table.sheet or not paths.get(table.name) or not Path(paths[table.name]).is_file():
            continue
        frame = read_table(paths[table.name])
        if frame.empty:
            continue
        for column in frame.columns:
            if (
                column in _NUMBERS
                or column in table.numbers
                or column.endswith(("_value", "_per_year", "_error", "_low", "_high"))
            ):
                frame[column] = pd.to_numeric(frame[column].replace("", None), errors="coerce")
        sheets[table.sheet] = frame
    return sheets


def write_workbook(path: str | Path, sheets: dict[str, pd.DataFrame]) -> dict[tuple[str, str], list[int]]:
    """Write the sheets (header row frozen, filters on) through a temporary name.

    A text longer than an Excel cell holds (32,767 characters: an author list of a
    thousand-author paper) is cut with a marker at its end (fit_cell), never silently; one
    warning per sheet and column names the rows. Returns those rows by (sheet, column).

    XlsxWriter rather than openpyxl: it streams rows without a cell object each (openpyxl
    without lxml took about twice as long on NeurIPS 2023), and with strings_to_formulas off
    a string is always written as a string, so no cell is ever a formula."""
    import xlsxwriter
    from openpyxl.cell.cell import ILLEGAL_CHARACTERS_RE

    path = Path(path)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    cut: dict[tuple[str, str], list[int]] = {}
    options = {
        "strings_to_formulas": False,
        "strings_to_urls": False,
        "strings_to_numbers": False,
        "nan_inf_to_errors": True,
        "constant_memory": True,
    }
    try:
        with xlsxwriter.Workbook(str(tmp), options) as book:
            bold = book.add_format({"bold": True})
            for name, table in sheets.items():
                ws = book.add_worksheet(name)
                ws.freeze_panes(1, 0)
                for i, column in enumerate(table.columns):
                    ws.set_column(i, i, _WIDTHS.get(column, 12))
                    ws.write_string(0, i, str(column), bold)
                if len(table.columns):
                    ws.autofilter(0, 0, len(table), len(table.columns) - 1)
                columns = [(table[c].dtype.kind in "iuf", table[c].tolist()) for c in table.columns]
                for r in range(len(table)):
                    for c, (numeric, values) in enumerate(columns):
                        value = values[r]
                        if numeric:
                            if value == value:  # NaN: an empty cell
                                ws.write_number(r + 1, c, value)
                        elif value is not None and value != "":
                            text = ILLEGAL_CHARACTERS_RE.sub("", str(value))
                            if len(text) > EXCEL_MAX_CELL:
                                text = fit_cell(text)
                                cut.setdefault((name, table.columns[c]), []).append(r + 2)
                            ws.write_string(r + 1, c, text)  # text, even when it starts with "="
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)
    for (sheet, column), rows in cut.items():
        shown = ", ".join(map(str, rows[:5])) + (f" and {len(rows) - 5} more" if len(rows) > 5 else "")
        log.warning(
            "%s: %d cell%s of sheet '%s', column '%s' (row%s %s) longer than Excel's %s-character "
            "limit: cut, ending in '%s'; the CSV beside it has the whole text",
            path.name,
            len(rows),
            "s" if len(rows) != 1 else "",
            sheet,
            column,
            "s" if len(rows) != 1 else "",
            shown,
            f"{EXCEL_MAX_CELL:,}",
            TRUNCATED.format(n="N"),
        )
    return cut


def fit_cell(text: str) -> str:
    """Text cut to Excel's cell limit, its end saying so: `... [truncated: 57,778 characters]`."""
    if len(text) <= EXCEL_MAX_CELL:
        return text
    marker = TRUNCATED.format(n=f"{len(text):,}")
    return text[: EXCEL_MAX_CELL - len(marker)] + marker


def pinned_sheet(path) -> pd.DataFrame:
    """The workbook's `pinned` sheet from results/topics/pinned.csv: one row per pinned paper,
    the topic in a column, nearest first (empty without pinned topics)."""
    table = read_table(path)
    if not len(table):
        return table
    for column in ("topic", "rank"):
        table[column] = pd.to_numeric(table[column]).astype(int)
    table["similarity"] = pd.to_numeric(table["similarity"], errors="coerce")
    return table


def filters_sheet(path) -> pd.DataFrame:
    """The workbook's `filters` sheet from results/corpus/filters.csv (records read ->
    duplicates -> each filter -> analysed), counts as numbers; empty when config.yaml sets no
    filter (the table then holds only read, duplicates and analysed)."""
    if not path or not Path(path).is_file():
        return pd.DataFrame()
    table = read_table(path)
    if len(table) <= 3:
        return pd.DataFrame()
    for column in ("removed", "remaining"):
        table[column] = pd.to_numeric(table[column]).astype(int)
    return table
