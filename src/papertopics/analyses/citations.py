"""Each topic's citations (topic_citations.csv) and its most-cited papers (most_cited.csv), from
the listing's canonical `cited_by` column (ingest/columns.py: WoS TC, Scopus "Cited by",
OpenAlex cited_by_count, Publish or Perish "Cites", Lens, Dimensions, IEEE Xplore; IEEE's empty
"Article Citation Count" is read as 0 by the reader, ingest/columns.py BLANK_IS_ZERO).

A cell that is not a count ("n/a", "12 (2024)"), or a count over 2^31 (no paper has one: a
shifted column, an id), is no citation count: the paper is left out of its topic's sums and
list, and one warning line per kind counts such cells, naming the file and the first record.

Per paper, as bibliometrix 5.2.1's most globally cited documents (R/biblioAnalysis.R l.120-131):
- TC per year = TC / (as-of year - PY + 1), PY the paper's parsed publication year (`published`,
  ingest.dates), never the raw `year` cell ("2020-2021", "Spring 2021", a "2031" typo). For the
  as-of year bibliometrix takes the machine's current year (`Sys.Date()`); here it is the
  listing's latest publication year, so that a rerun months later gives the same table (a paper
  of that year divides by 1), and the tables say it (`as_of_year`).
- NTC = TC / the mean TC of the listing's papers of the same publication year (`group_by(PY) %>%
  mutate(NTC = TC / mean(TC))`; the undated papers form one group as PY = NA does there; empty
  where that mean is 0).
Listings without the column get header-only tables and the report shows no citation lines.
"""

from __future__ import annotations

import logging
import re

import numpy as np
import pandas as pd

from papertopics.analyses.sources import VENUE_COLUMNS, find_column
from papertopics.ingest.dates import PUBLISHED

__all__ = [
    "CITATION_COLUMNS", "MAX_COUNT", "MOST_CITED_COLUMNS", "TOP_CITED", "citation_counts", "paper_citations",
    "topic_citations",
]  # fmt: skip

_LOG = logging.getLogger(__name__)
# papers listed per topic in most_cited.csv
TOP_CITED = 5
CITATION_COLUMNS = [
    "topic", "papers_counted", "citations_total", "citations_median", "per_year_median", "as_of_year",
]  # fmt: skip
MOST_CITED_COLUMNS = [
    "topic", "rank", "doc_id", "title", "year", "venue", "cited_by", "per_year", "ntc", "as_of_year",
]  # fmt: skip
# the largest count read: a cell above it is no paper's count (Google Scholar's most cited paper
# has about 3e5); the map packs count + 1 in 32 bits (report.citations)
MAX_COUNT = 2**31
# "1234", "1,234", "1 234", "12.0" (a count a spreadsheet wrote as a float)
_COUNT = re.compile(r"^\d{1,3}(?:[ ,\u00a0\u202f]\d{3})+$|^\d+(?:\.0+)?$")


def _record(documents: pd.DataFrame, row: int) -> str:
    """How a warning names a record: its listing and title, else its row in the file."""
    title = str(documents["title"].iloc[row]) if "title" in documents.columns else ""
    listing = str(documents["listings"].iloc[row]) if "listings" in documents.columns else ""
    return f"{f'listing {listing}, ' if listing else ''}{f'{title[:60]!r}' if title else f'row {row + 2}'}"


def citation_counts(
    documents: pd.DataFrame, where: str = "document_topics.csv", warn: bool = True
) -> pd.Series | None:
    """The `cited_by` column as numbers (NaN: no count), None when the listing has none. Cells
    that are not counts, and counts over MAX_COUNT, are NaN too; one warning line (`warn`) per
    kind says how many, naming the first record."""
    if "cited_by" not in documents.columns:
        return None
    cells = documents["cited_by"].fillna("").astype(str).str.strip()
    if not cells.ne("").any():
        return None
    valid = cells.str.match(_COUNT)
    digits = (
        cells.where(valid, "")
        .str.replace(r"[ ,\u00a0\u202f]", "", regex=True)
        .str.replace(r"\.0+$", "", regex=True)
    )
    # compared as text, so that a 20-digit cell neither overflows nor rounds
    bare, most = digits.str.lstrip("0"), str(MAX_COUNT)
    huge = valid & ((bare.str.len() > len(most)) | ((bare.str.len() == len(most)) & (bare > most)))
    bad = cells.ne("") & ~valid
    if warn and bad.any():
        first = int(np.flatnonzero(bad.to_numpy())[0])
        _LOG.warning(
            "%s: %d cited_by value(s) are not counts, read as no citations: %r (%s)",
            where, int(bad.sum()), cells.iloc[first][:40], _record(documents, first),
        )  # fmt: skip
    if warn and huge.any():
        first = int(np.flatnonzero(huge.to_numpy())[0])
        _LOG.warning(
            "%s: %d cited_by value(s) over 2^31 (%s), no paper's count, read as no citations: %s (%s)",
            where, int(huge.sum()), f"{MAX_COUNT:,}", cells.iloc[first][:40], _record(documents, first),
        )  # fmt: skip
    numbers = digits.where(~huge, "")
    return pd.to_numeric(numbers.replace("", np.nan), errors="coerce")


