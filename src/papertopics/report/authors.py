"""The overview's most productive authors: the first rows of authors.csv (analyses.sources.author_table:
papers and fractionalised papers as bibliometrix counts them), the whole table in the workbook."""

from __future__ import annotations

import pandas as pd

from papertopics.report.inputs import ReportInputs

# authors on the overview
OVERVIEW_AUTHORS = 10


def author_rows(inputs: ReportInputs, n: int = OVERVIEW_AUTHORS) -> list[dict]:
    """The n most productive authors of the listing: name, papers, fractionalised papers."""
    table = inputs.described.get("authors")
    if table is None or table.empty:
        return []
    rows = []
    for _, row in table.head(n).iterrows():
        fraction = pd.to_numeric(row["papers_fractionalised"], errors="coerce")
        rows.append(
            {
                "rank": int(row["rank"]),
                "name": str(row["name"]),
                "papers": int(row["papers"]),
                "fractionalised": f"{fraction:.2f}" if fraction == fraction else "",
            }
        )
    return rows
