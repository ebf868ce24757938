"""Main information (main_information.csv): the first table of a bibliometric study, each figure
computed as bibliometrix 5.2.1's `biblioAnalysis` and `summary` compute its "MAIN INFORMATION
ABOUT DATA" (R/biblioAnalysis.R, R/summary.bibliometrix.R), on the analysed documents.

The formulas (bibliometrix's lines in brackets; ../shared/data/reference/bibliometrix/NOTES.md):
- Timespan: min : max of the years (`min(object$Years, na.rm = T)`, summary).
- Sources: distinct sources, commas removed, case folded (`SO = gsub(",", "", M$SO)`,
  `table(SO)`, biblioAnalysis; convert2df upper-cases every field).
- Documents: the number of documents (`Articles = dim(M)[1]`).
- Annual growth rate %: `Y <- table(Years); ny <- diff(range(years)); CAGR <- round(((Y[last] /
  Y[1])^(1/ny) - 1) * 100, 2)` (summary): the compound growth from the first year's count to the
  last year's, over the years between (empty for a single year).
- Document average age: `as.numeric(substr(Sys.time(), 1, 4)) - mean(Years, na.rm = TRUE)`
  (summary), with the as-of year stated in the table (bibliometrix's is the year it runs).
- Average citations per doc: `mean(TC, na.rm = TRUE)`; a missing count is 0 (convert2df
  l.217-219: `M$TC[is.na(M$TC)] <- 0`).
- Average citations per year per doc: `mean(TC / (CurrentYear - PY + 1), na.rm = TRUE)`
  (biblioAnalysis l.120-123, summary's `TCmy`): documents without a year left out.
- References: distinct cited references (tableTag(M, "CR"): split at ";", trimmed, case folded).
- Document types: `table(M$DT)`, shown lower case (summary).
- Keywords Plus (ID), Author's Keywords (DE): distinct terms (`length(tableTag(M, "ID"))`: split
  at ";", trimmed, empty terms dropped, case folded).
- Authors: distinct authors (`dim(table(AU))`) in bibliometrix's AU form: WoS AU / Scopus
  "Authors" with dots and commas removed, every other character but letters, digits, `-` and `'`
  a space (convert2df l.255-257, csvScopus2df l.30-32), case folded.
- Author appearances: `sum(nAU)`, the authors of every document counted.
- Authors of single-authored docs: `length(unique(FirstAuthors[nAU == 1]))`.
- Single-authored docs: `sum(nAUperPaper == 1)`; Documents per author: `Articles / nAuthors`;
  Co-authors per doc: `mean(nAUperPaper)`.
- International co-authorships %: documents whose authors' countries (analyses.countries, as
  metaTagExtraction's AU_CO) are more than one, per 100 documents (biblioAnalysis' `IntColl`).

A figure the listing has no column for is left out (the seeds have documents only; NeurIPS
documents and sources). The as-of year is the listing's latest year unless given, so that a rerun
next year writes the same table (analyses.citations' TC per year does the same).
"""

from __future__ import annotations

import re
from collections import Counter

import numpy as np
import pandas as pd

from papertopics.analyses.countries import has_countries, paper_countries

__all__ = ["MAIN_INFORMATION_COLUMNS", "main_information", "main_information_tables"]

MAIN_INFORMATION_COLUMNS = ["section", "figure", "value"]
SOURCE_COLUMNS = ("journal", "venue", "session")  # as analyses.sources finds the venue
AUTHOR_COLUMNS = ("authors_abbreviated", "authors")  # bibliometrix's AU: the abbreviated form first
TYPE_COLUMNS = ("document_type", "type")
_RE_AU_DROP = re.compile(r"[.,]")
_RE_AU_SPACE = re.compile(r"[^\w\-']+|_")


def _column(documents: pd.DataFrame, names: tuple[str, ...]) -> pd.Series | None:
    """The first of `names` with a value in some row, as text ("" where empty)."""
    for name in names:
        if name in documents.columns:
            values = documents[name].fillna("").astype(str).str.strip()
            if values.ne("").any():
                return values
    return None


def _terms(cells: pd.Series) -> list[list[str]]:
    """Each cell's `;`-separated terms, trimmed and case folded, empty ones dropped."""
    return [[t for t in (p.strip().casefold() for p in cell.split(";")) if t] for cell in cells]


def author_form(name: str) -> str:
    """An author as bibliometrix's AU writes it ("Eckardt J.-N." -> "ECKARDT J-N"), case folded."""
    return " ".join(_RE_AU_SPACE.sub(" ", _RE_AU_DROP.sub("", name)).split()).casefold()