def publication_years(documents: pd.DataFrame) -> pd.Series:
    """Each paper's parsed publication year (`published`, ingest.dates), NaN where it has none."""
    if PUBLISHED not in documents.columns:
        return pd.Series(np.nan, index=documents.index)
    return pd.to_numeric(documents[PUBLISHED].fillna("").astype(str).str[:4], errors="coerce")


def as_of(years: pd.Series) -> float:
    """The year citations per year run to: the listing's latest publication year (NaN: none)."""
    return float(years.max()) if years.notna().any() else np.nan


def per_year(cited: pd.Series, years: pd.Series, as_of_year: float | None = None) -> pd.Series:
    """bibliometrix's TC per year: cited / (as-of year - year + 1), the as-of year the latest
    year unless given; NaN without a year (unrounded)."""
    years = pd.to_numeric(years, errors="coerce")
    latest = as_of(years) if as_of_year is None else as_of_year
    return cited / (latest - years + 1).clip(lower=1)


def normalised(cited: pd.Series, years: pd.Series) -> pd.Series:
    """bibliometrix's NTC: each count over the mean count of the papers of its publication year
    (the undated ones one group); NaN where that mean is 0 or the paper has no count."""
    group = pd.to_numeric(years, errors="coerce").fillna(-1)
    mean = cited.groupby(group).transform("mean")
    return (cited / mean.where(mean > 0)).where(cited.notna())


def paper_citations(
    documents: pd.DataFrame,
    where: str = "document_topics.csv",
    as_of_year: float | None = None,
    warn: bool = True,
) -> pd.DataFrame | None:
    """One row per paper (the documents' index): cited_by (NaN: no count), year (publication
    year, NaN: none), per_year, ntc, as_of_year; None without a citation column."""
    cited = citation_counts(documents, where, warn)
    if cited is None:
        return None
    years = publication_years(documents)
    latest = as_of(years) if as_of_year is None else float(as_of_year)
    return pd.DataFrame(
        {
            "cited_by": cited,
            "year": years,
            "per_year": per_year(cited, years, latest),
            "ntc": normalised(cited, years),
            "as_of_year": latest,
        }
    )


def topic_citations(
    documents: pd.DataFrame, where: str = "document_topics.csv"
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(topic_citations.csv, most_cited.csv): per topic (outliers too) the papers with a count,
    their total, median and median per year; its TOP_CITED most-cited papers (ties: the newer
    first, then by title), each with its count per year and NTC. Header-only tables without a
    citation column."""
    papers = paper_citations(documents, where)
    if papers is None:
        return pd.DataFrame(columns=CITATION_COLUMNS), pd.DataFrame(columns=MOST_CITED_COLUMNS)
    venue = find_column(documents, VENUE_COLUMNS)
    latest = papers["as_of_year"].iloc[0] if len(papers) else np.nan
    table = pd.DataFrame(
        {
            "topic": documents["topic"].astype(int),
            "doc_id": documents["doc_id"],
            "title": documents.get("title", pd.Series("", index=documents.index)).fillna(""),
            "year": papers["year"].map(lambda y: "" if pd.isna(y) else str(int(y))),
            "venue": documents[venue].fillna("") if venue else "",
            "cited_by": papers["cited_by"],
            "per_year": papers["per_year"].round(2),
            "ntc": papers["ntc"].round(3),
            "as_of_year": "" if pd.isna(latest) else str(int(latest)),
        }
    ).dropna(subset=["cited_by"])
    summary = (
        table.groupby("topic")
        .agg(
            papers_counted=("cited_by", "size"),
            citations_total=("cited_by", "sum"),
            citations_median=("cited_by", "median"),
            per_year_median=("per_year", "median"),
        )
        .reset_index()
    )
    summary["citations_total"] = summary["citations_total"].astype(np.int64)
    summary["per_year_median"] = summary["per_year_median"].round(2)
    summary["as_of_year"] = "" if pd.isna(latest) else str(int(latest))
    ordered = table.sort_values(["topic", "cited_by", "year", "title"], ascending=[True, False, False, True])
    top = ordered.groupby("topic").head(TOP_CITED).copy()
    top["rank"] = top.groupby("topic").cumcount() + 1
    top["cited_by"] = top["cited_by"].astype(np.int64)
    return summary[CITATION_COLUMNS], top[MOST_CITED_COLUMNS].reset_index(drop=True)
