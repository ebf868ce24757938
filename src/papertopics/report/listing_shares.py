"""Comparison across listings: how each listing's documents spread over the topics.

A document that appears in several listings (merged as one) counts in each of them, so a
listing's shares always sum to 100 %.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from papertopics.analyses.trends import TREND_Q, fit_trend, verdicts
from papertopics.analyses.trends import q_values as trend_q
from papertopics.report.colors import OUTLIER_COLOR, listing_colors
from papertopics.report.inputs import split_listings
from papertopics.report.text import plotly_text, short_label


def listing_membership(documents: pd.DataFrame, listings: list[str]) -> np.ndarray:
    """Documents x listings, True where a document is in the listing.

    Split once per distinct `listings` cell, not per document: 75k documents of one listing
    have one distinct cell, and every page of the report asks."""
    codes, cells = pd.factorize(documents["listings"].astype(str))
    column = {name: j for j, name in enumerate(listings)}
    table = np.zeros((len(cells), len(listings)), dtype=bool)
    for row, cell in enumerate(cells):
        for name in split_listings(cell):
            if name in column:
                table[row, column[name]] = True
    return table[codes]


def listing_counts(documents: pd.DataFrame, listings: list[str], topics: list[int]) -> pd.DataFrame:
    """Documents per (topic, listing): rows = topics in the given order, columns = listings."""
    member = pd.DataFrame(listing_membership(documents, listings), columns=listings, dtype=int)
    counts = member.groupby(documents["topic"].to_numpy()).sum()
    return counts.reindex(index=topics, columns=listings, fill_value=0).astype(int)


def listing_totals(documents: pd.DataFrame, listings: list[str]) -> pd.Series:
    """Documents per listing (a document in several listings counts in each)."""
    return pd.Series(listing_membership(documents, listings).sum(axis=0), index=listings, dtype=int)


def listing_shares(documents: pd.DataFrame, listings: list[str], topics: list[int]) -> pd.DataFrame:
    """Share of each listing's documents in each topic (0..1), same shape as listing_counts."""
    counts = listing_counts(documents, listings, topics)
    totals = listing_totals(documents, listings).replace(0, 1)
    return counts / totals


def single_listing_topics(topics: pd.DataFrame, counts: pd.DataFrame) -> pd.DataFrame:
    """Topics (not the outliers) whose documents all come from one listing, when there are several."""
    rows = []
    if counts.shape[1] < 2:
        return pd.DataFrame(columns=["topic", "label", "size", "listing"])
    labels = dict(zip(topics["topic"], topics["label"]))
    for topic, row in counts.iterrows():
        present = [listing for listing, n in row.items() if n > 0]
        if topic >= 0 and len(present) == 1:
            rows.append(
                {
                    "topic": int(topic),
                    "label": labels.get(topic, ""),
                    "size": int(row.sum()),
                    "listing": present[0],
                }
            )
    return pd.DataFrame(rows, columns=["topic", "label", "size", "listing"])