def _number(value: float, digits: int) -> str:
    """A figure rounded for the table ("" for NaN, as bibliometrix would print NaN)."""
    if value is None or not np.isfinite(value):
        return ""
    return f"{round(float(value), digits):g}" if digits else str(int(round(value)))


def main_information(documents: pd.DataFrame, as_of: int | None = None) -> pd.DataFrame:
    """main_information.csv: section, figure, value, one row per figure the listing has."""
    rows: list[tuple[str, str, str]] = []
    n = len(documents)
    years_text = _column(documents, ("year",))
    years = pd.to_numeric(years_text, errors="coerce") if years_text is not None else None
    if years is not None and years.notna().any():
        as_of = int(years.max()) if as_of is None else int(as_of)
        first, last = int(years.min()), int(years.max())
        rows.append(("Main information", "As-of year", str(as_of)))
        rows.append(("Main information", "Timespan", f"{first} : {last}"))
    sources = _column(documents, SOURCE_COLUMNS)
    if sources is not None:
        folded = {s.replace(",", "").casefold() for s in sources if s}
        rows.append(("Main information", "Sources (journals, books, etc.)", str(len(folded))))
    rows.append(("Main information", "Documents", str(n)))
    if years is not None and years.notna().any():
        per_year = Counter(int(y) for y in years.dropna())
        span = last - first
        growth = ((per_year[last] / per_year[first]) ** (1 / span) - 1) * 100 if span else float("nan")
        rows.append(("Main information", "Annual growth rate %", _number(growth, 2)))
        rows.append(("Main information", "Document average age", _number(as_of - float(years.mean()), 2)))
    cited_text = _column(documents, ("cited_by",))
    if cited_text is not None:
        cited = pd.to_numeric(cited_text, errors="coerce").fillna(0.0)
        rows.append(("Main information", "Average citations per doc", _number(float(cited.mean()), 4)))
        if years is not None and years.notna().any():
            per_year_cited = (cited / (as_of - years + 1))[years.notna()]
            rows.append(
                (
                    "Main information",
                    "Average citations per year per doc",
                    _number(float(per_year_cited.mean()), 5),
                )
            )
    references = _column(documents, ("cited_references",))
    if references is not None:
        distinct = {t for terms in _terms(references) for t in terms}
        rows.append(("Main information", "References", str(len(distinct))))
    types = _column(documents, TYPE_COLUMNS)
    if types is not None:
        for kind, count in sorted(Counter(t.casefold() for t in types if t).items()):
            rows.append(("Document types", kind, str(count)))
    for label, column in (("Keywords Plus (ID)", "index_keywords"), ("Author's keywords (DE)", "keywords")):
        cells = _column(documents, (column,))
        if cells is not None:
            rows.append(("Document contents", label, str(len({t for terms in _terms(cells) for t in terms}))))
    authors = _column(documents, AUTHOR_COLUMNS)
    if authors is not None:
        rows += _author_rows(authors, n)
    if has_countries(documents):
        countries = paper_countries(documents)["countries"]
        several = int(sum(len(c.split(";")) > 1 for c in countries if c))
        rows.append(
            ("Authors collaboration", "International co-authorships %", _number(several / n * 100, 4))
        )
    return pd.DataFrame(rows, columns=MAIN_INFORMATION_COLUMNS)


def _author_rows(authors: pd.Series, n: int) -> list[tuple[str, str, str]]:
    """Authors, appearances and collaboration, as biblioAnalysis counts them (R/biblioAnalysis.R:
    `listAU <- strsplit(M$AU, sep)`, `nAU <- lengths(listAU)`, `Authors <- table(unlist(listAU))`)."""
    lists = [[author_form(a) for a in cell.split(";") if author_form(a)] for cell in authors]
    counts = [len(names) for names in lists]
    distinct = {a for names in lists for a in names}
    single = [names[0] for names in lists if len(names) == 1]
    return [
        ("Authors", "Authors", str(len(distinct))),
        ("Authors", "Author appearances", str(sum(counts))),
        ("Authors", "Authors of single-authored docs", str(len(set(single)))),
        ("Authors collaboration", "Single-authored docs", str(len(single))),
        ("Authors collaboration", "Documents per author", _number(n / len(distinct), 3) if distinct else ""),
        ("Authors collaboration", "Co-authors per doc", _number(sum(counts) / n, 3) if n else ""),
    ]


def main_information_tables(
    documents: pd.DataFrame, topics: pd.DataFrame | None = None
) -> dict[str, pd.DataFrame]:
    """The analysis (analyses.registry): main_information.csv, as of the listing's latest year."""
    return {"main_information": main_information(documents)}
