"""What the listing's own columns say of each topic (describe_topics' tables, topics.over_time,
topics.sources, topics.thematic) on the report: the "Over time" and "Thematic map" pages, and
the years, venues and authors on each topic card. A listing without dates (the seeds, NeurIPS
2023) has neither page in its navigation bar and no such lines on its cards.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from papertopics.report.colors import topic_color
from papertopics.report.html import page_data, page_footer, render_page
from papertopics.report.inputs import ReportInputs
from papertopics.report.text import plotly_text, short_label

# describe_topics' tables, as render_report's inputs name them
DESCRIBED = ("over_time", "trends", "sources", "thematic", "citations", "most_cited")
# lines drawn on the Over time figure: the rising and falling topics first, then the largest
OVER_TIME_LINES = 12
# venues and authors on a topic card
CARD_SOURCES = 3


def _table(inputs: ReportInputs, name: str) -> pd.DataFrame:
    table = inputs.described.get(name)
    return table if table is not None else pd.DataFrame()


def has_over_time(inputs: ReportInputs) -> bool:
    shares = _table(inputs, "over_time")
    return len(shares) > 0 and shares["period"].nunique() >= 2


def has_thematic_map(inputs: ReportInputs) -> bool:
    return len(_table(inputs, "thematic")) > 0


def _number(table: pd.DataFrame, *columns: str) -> pd.DataFrame:
    table = table.copy()
    for column in columns:
        table[column] = pd.to_numeric(table[column], errors="coerce")
    return table


def trend_rows(inputs: ReportInputs) -> list[dict]:
    """The topics' trends (topic_trends.csv), rising and falling first, for the page's table."""
    trends = _number(
        _table(inputs, "trends"), "topic", "slope_per_year", "ci_low", "ci_high", "p_value", "q_value"
    )
    order = {"rising": 0, "falling": 1, "steady": 2}
    trends = trends.assign(rank=trends["status"].map(order)).sort_values(["rank", "p_value"], kind="stable")
    rows = []
    for row in trends.itertuples():
        rows.append(
            {
                "topic": int(row.topic),
                "label": short_label(int(row.topic), row.label, 70),
                "color": topic_color(int(row.topic)),
                "status": row.status,
                "size": row.size,
                "years": f"{row.first_year}–{row.last_year}"
                if row.first_year != row.last_year
                else row.first_year,
                "change": f"×{np.exp(row.slope_per_year):.2f}",
                "ci": f"{np.exp(row.ci_low):.2f}–{np.exp(row.ci_high):.2f}",
                "direction": "up" if row.slope_per_year > 0 else "down",
                "p_value": f"p {row.p_value:.3f}" if row.p_value >= 0.001 else "p < 0.001",
                "q_value": f"{row.q_value:.3f}" if row.q_value >= 0.001 else "< 0.001",
            }
        )
    return rows


def visualize_over_time(shares: pd.DataFrame, trends: pd.DataFrame, topics: pd.DataFrame) -> go.Figure:
    """Each topic's share per period, one line per topic; the hover names the period's own terms."""
    shares = _number(shares, "topic", "count", "total", "share")
    trends = _number(trends, "topic", "p_value")
    moving = trends[trends["status"] != "steady"].sort_values("p_value")["topic"].astype(int).tolist()
    largest = topics[topics["topic"] >= 0].sort_values("size", ascending=False, kind="stable")["topic"]
    drawn = list(dict.fromkeys([*moving, *largest.astype(int).tolist()]))[:OVER_TIME_LINES]
    labels = dict(zip(topics["topic"].astype(int), topics["label"].astype(str)))
    figure = go.Figure()
    for topic in drawn:
        part = shares[shares["topic"] == topic].sort_values("period")
        figure.add_trace(
            go.Scatter(
                x=part["period"].tolist(),
                y=(100 * part["share"]).round(2).tolist(),
                mode="lines+markers",
                name=plotly_text(short_label(topic, labels.get(topic, ""), 40)),
                line={"color": topic_color(topic), "width": 2},
                customdata=[
                    [int(c), int(t), plotly_text(w or "–")]
                    for c, t, w in zip(part["count"], part["total"], part["terms"].fillna(""))
                ],
                hovertemplate="%{x}: %{y:.1f}% (%{customdata[0]} of %{customdata[1]})<br>"
                "%{customdata[2]}<extra>%{fullData.name}</extra>",
            )
        )
    figure.update_layout(
        template="plotly_white",
        height=560,
        margin={"l": 50, "r": 10, "t": 10, "b": 40},
        xaxis={"type": "category", "title": "period"},
        yaxis={"title": "share of the period's papers (%)", "rangemode": "tozero"},
        legend={"font": {"size": 11}},
    )
    return figure


def over_time_page(inputs: ReportInputs) -> str:
    shares, trends = _table(inputs, "over_time"), _table(inputs, "trends")
    shown = has_over_time(inputs)
    periods = sorted(shares["period"].unique()) if shown else []
    figure = visualize_over_time(shares, trends, inputs.topics) if shown else None
    return render_page(
        "over_time.html",
        page="timeline",
        page_title="Over time",
        report_title=inputs.title,
        footer=page_footer(inputs),
        data_json=page_data(figure) if figure is not None else None,
        uses_plotly=shown,
        shown=shown,
        n_periods=len(periods),
        first=periods[0] if periods else "",
        last=periods[-1] if periods else "",
        unit="month" if periods and len(periods[0]) > 4 else "year",
        trends=trend_rows(inputs) if shown else [],
        n_rising=int((trends.get("status", pd.Series(dtype=str)) == "rising").sum()),
        n_falling=int((trends.get("status", pd.Series(dtype=str)) == "falling").sum()),
    )


def visualize_thematic_map(thematic: pd.DataFrame) -> go.Figure:
    """Topics by centrality (x) and density (y), bubbles by size, the quadrants split at the medians."""
    table = _number(thematic, "topic", "size", "centrality", "density")
    x_mid, y_mid = float(table["centrality"].median()), float(table["density"].median())
    figure = go.Figure(
        go.Scatter(
            x=table["centrality"].tolist(),
            y=table["density"].tolist(),
            mode="markers+text",
            text=[
                plotly_text(short_label(int(t), label, 28))
                for t, label in zip(table["topic"], table["label"])
            ],
            textposition="top center",
            textfont={"size": 10},
            marker={
                "size": (8 + 40 * np.sqrt(table["size"] / max(table["size"].max(), 1))).round(1).tolist(),
                "color": [topic_color(int(t)) for t in table["topic"]],
                "opacity": 0.75,
                "line": {"width": 1, "color": "#ffffff"},
            },
            customdata=[[plotly_text(q), int(s)] for q, s in zip(table["quadrant"], table["size"])],
            hovertemplate="%{text}<br>%{customdata[0]}, %{customdata[1]} papers<br>"
            "centrality %{x:.2f}, density %{y:.3f}<extra></extra>",
        )
    )
    figure.add_vline(x=x_mid, line={"color": "#999999", "dash": "dot"})
    figure.add_hline(y=y_mid, line={"color": "#999999", "dash": "dot"})
    corners = [
        (1, 1, "right", "top", "Motor themes"),
        (0, 1, "left", "top", "Niche themes"),
        (0, 0, "left", "bottom", "Emerging or declining themes"),
        (1, 0, "right", "bottom", "Basic themes"),
    ]
    for x, y, xanchor, yanchor, text in corners:
        figure.add_annotation(
            x=x, y=y, xref="paper", yref="paper", xanchor=xanchor, yanchor=yanchor, text=f"<b>{text}</b>",
            showarrow=False, font={"size": 13, "color": "#555555"},
        )  # fmt: skip
    figure.update_layout(
        template="plotly_white",
        height=640,
        margin={"l": 60, "r": 10, "t": 10, "b": 50},
        xaxis={"title": "centrality: links to the other topics (summed c-TF-IDF cosine)"},
        yaxis={"title": "density: cohesion of the topic's abstracts"},
        showlegend=False,
    )
    return figure


def thematic_page(inputs: ReportInputs) -> str:
    shown = has_thematic_map(inputs)
    intro = (
        "Each topic placed as in bibliometrix's thematic map (Callon's strategic diagram): across, its "
        "centrality, how much it shares with the other topics (the sum of its c-TF-IDF cosine "
        "similarities to every other topic); up, its density, how close its own abstracts are to each "
        "other (cohesion, as on the overview). Split at the medians: motor themes are central and "
        "dense, niche themes dense but apart, basic themes central but loose, and the rest emerging "
        "or declining."
    )
    return render_page(
        "figure.html",
        page="thematic",
        page_title="Thematic map",
        report_title=inputs.title,
        footer=page_footer(inputs),
        data_json=page_data(visualize_thematic_map(_table(inputs, "thematic"))) if shown else None,
        uses_plotly=shown,
        heading="Thematic map",
        intro=intro if shown else "This listing has fewer than four topics with a cohesion: no thematic map.",
        note=None,
    )


def card_sources(inputs: ReportInputs) -> dict[int, dict]:
    """{topic: the years it spans, its top venues and authors} for the overview's cards."""
    cards: dict[int, dict] = defaultdict(lambda: {"years": "", "venues": [], "authors": []})
    if "year" in inputs.documents.columns:
        years = pd.to_numeric(inputs.documents["year"], errors="coerce")
        spans = years.groupby(inputs.documents["topic"].astype(int)).agg(["min", "max"]).dropna()
        for topic, (low, high) in spans.iterrows():
            cards[int(topic)]["years"] = f"{low:.0f}" if low == high else f"{low:.0f}–{high:.0f}"
    sources = _table(inputs, "sources")
    if len(sources):
        sources = _number(sources, "topic", "count", "share")
        for (topic, field), part in sources.groupby(["topic", "field"]):
            top = part.head(CARD_SOURCES)
            cards[int(topic)][f"{field}s"] = [
                {"name": name, "count": int(count), "percent": f"{100 * share:.0f}%"}
                for name, count, share in zip(top["name"], top["count"], top["share"])
            ]
    return dict(cards)
