"""A document's publication date, read once: `published`, ISO 8601 at the precision the listing
gives ("2019", "2019-05" or "2019-05-17"), from the canonical date columns (ingest.columns'
SPELLINGS: `year`, `date`, `online_date`, `listing_date`). The listing's own columns are never
changed.

The rules (docs/listings.md, "Dates"):
- the year is the listing's publication year (`year`: `Publication Year`, `PY`...); where a
  document has none, its `date`'s year, else its `online_date`'s (IEEE's Online Date, Web of
  Science's early-access EY/EA), else its `listing_date`'s (arXiv's);
- a finer column (`date`, `online_date`, `listing_date`) only adds the month and day, and only
  when its year agrees: an online-first paper keeps its print year;
- "01/02/2020" is read day-first or month-first once per column, from its values (a 31/12 makes
  the column day-first, a 12/31 month-first; neither: day-first, said in one line);
- an impossible date ("2020-02-30", "13/13/2020") is no date, and a year after the current one
  or before 1900 is no date either: both are counted in one line per listing.
A listing with no date in any row gets no column: the seeds and NeurIPS 2023 stay as they were.
"""

from __future__ import annotations

import datetime as dt
import re
import warnings

import pandas as pd

from papertopics.ingest.formats._common import ListingWarning

__all__ = ["DATE_COLUMNS", "FIRST_YEAR", "PUBLISHED", "add_dates", "parse_date"]

# the canonical columns read, the publication year first (ingest/columns.py SPELLINGS)
DATE_COLUMNS = ("year", "date", "online_date", "listing_date")
# the column written: the document's publication date, ISO 8601 at its precision
PUBLISHED = "published"
# years before this are no date (flagged): a typo or a placeholder, not a publication year
FIRST_YEAR = 1900
_MONTHS = {
    m: i + 1
    for i, m in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
    )
}
_ISO = re.compile(r"(?<!\d)(\d{4})(?:[-/.](\d{1,2})(?:[-/.](\d{1,2}))?)?(?![\d])")
_YEAR = re.compile(r"(?<!\d)(\d{4})(?!\d)")
_COMPACT = re.compile(r"^(\d{4})(\d{2})(\d{2})$")  # 20190517
_SLASHED = re.compile(r"(?<!\d)(\d{1,2})[/.](\d{1,2})[/.](\d{4})(?!\d)")  # 17/05/2019, 5/17/2019
_MONTH = re.compile(r"\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.?\b", re.IGNORECASE)
_DAY = re.compile(r"(?<![\d])(\d{1,2})(?![\d])")
_BAD = "bad"  # parse_date's answer for a value that names an impossible date


def _iso(year: int, month: int | None = None, day: int | None = None) -> str:
    """The ISO text, or _BAD when no such day exists (2020-02-30, month 13)."""
    if month is None:
        return f"{year:04d}"
    if not 1 <= month <= 12:
        return _BAD
    if day is None:
        return f"{year:04d}-{month:02d}"
    try:
        return dt.date(year, month, day).isoformat()
    except ValueError:
        return _BAD


def parse_date(value: str, day_first: bool = True) -> str | None:
    """One value as an ISO date at its own precision; None when it holds no year, "bad" when it
    names an impossible date. `day_first`: how its column writes 01/02/2020."""
    text = str(value).strip()
    if not text:
        return None
    if re.fullmatch(r"\d{4}\.0", text):  # a year read as a float
        return text[:4]
    if compact := _COMPACT.match(text):
        return _iso(int(compact.group(1)), int(compact.group(2)), int(compact.group(3)))
    if slashed := _SLASHED.search(text):
        first, second = int(slashed.group(1)), int(slashed.group(2))
        day, month = (first, second) if day_first else (second, first)
        return _iso(int(slashed.group(3)), month, day)
    found = _ISO.search(text)
    if not found:
        return None
    year = int(found.group(1))
    if found.group(2):  # 2019-05-17, 2019/05
        return _iso(year, int(found.group(2)), int(found.group(3)) if found.group(3) else None)
    month = _MONTH.search(text)
    if not month:
        return _iso(year)
    rest = text[: found.start()] + " " + text[found.end() :]
    day = _DAY.search(rest)  # "2020 Jul 14", "JAN 15 2019", "13 October 2025"
    return _iso(year, _MONTHS[month.group(1).lower()], int(day.group(1)) if day else None)


def _day_first(values: pd.Series) -> tuple[bool, bool]:
    """(whether the column writes 01/02/2020 day-first, whether its values leave that open)."""
    pairs = values.str.extract(_SLASHED).dropna()
    if pairs.empty:
        return True, False
    first, second = pairs[0].astype(int), pairs[1].astype(int)
    if (first > 12).any():
        return True, False
    if (second > 12).any():
        return False, False
    return True, True


