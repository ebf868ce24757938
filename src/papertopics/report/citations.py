"""Each topic's citations on its overview card (analyses.citations' tables: topic_citations.csv,
most_cited.csv): the total and median, the median per year since publication, and its most-cited
papers with their counts beside their counts per year, so that an old paper does not lead by age
alone. A listing without a citation column shows no such lines.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from papertopics.analyses.citations import citation_counts
from papertopics.report.inputs import ReportInputs

# the map's `citations` field: count + 1 (0: no count) packed in 32 bits, every count
# analyses.citations reads (MAX_COUNT = 2^31) whole: no cap
FIELD_TYPE = "u4"


def _numbers(table: pd.DataFrame, *columns: str) -> pd.DataFrame:
    table = table.copy()
    for column in columns:
        if column in table.columns:
            table[column] = pd.to_numeric(table[column], errors="coerce")
    return table


def _per_year(value: float) -> str:
    return "" if pd.isna(value) else f"{value:.1f}" if value < 10 else f"{value:,.0f}"


def card_citations(inputs: ReportInputs) -> dict[int, dict]:
    """{topic: {total, median, per_year, papers, cited: [{doc_id, title, year, venue, count,
    per_year}]}} for the overview's cards; {} without citations."""
    summary = inputs.described.get("citations")
    if summary is None or summary.empty:
        return {}
    summary = _numbers(
        summary,
        "topic",
        "papers_counted",
        "citations_total",
        "citations_median",
        "per_year_median",
        "as_of_year",
    )
    most = inputs.described.get("most_cited", pd.DataFrame())
    most = _numbers(most, "topic", "rank", "cited_by", "per_year")
    cards: dict[int, dict] = {}
    for row in summary.itertuples():
        as_of = getattr(row, "as_of_year", np.nan)
        cards[int(row.topic)] = {
            "total": f"{int(row.citations_total):,}",
            "as_of": "" if pd.isna(as_of) else str(int(as_of)),  # per year up to this year
            "median": f"{row.citations_median:g}",
            "per_year": _per_year(row.per_year_median),
            "papers": int(row.papers_counted),
            "cited": [],
        }
    for row in most.sort_values(["topic", "rank"]).itertuples() if len(most) else ():
        card = cards.get(int(row.topic))
        if card is not None:
            card["cited"].append(
                {
                    "doc_id": row.doc_id,
                    "title": str(row.title) or "(untitled)",
                    "year": "" if pd.isna(row.year) else str(row.year).removesuffix(".0"),
                    "venue": "" if pd.isna(row.venue) else str(row.venue),
                    "count": f"{int(row.cited_by):,}",
                    "per_year": _per_year(row.per_year),
                }
            )
    return cards


def citation_field(documents: pd.DataFrame) -> dict | None:
    """The document map's "citations" field (Colour by, on a log scale; the search's
    `cited:>100`): each document's count + 1, 0 where it has none, unsigned 32-bit (`type`);
    None without citations."""
    cited = citation_counts(documents, warn=False)  # describe_topics has warned already
    if cited is None or not cited.notna().any():
        return None
    values = (cited.fillna(-1) + 1).to_numpy(dtype=np.uint32)
    return {"name": "citations", "kind": "numeric", "scale": "log", "values": values, "min": 1,
            "max": max(int(values.max()), 2), "type": FIELD_TYPE}  # fmt: skip
