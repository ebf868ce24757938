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
- "01/02/2020" is read day-first or month-first once per listing and column, from its values
  (a 31/12 makes it day-first, a 12/31 month-first; neither, or both: day-first, said in one
  line naming the listing);
- month words are whole words of dateutil's table ("FEB", "Sept.", "March"; "Decision 2020"
  names no month);
- a two-digit year ("5/17/19", "May '19") is read in the century within 50 years of this one, as
  dateutil reads it, and an academic year ("2021/22") as its first year: each said in one line
  per listing and column;
- an impossible date ("2020-02-30", "13/13/2020") is no date, and a year after next year (the
  cover dates of next year's issues are dates) or before 1900 is no date either: both are
  counted in one line per listing.
A listing with no date in any row gets no column: the seeds and NeurIPS 2023 stay as they were.
"""

from __future__ import annotations

import datetime as dt
import re
import warnings

import pandas as pd
from dateutil.parser import parserinfo

from papertopics.ingest.formats._common import ListingChoice, ListingWarning

__all__ = ["DATE_COLUMNS", "FIRST_YEAR", "PUBLISHED", "add_dates", "parse_date"]

# the canonical columns read, the publication year first (ingest/columns.py SPELLINGS)
DATE_COLUMNS = ("year", "date", "online_date", "listing_date")
# the column written: the document's publication date, ISO 8601 at its precision
PUBLISHED = "published"
# years before this are no date (flagged): a typo or a placeholder, not a publication year
FIRST_YEAR = 1900
_ISO = re.compile(r"(?<!\d)(\d{4})(?:[-/.](\d{1,2})(?:[-/.](\d{1,2}))?)?(?![\d])")
_YEAR = re.compile(r"(?<!\d)(\d{4})(?!\d)")
_COMPACT = re.compile(r"^(\d{4})(\d{2})(\d{2})$")  # 20190517
# 17/05/2019, 5/17/2019, and with a two-digit year 5/17/19
_SLASHED = re.compile(r"(?<![\d/.])(\d{1,2})[/.](\d{1,2})[/.](\d{4}|\d{2})(?![\d/.])")
_APOSTROPHE = re.compile(r"(?<![\w'’])['’](\d{2})(?![\w'’])")  # "May '19", "'19"
# an academic year: "2021/22", "2021/2022", "2021-2022" (the second year the next one)
_ACADEMIC = re.compile(r"(?<!\d)(\d{4})\s*(?:/\s*(\d{2})|[/-]\s*(\d{4}))(?![\d/.-])")
_WORD = re.compile(r"[^\W\d_]+")
_DAY = re.compile(r"(?<![\d])(\d{1,2})(?![\d])")
_BAD = "bad"  # parse_date's answer for a value that names an impossible date
_MONTH_NAMES = parserinfo()  # dateutil's month words: "Feb", "February", "Sept"; whole words only


def _month(text: str) -> re.Match | None:
    """The first whole word of `text` that names a month in dateutil's table ("FEB", "Sept.",
    "March"), else None: "Decision", "Marine" or "Mayo" name none."""
    return next((m for m in _WORD.finditer(text) if _MONTH_NAMES.month(m.group(0))), None)


def _century(two: int, this_year: int) -> int:
    """A two-digit year in the century that puts it within 50 years of this one, as dateutil's
    parserinfo.convertyear reads it ('19 -> 2019, '87 -> 1987 in 2026)."""
    year = two + this_year // 100 * 100
    if year >= this_year + 50:
        return year - 100
    if year < this_year - 50:
        return year + 100
    return year


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


def _academic(found: re.Match) -> bool:
    """ "2021/22", "2021-2022": the second year the one after the first."""
    first = int(found.group(1))
    if found.group(2):
        return int(found.group(2)) == (first + 1) % 100
    return int(found.group(3)) == first + 1


def parse_date(value: str, day_first: bool = True, this_year: int | None = None) -> str | None:
    """One value as an ISO date at its own precision; None when it holds no year, "bad" when it
    names an impossible date. `day_first`: how its column writes 01/02/2020; a two-digit year
    ("5/17/19", "May '19") is read in the century within 50 years of `this_year` (dateutil's
    rule), an academic year ("2021/22") as its first year."""
    text = str(value).strip()
    if not text:
        return None
    this_year = this_year or dt.date.today().year
    if re.fullmatch(r"\d{4}\.0", text):  # a year read as a float
        return text[:4]
    if compact := _COMPACT.match(text):
        return _iso(int(compact.group(1)), int(compact.group(2)), int(compact.group(3)))
    if slashed := _SLASHED.search(text):
        first, second = int(slashed.group(1)), int(slashed.group(2))
        day, month = (first, second) if day_first else (second, first)
        year = int(slashed.group(3))
        return _iso(_century(year, this_year) if len(slashed.group(3)) == 2 else year, month, day)
    if (academic := _ACADEMIC.search(text)) and _academic(academic):
        return _iso(int(academic.group(1)))
    found = _ISO.search(text)
    if not found:
        short = _APOSTROPHE.search(text)
        if not short:
            return None
        found, year = short, _century(int(short.group(1)), this_year)
    else:
        year = int(found.group(1))
        if found.group(2):  # 2019-05-17, 2019/05
            return _iso(year, int(found.group(2)), int(found.group(3)) if found.group(3) else None)
    month = _month(text)
    if not month:
        return _iso(year)
    rest = text[: found.start()] + " " + text[found.end() :]
    day = _DAY.search(rest)  # "2020 Jul 14", "JAN 15 2019", "13 October 2025"
    return _iso(year, _MONTH_NAMES.month(month.group(0)), int(day.group(1)) if day else None)


def _day_first(values: pd.Series) -> tuple[bool, str]:
    """(whether the column writes 01/02/2020 day-first, what its values leave open: "" when
    they decide it)."""
    pairs = values.str.extract(_SLASHED).dropna()
    if pairs.empty:
        return True, ""
    first, second = pairs[0].astype(int), pairs[1].astype(int)
    if (first > 12).any() and (second > 12).any():
        both = (values[pairs.index[first > 12][0]], values[pairs.index[second > 12][0]])
        return True, (
            f"writes dates day-first ({both[0]!r}) and month-first ({both[1]!r}): the order cannot "
            "be decided, read day-first (the month-first ones are impossible dates)"
        )
    if (first > 12).any():
        return True, ""
    if (second > 12).any():
        return False, ""
    return True, "writes dd/mm or mm/dd with no day above 12: the order cannot be decided, read day-first"


def _parsed(values: pd.Series, column: str, this_year: int) -> tuple[pd.Series, str]:
    """One listing's values of one column, read; with the line its day/month order needs."""
    values = values.fillna("").astype(str)
    day_first, open_ = _day_first(values)
    if column == "year":
        read = lambda v: _year(v, this_year)  # noqa: E731
    else:
        read = lambda v: parse_date(v, day_first, this_year) or _month_day(v)  # noqa: E731
    cache: dict[str, str | None] = {}
    return values.map(lambda v: cache[v] if v in cache else cache.setdefault(v, read(v))), open_


