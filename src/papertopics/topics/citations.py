"""Each topic's citations (topic_citations.csv) and its most-cited papers (most_cited.csv), from
the listing's canonical `cited_by` column (ingest/columns.py: WoS TC, Scopus "Cited by",
OpenAlex cited_by_count, Publish or Perish "Cites", Lens, Dimensions, IEEE Xplore).

A cell that is not a count ("n/a", "12 (2024)") is no citation count: the paper is left out of
its topic's sums and list, and one warning line counts such cells, naming the first. Citations
per year since publication are bibliometrix's "TC per Year" of its most globally cited
documents (biblioshiny: `TCperYear = TC / (Year - PY + 1)`), with the listing's latest
publication year for bibliometrix's current year, so that a rerun months later gives the same
table: a paper of that year divides by 1. Listings without the column get header-only tables
and the report shows no citation lines.
"""

from __future__ import annotations

import logging
import re

import numpy as np
import pandas as pd

from papertopics.topics.sources import VENUE_COLUMNS, find_column

__all__ = ["CITATION_COLUMNS", "MOST_CITED_COLUMNS", "TOP_CITED", "citation_counts", "topic_citations"]

_LOG = logging.getLogger(__name__)
# papers listed per topic in most_cited.csv
TOP_CITED = 5
CITATION_COLUMNS = ["topic", "papers_counted", "citations_total", "citations_median", "per_year_median"]
MOST_CITED_COLUMNS = ["topic", "rank", "doc_id", "title", "year", "venue", "cited_by", "per_year"]
# "1234", "1,234", "1 234", "12.0" (a count a spreadsheet wrote as a float)
_COUNT = re.compile(r"^\d{1,3}(?:[ ,\u00a0\u202f]\d{3})+$|^\d+(?:\.0+)?$")


def citation_counts(
    documents: pd.DataFrame, where: str = "document_topics.csv", warn: bool = True
) -> pd.Series | None:
    """The `cited_by` column as numbers (NaN: no count), None when the listing has none. Cells
    that are not counts are NaN too, and one warning line (`warn`) says how many, naming the first."""
    if "cited_by" not in documents.columns:
        return None
    cells = documents["cited_by"].fillna("").astype(str).str.strip()
    if not cells.ne("").any():
        return None
    valid = cells.str.match(_COUNT)
    bad = cells.ne("") & ~valid
    if bad.any() and warn:
        first = int(np.flatnonzero(bad.to_numpy())[0])
        title = str(documents["title"].iloc[first]) if "title" in documents.columns else ""
        listing = str(documents["listings"].iloc[first]) if "listings" in documents.columns else ""
        _LOG.warning(
            "%s: %d cited_by value(s) are not counts, read as no citations: %r (%s%s)",
            where,
            int(bad.sum()),
            cells.iloc[first][:40],
            f"listing {listing}, " if listing else "",
            f"{title[:60]!r}" if title else f"row {first + 2}",
        )
    numbers = cells.where(valid, "").str.replace(r"[ ,\u00a0\u202f]", "", regex=True)
    return pd.to_numeric(numbers.replace("", np.nan), errors="coerce")


def per_year(cited: pd.Series, years: pd.Series) -> pd.Series:
    """bibliometrix's TC per year: cited / (latest year - year + 1); NaN without a year."""
    years = pd.to_numeric(years, errors="coerce")
    if not years.notna().any():
        return pd.Series(np.nan, index=cited.index)
    latest = years.max()
    return (cited / (latest - years + 1).clip(lower=1)).round(2)


def topic_citations(
    documents: pd.DataFrame, where: str = "document_topics.csv"
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(topic_citations.csv, most_cited.csv): per topic (outliers too) the papers with a count,
    their total, median and median per year; its TOP_CITED most-cited papers (ties: the newer
    first, then by title). Header-only tables without a citation column."""
    cited = citation_counts(documents, where)
    if cited is None:
        return pd.DataFrame(columns=CITATION_COLUMNS), pd.DataFrame(columns=MOST_CITED_COLUMNS)
    years = documents["year"] if "year" in documents.columns else pd.Series("", index=documents.index)
    venue = find_column(documents, VENUE_COLUMNS)
    table = pd.DataFrame(
        {
            "topic": documents["topic"].astype(int),
            "doc_id": documents["doc_id"],
            "title": documents.get("title", pd.Series("", index=documents.index)).fillna(""),
            "year": years.fillna("").astype(str),
            "venue": documents[venue].fillna("") if venue else "",
            "cited_by": cited,
            "per_year": per_year(cited, years),
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
    summary["citations_total"] = summary["citations_total"].astype(int)
    summary["per_year_median"] = summary["per_year_median"].round(2)
    ordered = table.sort_values(["topic", "cited_by", "year", "title"], ascending=[True, False, False, True])
    top = ordered.groupby("topic").head(TOP_CITED).copy()
    top["rank"] = top.groupby("topic").cumcount() + 1
    top["cited_by"] = top["cited_by"].astype(int)
    return summary[CITATION_COLUMNS], top[MOST_CITED_COLUMNS].reset_index(drop=True)
