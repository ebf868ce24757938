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
import warnings

import pandas as pd

from papertopics.ingest.date_values import (
    ACADEMIC,
    BAD,
    SLASHED,
    is_academic,
    month_day,
    parse_date,
    two_digit,
    year_of,
)
from papertopics.ingest.formats._common import ListingChoice, ListingWarning

__all__ = ["DATE_COLUMNS", "FIRST_YEAR", "PUBLISHED", "add_dates", "parse_date"]

# the canonical columns read, the publication year first (ingest/columns.py SPELLINGS)
DATE_COLUMNS = ("year", "date", "online_date", "listing_date")
# the column written: the document's publication date, ISO 8601 at its precision
PUBLISHED = "published"
# years before this are no date (flagged): a typo or a placeholder, not a publication year
FIRST_YEAR = 1900


def _day_first(values: pd.Series) -> tuple[bool, str]:
    """(whether the column writes 01/02/2020 day-first, what its values leave open: "" when
    they decide it)."""
    pairs = values.str.extract(SLASHED).dropna()
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
        read = lambda v: year_of(v, this_year)  # noqa: E731
    else:
        read = lambda v: parse_date(v, day_first, this_year) or month_day(v)  # noqa: E731
    cache: dict[str, str | None] = {}
    return values.map(lambda v: cache[v] if v in cache else cache.setdefault(v, read(v))), open_


def _kinds(values: pd.Series, parsed: pd.Series) -> dict[str, pd.Series]:
    """Which values were read by a rule a reader should hear of: two-digit years, academic years."""
    read = parsed.notna() & (parsed != BAD)
    two = values.map(two_digit).astype(bool)
    academic = values.map(lambda v: bool((m := ACADEMIC.search(v)) and is_academic(m))).astype(bool)
    return {"two-digit": two & read, "academic": academic & read & ~two}


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
        bad |= (values == BAD) & undecided
        shown = shown.where(~(undecided & (values != "")), corpus[column].astype(str))
        year = year.where(~undecided, values.where(values != BAD, "").str[:4])
    number = pd.to_numeric(year, errors="coerce")
    # the cover date of next year's issues (a December export) is a date; later ones are not
    off = (number > this_year + 1) | (number < FIRST_YEAR)
    year = year.where(~off, "")
    published = year.copy()
    for column in sources:  # a finer column adds month and day where its year agrees
        values = parsed[column].fillna("")
        values = values.where(~values.str.startswith("????"), year + values.str[4:])  # PD "JUL" + PY
        finer = (values.str[:4] == year) & (values.str.len() > published.str.len()) & (values != BAD)
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