def _month_day(value: str) -> str | None:
    """A month (and day) without a year, as Web of Science's PD writes it beside PY ("JUL",
    "JUL 15"), or BibTeX's `month`: "????-07" or "????-07-15", the publication year filled in
    by add_dates."""
    month = _month(value)
    if not month or _YEAR.search(value):
        return None
    day = _DAY.search(value[: month.start()] + " " + value[month.end() :])
    found = _iso(
        2000, _MONTH_NAMES.month(month.group(0)), int(day.group(1)) if day else None
    )  # 2000: a leap year
    return None if found == _BAD else "????" + found[4:]


def _year(value: str, this_year: int) -> str | None:
    """A publication-year cell's year ("2019", "2010.0", "2019a", "'19", "2021/22": 2021);
    None without one."""
    found = _YEAR.search(value)
    if found:
        return found.group(1)
    short = _APOSTROPHE.search(value)
    return str(_century(int(short.group(1)), this_year)) if short else None


def _kinds(values: pd.Series, parsed: pd.Series) -> dict[str, pd.Series]:
    """Which values were read by a rule a reader should hear of: two-digit years, academic years."""
    read = parsed.notna() & (parsed != _BAD)
    two = values.map(_two_digit).astype(bool)
    academic = values.map(lambda v: bool((m := _ACADEMIC.search(v)) and _academic(m))).astype(bool)
    return {"two-digit": two & read, "academic": academic & read & ~two}


def _two_digit(value: str) -> bool:
    """Whether the value's year is written in two digits ("5/17/19", "May '19")."""
    if slashed := _SLASHED.search(value):
        return len(slashed.group(3)) == 2
    return not _YEAR.search(value) and bool(_APOSTROPHE.search(value))


