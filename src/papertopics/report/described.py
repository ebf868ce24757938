"""What the listing's own columns say of each topic (describe_topics' tables, analyses.over_time,
analyses.sources) on the report: the "Over time" page, and the years, venues and authors on each
topic card (the "Thematic map" page: report.thematic). A listing without dates (the seeds, NeurIPS
2023) has neither page in its navigation bar and no such lines on its cards.
"""

from __future__ import annotations

import re
from collections import defaultdict

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from papertopics.analyses.over_time import MIN_PERIOD_PAPERS
from papertopics.analyses.registry import tables as analysis_tables
from papertopics.analyses.trends import COCHRAN_MIN, EXACT_MAX_PAPERS, odds_factor
from papertopics.ingest.dates import PUBLISHED
from papertopics.report.colors import topic_color
from papertopics.report.html import page_data, page_footer, render_page
from papertopics.report.inputs import ReportInputs
from papertopics.report.over_time_rows import TREND_MARKS, over_time_rows
from papertopics.report.over_time_rows import numbers as _number
from papertopics.report.text import plotly_text, short_label

# describe_topics' tables, as render_report's inputs name them (analyses/registry.py)
DESCRIBED = tuple(table.name for table in analysis_tables())
# venues, authors and countries (analyses.countries) on a topic card
CARD_SOURCES = 3
CARD_FIELDS = {"country": "countries"}  # topic_sources.csv's field -> the card's list


def _table(inputs: ReportInputs, name: str) -> pd.DataFrame:
    table = inputs.described.get(name)
    return table if table is not None else pd.DataFrame()


def has_over_time(inputs: ReportInputs) -> bool:
    shares = _table(inputs, "over_time")
    return len(shares) > 0 and shares["period"].nunique() >= 2


def _odds(log_odds: float) -> str:
    """An odds factor as the page writes it, from its log (analyses.trends.odds_factor: no
    overflow): "1.25"; "> 1e6" beyond a million; "< 1e-6" below a millionth; "∞" and "0"."""
    value = odds_factor(log_odds)
    if np.isnan(value):
        return "–"
    if value == np.inf:
        return "∞"
    if value > 1e6:
        return "> 1e6"
    if 0 < value < 1e-6:
        return "< 1e-6"
    return f"{value:.2f}"


def _change(row) -> dict:
    """The odds factor per year and its interval; for a topic all in its last (first) period, no
    finite factor: the interval's finite end (analyses.trends, separation)."""
    if np.isfinite(row.slope_per_year):
        return {
            "change": re.sub(r"^([<>] )?", r"\1×", _odds(row.slope_per_year)),
            "ci": f"{_odds(row.ci_low)}–{_odds(row.ci_high)}",
            "direction": "up" if row.slope_per_year > 0 else "down",
        }
    up = np.isfinite(row.ci_low) and not np.isfinite(row.ci_high)
    bound = row.ci_low if up else row.ci_high
    return {
        "change": "only the last period" if up else "only the first period",
        "ci": f"{'≥' if up else '≤'} " + re.sub(r"^([<>] )?", r"\1×", _odds(bound))
        if np.isfinite(bound)
        else "–",
        "direction": "up" if up else "down",
    }


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
                **_change(row),
                "p_value": "not tested"
                if not np.isfinite(row.p_value)
                else f"p {row.p_value:.3f}"
                if row.p_value >= 0.001
                else "p < 0.001",
                "q_value": "–"
                if not np.isfinite(row.q_value)
                else f"{row.q_value:.3f}"
                if row.q_value >= 0.001
                else "< 0.001",
            }
        )
    return rows


def visualize_over_time(shares: pd.DataFrame, trends: pd.DataFrame, topics: pd.DataFrame) -> go.Figure:
    """Topics x periods as a heatmap of each topic's share of the period's papers (every topic,
    the rising and falling first, marked ▲ and ▼); the hover gives the papers, of how many, and
    the period's own terms of the topic."""
    shares = _number(shares, "topic", "count", "total", "share")
    drawn, status, periods = over_time_rows(shares, trends, topics)
    labels = dict(zip(_number(topics, "topic")["topic"].astype(int), topics["label"].astype(str)))
    names = [
        plotly_text(TREND_MARKS.get(status.get(t, ""), "") + short_label(t, labels.get(t, ""), 40))
        for t in drawn
    ]
    grid = shares.assign(period=shares["period"].astype(str)).set_index(["topic", "period"])
    z, custom = [], []
    for topic in drawn:
        part = grid.loc[topic].reindex(periods) if topic in grid.index.get_level_values(0) else None
        z.append((100 * part["share"]).round(2).fillna(0).tolist())
        custom.append(
            [
                [int(c), int(n), plotly_text(str(w) if isinstance(w, str) and w else "–")]
                for c, n, w in zip(part["count"].fillna(0), part["total"].fillna(0), part["terms"])
            ]
        )
    figure = go.Figure(
        go.Heatmap(
            x=periods,
            y=names,
            z=z,
            customdata=custom,
            colorscale="Blues",
            colorbar={"title": {"text": "% of the period"}},
            hovertemplate="%{y}<br>%{x}: %{customdata[0]} of %{customdata[1]} papers (%{z:.1f}%)"
            "<br>%{customdata[2]}<extra></extra>",
        )
    )
    figure.update_layout(
        template="plotly_white",
        height=max(320, 60 + 22 * len(drawn)),
        margin={"l": 10, "r": 10, "t": 10, "b": 40},
        xaxis={"type": "category", "title": "period"},
        yaxis={"autorange": "reversed", "automargin": True, "type": "category"},
    )
    return figure


