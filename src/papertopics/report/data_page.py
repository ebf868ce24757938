"""The report's "Data" page: for each field the report uses, the column of each listing it came
from, the share of papers that have it, and the values read, repaired, skipped or merged with the
reason (report.provenance's table; the workbook's `data` sheet holds the same)."""

from __future__ import annotations

from papertopics.report.html import page_footer, render_page
from papertopics.report.inputs import ReportInputs
from papertopics.report.provenance import data_rows


def data_page(inputs: ReportInputs) -> str:
    """The page's builder (report.registry): per field, its column per listing and its notes."""
    rows = data_rows(inputs.documents, inputs.corpus_stats)
    for row in rows:
        row["percent"] = f"{row['share']:.0%}" if row["share"] != "" else ""
    return render_page(
        "data.html",
        page="fields",
        page_title="Data",
        report_title=inputs.title,
        footer=page_footer(inputs),
        uses_plotly=False,
        rows=rows,
        n_documents=len(inputs.documents),
    )
