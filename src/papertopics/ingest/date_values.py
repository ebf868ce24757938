"""One value of a date column as a date (ingest/dates.py reads whole columns): ISO 8601 at the
precision it gives, month words from dateutil's table as whole words, two-digit years in the
century dateutil puts them, academic years as their first year. docs/listings.md, "Dates"."""

from __future__ import annotations

import datetime as dt
import re

from dateutil.parser import parserinfo

__all__ = ["ACADEMIC", "BAD", "SLASHED", "is_academic", "month_day", "parse_date", "two_digit", "year_of"]

_ISO = re.compile(r"(?<!\d)(\d{4})(?:[-/.](\d{1,2})(?:[-/.](\d{1,2}))?)?(?![\d])")
_YEAR = re.compile(r"(?<!\d)(\d{4})(?!\d)")
_COMPACT = re.compile(r"^(\d{4})(\d{2})(\d{2})$")  # 20190517
# 17/05/2019, 5/17/2019, and with a two-digit year 5/17/19
SLASHED = re.compile(r"(?<![\d/.])(\d{1,2})[/.](\d{1,2})[/.](\d{4}|\d{2})(?![\d/.])")
_APOSTROPHE = re.compile(r"(?<![\w'’])['’](\d{2})(?![\w'’])")  # "May '19", "'19"
# an academic year: "2021/22", "2021/2022", "2021-2022" (the second year the next one)
ACADEMIC = re.compile(r"(?<!\d)(\d{4})\s*(?:/\s*(\d{2})|[/-]\s*(\d{4}))(?![\d/.-])")
_WORD = re.compile(r"[^\W\d_]+")
_DAY = re.compile(r"(?<![\d])(\d{1,2})(?![\d])")
BAD = "bad"  # parse_date's answer for a value that names an impossible date
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
    """The ISO text, or BAD when no such day exists (2020-02-30, month 13)."""
    if month is None:
        return f"{year:04d}"
    if not 1 <= month <= 12:
        return BAD
    if day is None:
        return f"{year:04d}-{month:02d}"
    try:
        return dt.date(year, month, day).isoformat()
    except ValueError:
        return BAD


def is_academic(found: re.Match) -> bool:
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
    if slashed := SLASHED.search(text):
        first, second = int(slashed.group(1)), int(slashed.group(2))
        day, month = (first, second) if day_first else (second, first)
        year = int(slashed.group(3))
        return _iso(_century(year, this_year) if len(slashed.group(3)) == 2 else year, month, day)
    if (academic := ACADEMIC.search(text)) and is_academic(academic):
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


def month_day(value: str) -> str | None:
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
    return None if found == BAD else "????" + found[4:]


def year_of(value: str, this_year: int) -> str | None:
    """A publication-year cell's year ("2019", "2010.0", "2019a", "'19", "2021/22": 2021);
    None without one."""
    found = _YEAR.search(value)
    if found:
        return found.group(1)
    short = _APOSTROPHE.search(value)
    return str(_century(int(short.group(1)), this_year)) if short else None


def two_digit(value: str) -> bool:
    """Whether the value's year is written in two digits ("5/17/19", "May '19")."""
    if slashed := SLASHED.search(value):
        return len(slashed.group(3)) == 2
    return not _YEAR.search(value) and bool(_APOSTROPHE.search(value))
