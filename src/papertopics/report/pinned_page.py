"""The report's "Pinned" page (report.registry): the pinned topics' reading lists (report.pinned)."""

from __future__ import annotations

from papertopics.report.html import render_page
from papertopics.report.inputs import ReportInputs
from papertopics.report.pinned import PAGE_PAPERS, pinned_sections
from papertopics.report.render import page_footer


def pinned_page(inputs: ReportInputs) -> str:
    return render_page(
        "pinned.html",
        page="pinned",
        page_title="Pinned",
        report_title=inputs.title,
        footer=page_footer(inputs),
        uses_plotly=False,
        sections=pinned_sections(inputs),
        limit=PAGE_PAPERS,
    )