def visualize_listing_shares(
    topics: pd.DataFrame,
    documents: pd.DataFrame,
    listings: list[str],
    *,
    bar_height: int = 9,
    names: dict[str, str] | None = None,
) -> go.Figure:
    """Grouped horizontal bars (a heatmap beyond six listings): share of each listing per topic.

    `names`: what each listing is called on screen (its header line), by listing name."""
    shown = names or {}
    order = [t for t in topics["topic"].astype(int) if t >= 0] + [
        t for t in topics["topic"].astype(int) if t < 0
    ]
    labels = dict(zip(topics["topic"].astype(int), topics["label"]))
    counts = listing_counts(documents, listings, order)
    shares = listing_shares(documents, listings, order)
    names = [plotly_text(short_label(t, labels[t], 46)) for t in order]
    figure = go.Figure()
    if len(listings) <= 6:
        colors = listing_colors(listings)
        for listing in listings:
            figure.add_trace(
                go.Bar(
                    y=names,
                    x=(shares[listing] * 100).round(2).tolist(),
                    orientation="h",
                    name=plotly_text(shown.get(listing, listing)),
                    marker_color=colors[listing],
                    hoverinfo="text",
                    hovertext=[
                        f"{name}<br>{plotly_text(shown.get(listing, listing))}: "
                        f"{int(n)} documents ({100 * share:.1f}%)"
                        for name, n, share in zip(names, counts[listing], shares[listing])
                    ],
                )
            )
        height = max(360, len(order) * (bar_height * len(listings) + 14) + 140)
        figure.update_layout(
            barmode="group",
            bargap=0.25,
            bargroupgap=0.05,
            xaxis={
                "title": {"text": "share of the listing's documents (%)"},
                "ticksuffix": "%",
                "gridcolor": "#eeeeee",
            },
            yaxis={"autorange": "reversed", "automargin": True, "tickfont": {"size": 11}},
            legend={"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 0},
        )
    else:
        figure.add_trace(
            go.Heatmap(
                z=(shares.to_numpy() * 100).round(2),
                x=[plotly_text(shown.get(name, name)) for name in listings],
                y=names,
                customdata=counts.to_numpy(),
                colorscale="Blues",
                hovertemplate="%{y}<br>%{x}: %{customdata} documents (%{z:.1f}%)<extra></extra>",
                hoverongaps=False,
                colorbar={"title": {"text": "%"}},
            )
        )
        height = max(360, len(order) * 22 + 200)
        figure.update_layout(
            yaxis={"autorange": "reversed", "automargin": True}, xaxis={"tickangle": -45, "automargin": True}
        )
    if order and order[-1] < 0:
        figure.add_hrect(
            y0=len(order) - 1.5,
            y1=len(order) - 0.5,
            fillcolor=OUTLIER_COLOR,
            opacity=0.12,
            line_width=0,
            layer="below",
        )
    figure.update_layout(template="plotly_white", height=height, margin={"l": 10, "r": 20, "t": 40, "b": 40})
    return figure


def listing_trends(documents: pd.DataFrame, listings: list[str], topics: pd.DataFrame) -> pd.DataFrame:
    """The newest listing (the last in config order) against all before it, per topic.

    One row per topic (not the outliers) with documents and shares on each side, the change in
    percentage points, a status (new, gone: no papers on one side; rising, falling: q < 0.05;
    else unchanged), `significant` (q < 0.05, whatever the status: a "new" topic of one paper is
    not), the p-value of analyses.trends' test, the one of Over time, on the newest listing against
    the earlier ones (two periods: Fisher's exact test where the topic has few papers, else the
    likelihood-ratio test; it weighs the change by the listings' sizes, so 3 of 40 is weaker
    evidence than 300 of 4,000) and Benjamini-Hochberg q-values over the topics; sorted by the
    size of the change. Empty with fewer than two listings.
    """
    columns = [
        "topic",
        "label",
        "before",
        "before_total",
        "after",
        "after_total",
        "share_before",
        "share_after",
        "change",
        "status",
        "significant",
        "p_value",
        "q_value",
    ]
    if len(listings) < 2:
        return pd.DataFrame(columns=columns)

    order = [int(t) for t in topics["topic"] if int(t) >= 0]
    counts = listing_counts(documents, listings, order)
    totals = listing_totals(documents, listings)
    latest, earlier = listings[-1], listings[:-1]
    after = counts[latest].to_numpy(dtype=float)
    before = counts[earlier].sum(axis=1).to_numpy(dtype=float)
    n_after, n_before = float(totals[latest]), float(totals[earlier].sum())
    share_after = after / n_after if n_after else np.zeros_like(after)
    share_before = before / n_before if n_before else np.zeros_like(before)
    trends = [fit_trend([b, a], [n_before, n_after], [0.0, 1.0]) for b, a in zip(before, after)]
    p_values = np.array([t.p_value for t in trends])  # NaN: nothing to test, left out of the q-values
    q_values = trend_q(p_values)
    labels = dict(zip(topics["topic"].astype(int), topics["label"]))
    change = share_after - share_before
    moved = verdicts(q_values, np.array([t.direction for t in trends]), steady="unchanged")
    status = np.where(
        (before == 0) & (after > 0), "new", np.where((after == 0) & (before > 0), "gone", moved)
    )
    table = pd.DataFrame(
        {
            "topic": order,
            "label": [labels.get(t, "") for t in order],
            "before": before.astype(int),
            "before_total": int(n_before),
            "after": after.astype(int),
            "after_total": int(n_after),
            "share_before": share_before,
            "share_after": share_after,
            "change": change,
            "status": status,
            "significant": np.isfinite(q_values) & (q_values < TREND_Q),
            "p_value": p_values,
            "q_value": q_values,
        },
        columns=columns,
    )
    return table.reindex(table["change"].abs().sort_values(ascending=False, kind="stable").index).reset_index(
        drop=True
    )


def p_text(p: float) -> str:
    if not np.isfinite(p):
        return "not tested"
    return "p < 0.001" if p < 0.001 else f"p = {p:.3f}" if p < 0.01 else f"p = {p:.2f}"
