"""A document's date, parsed once: the canonical `date` (ISO 8601 at the precision the source
gives: "2019", "2019-05" or "2019-05-17") and `year`, from whichever date columns a listing has.

The readers map their sources' fields onto column names (`year`, `date`, `publication_date`,
arXiv's `listing_date`...); this module reads their values, whatever the granularity: "2019",
"2019-05-17", "2020 Jul 14" (PubMed), "MAY 2019" or "JAN 15 2019" (Web of Science),
"13 October 2025". Of a document's columns, the most precise date wins (a year-only `year`
beside a full `listing_date` gives the full date). A listing with no date in any row gets no
column: the seeds and NeurIPS 2023 stay as they were.
"""

from __future__ import annotations

import re

import pandas as pd

__all__ = ["DATE_COLUMNS", "add_dates", "parse_date"]

# the columns read for a date, matched case-insensitively, most specific first
DATE_COLUMNS = (
    "date",
    "listing_date",
    "publication_date",
    "published",
    "publication date",
    "online date",
    "issue date",
    "year",
    "publication year",
    "py",
)
_MONTHS = {
    m: i + 1
    for i, m in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
    )
}
_ISO = re.compile(r"\b((?:1[6-9]|20)\d\d)(?:[-/.](\d{1,2})(?:[-/.](\d{1,2}))?)?\b")
_DMY = re.compile(r"\b(\d{1,2})[/.](\d{1,2})[/.]((?:1[6-9]|20)\d\d)\b")
_MONTH = re.compile(r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\b", re.IGNORECASE)
_DAY = re.compile(r"(?<![\d])(\d{1,2})(?![\d])")


def _iso(year: int, month: int | None = None, day: int | None = None) -> str | None:
    if month is not None and not 1 <= month <= 12:
        return None
    if day is not None and not 1 <= day <= 31:
        day = None
    if month is None:
        return f"{year:04d}"
    return f"{year:04d}-{month:02d}" if day is None else f"{year:04d}-{month:02d}-{day:02d}"


def parse_date(value: str) -> str | None:
    """One value as an ISO date at its own precision, or None when it holds no year."""
    text = str(value).strip()
    if not text:
        return None
    found = _ISO.search(text)
    if found and found.group(2):  # 2019-05-17, 2019/05
        month, day = int(found.group(2)), found.group(3)
        return _iso(int(found.group(1)), month, int(day) if day else None) or _iso(int(found.group(1)))
    dmy = _DMY.search(text)
    if dmy:  # 17/05/2019: day first, as every export that writes it does (month first if day > 12)
        first, second = int(dmy.group(1)), int(dmy.group(2))
        day, month = (first, second) if second <= 12 else (second, first)
        return _iso(int(dmy.group(3)), month, day)
    if not found:
        return None
    year = int(found.group(1))
    month = _MONTH.search(text)
    if not month:
        return _iso(year)
    rest = text[: found.start()] + " " + text[found.end() :]
    day = _DAY.search(rest)  # "2020 Jul 14", "JAN 15 2019", "13 October 2025"
    return _iso(year, _MONTHS[month.group(1).lower()], int(day.group(1)) if day else None)


def add_dates(corpus: pd.DataFrame) -> pd.DataFrame:
    """The corpus with `date` and `year` (text, "" where a document has none) from its date
    columns; unchanged when no row holds a date."""
    by_name = {str(c).strip().lower(): c for c in corpus.columns}
    sources = [by_name[name] for name in DATE_COLUMNS if name in by_name]
    if not sources:
        return corpus
    best = pd.Series([""] * len(corpus), index=corpus.index)
    cache: dict[str, str | None] = {}
    for column in sources:
        parsed = corpus[column].astype(str).map(lambda v: cache.setdefault(v, parse_date(v)) or "")
        finer = parsed.str.len() > best.str.len()
        best = best.where(~finer, parsed)
    if not best.str.len().gt(0).any():
        return corpus
    out = corpus.copy()
    out["date"] = best
    out["year"] = best.str[:4]
    return out