def _parsed(corpus: pd.DataFrame, column: str, notes: list[str]) -> pd.Series:
    values = corpus[column].fillna("").astype(str)
    day_first, open_ = _day_first(values)
    if open_:
        notes.append(f"column {column!r} writes dd/mm or mm/dd with no day above 12: read day-first")
    read = (lambda v: _year(v)) if column == "year" else (lambda v: parse_date(v, day_first) or _month_day(v))
    cache: dict[str, str | None] = {}
    return values.map(lambda v: cache[v] if v in cache else cache.setdefault(v, read(v)))


def _month_day(value: str) -> str | None:
    """A month (and day) without a year, as Web of Science's PD writes it beside PY ("JUL",
    "JUL 15"): "????-07" or "????-07-15", the publication year filled in by add_dates."""
    month = _MONTH.search(value)
    if not month or _YEAR.search(value):
        return None
    day = _DAY.search(value[: month.start()] + " " + value[month.end() :])
    found = _iso(
        2000, _MONTHS[month.group(1).lower()], int(day.group(1)) if day else None
    )  # 2000: a leap year
    return None if found == _BAD else "????" + found[4:]


def _year(value: str) -> str | None:
    """A publication-year cell's year ("2019", "2010.0", "2019a"); None without one."""
    found = _YEAR.search(value)
    return found.group(1) if found else None


def _listing_lines(
    corpus: pd.DataFrame, values: pd.Series, bad: pd.Series, off: pd.Series, this_year: int
) -> list[str]:
    """One line per listing naming its impossible dates and out-of-range years (a few examples)."""
    lines = []
    listings = corpus["listing"] if "listing" in corpus.columns else pd.Series("", index=corpus.index)
    ids = corpus["doc_id"] if "doc_id" in corpus.columns else pd.Series(corpus.index, index=corpus.index)
    for listing in pd.unique(listings):
        mine = listings == listing
        parts = []
        for mask, what in (
            (bad, "impossible date(s)"),
            (off, f"year(s) after {this_year} or before {FIRST_YEAR}"),
        ):
            hit = corpus.index[mask & mine]
            if len(hit):
                shown = ", ".join(f"{values[i]!r} in {ids[i]}" for i in hit[:3])
                shown += f" and {len(hit) - 3} more" if len(hit) > 3 else ""
                parts.append(f"{len(hit)} {what} ({shown})")
        if parts:
            lines.append(f"{listing or 'the corpus'}: " + "; ".join(parts) + ": left undated")
    return lines


def add_dates(corpus: pd.DataFrame, today: dt.date | None = None) -> pd.DataFrame:
    """The corpus with `published` ("" where a document has none) from its canonical date
    columns; unchanged when no row holds a date. Impossible dates, out-of-range years and a
    column whose day/month order its values leave open are each said in one warning line."""
    sources = [c for c in DATE_COLUMNS if c in corpus.columns]
    if not sources:
        return corpus
    this_year = (today or dt.date.today()).year
    notes: list[str] = []
    parsed = {c: _parsed(corpus, c, notes) for c in sources}
    bad = pd.Series(False, index=corpus.index)
    year = pd.Series("", index=corpus.index)
    shown = pd.Series("", index=corpus.index)  # the value a flagged document's date came from
    for column in sources:  # the publication year, else the finer columns' own year
        values = parsed[column].fillna("").replace(r"^\?{4}.*", "", regex=True)
        undecided = year == ""
        bad |= (values == _BAD) & undecided
        shown = shown.where(~(undecided & (values != "")), corpus[column].astype(str))
        year = year.where(~undecided, values.where(values != _BAD, "").str[:4])
    number = pd.to_numeric(year, errors="coerce")
    off = (number > this_year) | (number < FIRST_YEAR)
    year = year.where(~off, "")
    published = year.copy()
    for column in sources:  # a finer column adds month and day where its year agrees
        values = parsed[column].fillna("")
        values = values.where(~values.str.startswith("????"), year + values.str[4:])  # PD "JUL" + PY
        finer = (values.str[:4] == year) & (values.str.len() > published.str.len()) & (values != _BAD)
        published = published.where(~finer, values)
    for line in notes + _listing_lines(corpus, shown, bad & (year == ""), off, this_year):
        warnings.warn(ListingWarning(f"dates: {line}"), stacklevel=2)
    if not published.str.len().gt(0).any():
        return corpus
    out = corpus.copy()
    out[PUBLISHED] = published
    return out