def _periods_note(inputs: ReportInputs, shares: pd.DataFrame, unit: str) -> str:
    """How the periods were formed and how many papers carry no date, for the page's lead."""
    joined = (
        [str(p) for p in dict.fromkeys(shares.loc[shares["formed"].astype(str) != "", "period"])]
        if ("formed" in shares.columns)
        else []
    )
    note = (
        f"Periods: one per {unit}; {' and '.join(joined)} join{'s' if len(joined) == 1 else ''} the {unit}s "
        f"with fewer than {MIN_PERIOD_PAPERS} papers at that end, so every dated paper is in one period."
        if joined
        else f"Periods: one per {unit}."
    )
    documents = inputs.documents
    if PUBLISHED in documents.columns:
        published = documents[PUBLISHED].fillna("").astype(str)
        undated = int((published == "").sum())
        year_only = int(((published != "") & (published.str.len() < 7)).sum()) if unit == "month" else 0
        missing = "month" if unit == "month" else "date"
        note += f" {undated + year_only} of {len(documents)} papers carry no {missing}"
        if year_only:
            note += f" ({year_only} with a year only: months, as the listing spans one year)"
        note += " and are in no period." if undated + year_only else "."
    return note


def over_time_page(inputs: ReportInputs) -> str:
    shares, trends = _table(inputs, "over_time"), _table(inputs, "trends")
    shown = has_over_time(inputs)
    periods = list(dict.fromkeys(shares["period"].astype(str))) if shown else []
    unit = "month" if periods and ("/" in periods[0] or len(periods[0]) == 7) else "year"
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
        unit=unit,
        periods_note=_periods_note(inputs, shares, unit) if shown else "",
        trends=trend_rows(inputs) if shown else [],
        n_rising=int((trends.get("status", pd.Series(dtype=str)) == "rising").sum()),
        n_falling=int((trends.get("status", pd.Series(dtype=str)) == "falling").sum()),
        exact_max=EXACT_MAX_PAPERS,
        cochran_min=f"{COCHRAN_MIN:g}",
    )


def card_sources(inputs: ReportInputs) -> dict[int, dict]:
    """{topic: the years it spans, its trend (rising or falling, as Over time says), its top
    venues, authors and countries} for the overview's cards. The years and the trend are
    topic_trends.csv's, the Over time page's own (its papers' first and last years); a topic it
    lacks gets its papers' publication years."""
    cards: dict[int, dict] = defaultdict(
        lambda: {"years": "", "trend": "", "venues": [], "authors": [], "countries": []}
    )
    if PUBLISHED in inputs.documents.columns:  # the publication years (ingest.dates), not a raw column
        years = pd.to_numeric(inputs.documents[PUBLISHED].astype(str).str[:4], errors="coerce")
        spans = years.groupby(inputs.documents["topic"].astype(int)).agg(["min", "max"]).dropna()
        for topic, (low, high) in spans.iterrows():
            cards[int(topic)]["years"] = f"{low:.0f}" if low == high else f"{low:.0f}–{high:.0f}"
    trends = _table(inputs, "trends")
    if has_over_time(inputs) and {"first_year", "last_year", "status"} <= set(trends.columns):
        trends = _number(trends, "topic", "first_year", "last_year")
        for row in trends.dropna(subset=["topic", "first_year", "last_year"]).itertuples():
            low, high = int(row.first_year), int(row.last_year)
            cards[int(row.topic)]["years"] = f"{low}" if low == high else f"{low}–{high}"
            cards[int(row.topic)]["trend"] = row.status if row.status in ("rising", "falling") else ""
    sources = _table(inputs, "sources")
    if len(sources):
        sources = _number(sources, "topic", "count", "share")
        for (topic, field), part in sources.groupby(["topic", "field"]):
            top = part.head(CARD_SOURCES)
            cards[int(topic)][CARD_FIELDS.get(field, f"{field}s")] = [
                {"name": name, "count": int(count), "percent": f"{100 * share:.0f}%"}
                for name, count, share in zip(top["name"], top["count"], top["share"])
            ]
    return dict(cards)


def main_information_sections(inputs: ReportInputs) -> list[dict]:
    """main_information.csv (analyses.main_information) for the overview: [{section, rows:
    [{figure, value}]}] in the table's order; [] without it."""
    table = _table(inputs, "main_information")
    sections: dict[str, list[dict]] = {}
    for section, figure, value in zip(
        table.get("section", []), table.get("figure", []), table.get("value", [])
    ):
        sections.setdefault(str(section), []).append({"figure": str(figure), "value": str(value)})
    return [{"section": section, "rows": rows} for section, rows in sections.items()]
