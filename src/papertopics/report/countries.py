"""The "Countries" page (countries.csv, analyses.countries): the most productive countries as a
bar chart (plotly, drawn from the plotly.min.js beside the pages: offline), each bar split into
single- and multiple-country publications by the corresponding author's country, as
bibliometrix's "Corresponding Author's Countries" figure; then the table of every country. A
listing without affiliations or corresponding addresses (the seeds, NeurIPS 2023) has no such
page in its navigation bar; the page itself says so in one line.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from papertopics.report.html import page_data, page_footer, render_page
from papertopics.report.inputs import ReportInputs

# countries the bar chart shows (the table shows all)
TOP_COUNTRIES = 20
SCP_COLOR, MCP_COLOR = "#4e79a7", "#f28e2b"


def _table(inputs: ReportInputs) -> pd.DataFrame:
    table = inputs.described.get("countries")
    return table if table is not None else pd.DataFrame()


def has_countries(inputs: ReportInputs) -> bool:
    return len(_table(inputs)) > 0


def visualize_countries(table: pd.DataFrame, top: int = TOP_COUNTRIES) -> go.Figure:
    """Horizontal bars: the `top` countries by corresponding papers, SCP and MCP stacked."""
    numbers = table.assign(**{c: pd.to_numeric(table[c]) for c in ("corresponding", "scp", "mcp", "papers")})
    shown = numbers[numbers["corresponding"] > 0].head(top).iloc[::-1]
    figure = go.Figure()
    for column, name, color in (
        ("scp", "single country (SCP)", SCP_COLOR),
        ("mcp", "multiple countries (MCP)", MCP_COLOR),
    ):
        figure.add_trace(
            go.Bar(
                x=shown[column].tolist(),
                y=shown["country"].tolist(),
                orientation="h",
                name=name,
                marker_color=color,
                customdata=shown["papers"].tolist(),
                hovertemplate="%{y}: %{x} "
                + name
                + "<br>%{customdata} papers with an author there<extra></extra>",
            )
        )
    figure.update_layout(
        barmode="stack",
        height=max(320, 26 * len(shown) + 120),
        margin={"l": 160, "r": 20, "t": 20, "b": 50},
        xaxis_title="papers by the corresponding author's country",
        legend={"orientation": "h", "y": -0.15},
        template="plotly_white",
    )
    return figure


def countries_page(inputs: ReportInputs) -> str:
    table = _table(inputs)
    shown = len(table) > 0
    n = len(inputs.documents)
    if shown:
        counted = int(pd.to_numeric(table["corresponding"]).sum())
        intro = (
            f"Each paper's countries come from its authors' affiliations, its corresponding author's "
            f"country from the corresponding address (else the first affiliation), as bibliometrix's "
            f"metaTagExtraction reads them; {counted:,} of {n:,} papers have one. The bars show the "
            f"{min(TOP_COUNTRIES, len(table))} countries with the most papers by corresponding author, "
            "split into single-country (SCP) and multiple-country (MCP) publications; "
            "results/topics/countries.csv holds every country, and each topic's card its top countries."
        )
    else:
        intro = "This listing has no affiliations or corresponding addresses: no countries to show."
    return render_page(
        "countries.html",
        page="countries",
        page_title="Countries",
        report_title=inputs.title,
        footer=page_footer(inputs),
        data_json=page_data(visualize_countries(table)) if shown else None,
        uses_plotly=shown,
        intro=intro,
        rows=table.to_dict("records") if shown else [],
    )