def _listing_of(corpus: pd.DataFrame) -> pd.Series:
    """Each row's listing: `listing` (a parsed table), else the first of `listings` (the
    corpus: its row's values are that listing's), else ""."""
    if "listing" in corpus.columns:
        return corpus["listing"].astype(str)
    if "listings" in corpus.columns:
        return corpus["listings"].astype(str).str.split(";").str[0]
    return pd.Series("", index=corpus.index)


def _examples(values: pd.Series, parsed: pd.Series, ids: pd.Series, mask: pd.Series) -> str:
    hit = values.index[mask]
    shown = ", ".join(f"{values[i]!r} in {ids[i]} -> {parsed[i]}" for i in hit[:3])
    return shown + (f" and {len(hit) - 3} more" if len(hit) > 3 else "")


def _listing_lines(
    listings: pd.Series, ids: pd.Series, values: pd.Series, bad: pd.Series, off: pd.Series, this_year: int
) -> list[str]:
    """One line per listing naming its impossible dates and out-of-range years (a few examples)."""
    lines = []
    for listing in pd.unique(listings):
        mine = listings == listing
        parts = []
        for mask, what in (
            (bad, "impossible date(s)"),
            (off, f"year(s) after {this_year + 1} or before {FIRST_YEAR}"),
        ):
            hit = values.index[mask & mine]
            if len(hit):
                shown = ", ".join(f"{values[i]!r} in {ids[i]}" for i in hit[:3])
                shown += f" and {len(hit) - 3} more" if len(hit) > 3 else ""
                parts.append(f"{len(hit)} {what} ({shown})")
        if parts:
            lines.append(f"{listing or 'the corpus'}: " + "; ".join(parts) + ": left undated")
    return lines


def add_dates(corpus: pd.DataFrame, today: dt.date | None = None) -> pd.DataFrame:
    """The corpus with `published` ("" where a document has none) from its canonical date
    columns; unchanged when no row holds a date. Day/month order is decided per listing and
    column; a column whose order its values leave open, two-digit and academic years, and
    impossible dates and out-of-range years are each said in one line per listing (the
    choices a ListingChoice, kept in the result's attrs["choices"] as read_listing keeps its)."""
    sources = [c for c in DATE_COLUMNS if c in corpus.columns]
    if not sources:
        return corpus
    this_year = (today or dt.date.today()).year
    listings = _listing_of(corpus)
    ids = corpus["doc_id"] if "doc_id" in corpus.columns else pd.Series(corpus.index, index=corpus.index)
    choices: list[tuple[str, str]] = []  # (field, line)
    parsed: dict[str, pd.Series] = {}
    for column in sources:
        raw = corpus[column].fillna("").astype(str)
        parts = []
        for listing, rows in raw.groupby(listings, sort=False):
            read, open_ = _parsed(rows, column, this_year)
            parts.append(read)
            name = listing or "the corpus"
            if open_:
                choices.append((column, f"{name}: column {column!r} {open_}"))
            for kind, mask in _kinds(rows, read).items():
                if mask.any():
                    how = (
                        f"in the century within 50 years of {this_year}, as dateutil reads them"
                        if kind == "two-digit"
                        else "as their first year"
                    )
                    choices.append(
                        (
                            column,
                            f"{name}: column {column!r}: {int(mask.sum())} {kind} year(s) read {how} "
                            f"({_examples(rows, read, ids, mask)})",
                        )
                    )
        parsed[column] = pd.concat(parts).reindex(corpus.index)
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
    # the cover date of next year's issues (a December export) is a date; later ones are not
    off = (number > this_year + 1) | (number < FIRST_YEAR)
    year = year.where(~off, "")
    published = year.copy()
    for column in sources:  # a finer column adds month and day where its year agrees
        values = parsed[column].fillna("")
        values = values.where(~values.str.startswith("????"), year + values.str[4:])  # PD "JUL" + PY
        finer = (values.str[:4] == year) & (values.str.len() > published.str.len()) & (values != _BAD)
        published = published.where(~finer, values)
    for field, line in choices:
        warnings.warn(ListingChoice(f"dates: {line}", field=field), stacklevel=2)
    for line in _listing_lines(listings, ids, shown, bad & (year == ""), off, this_year):
        warnings.warn(ListingWarning(f"dates: {line}"), stacklevel=2)
    if not published.str.len().gt(0).any():
        return corpus
    out = corpus.copy()
    out[PUBLISHED] = published
    out.attrs["choices"] = [
        *corpus.attrs.get("choices", []),
        *({"field": field, "line": f"dates: {line}"} for field, line in choices),
    ]
    return out
