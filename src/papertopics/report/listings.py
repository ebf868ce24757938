"""Comparison across listings: how each listing's documents spread over the topics.

A document that appears in several listings (merged as one) counts in each of them, so a
listing's shares always sum to 100 %.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from papertopics.report.colors import OUTLIER_COLOR, listing_colors
from papertopics.report.inputs import split_listings
from papertopics.report.text import plotly_text, short_label


def listing_counts(documents: pd.DataFrame, listings: list[str], topics: list[int]) -> pd.DataFrame:
    """Documents per (topic, listing): rows = topics in the given order, columns = listings."""
    exploded = documents[["topic", "listings"]].assign(listing=documents["listings"].map(split_listings))
    exploded = exploded.explode("listing")
    counts = pd.crosstab(exploded["topic"], exploded["listing"])
    return counts.reindex(index=topics, columns=listings, fill_value=0).astype(int)


def listing_totals(documents: pd.DataFrame, listings: list[str]) -> pd.Series:
    totals = pd.Series(0, index=listings, dtype=int)
    for cell in documents["listings"]:
        for name in split_listings(cell):
            if name in totals.index:
                totals[name] += 1
    return totals


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
            rows.append({"topic": int(topic), "label": labels.get(topic, ""), "size": int(row.sum()),
                         "listing": present[0]})
    return pd.DataFrame(rows, columns=["topic", "label", "size", "listing"])


def visualize_listing_shares(topics: pd.DataFrame, documents: pd.DataFrame, listings: list[str],
                             *, bar_height: int = 9) -> go.Figure:
    """Grouped horizontal bars (a heatmap beyond six listings): share of each listing per topic."""
    order = [t for t in topics["topic"].astype(int) if t >= 0] + [t for t in topics["topic"].astype(int) if t < 0]
    labels = dict(zip(topics["topic"].astype(int), topics["label"]))
    counts = listing_counts(documents, listings, order)
    shares = listing_shares(documents, listings, order)
    names = [plotly_text(short_label(t, labels[t], 46)) for t in order]
    figure = go.Figure()
    if len(listings) <= 6:
        colors = listing_colors(listings)
        for listing in listings:
            figure.add_trace(go.Bar(
                y=names, x=(shares[listing] * 100).round(2).tolist(), orientation="h",
                name=plotly_text(listing), marker_color=colors[listing],
                hoverinfo="text",
                hovertext=[f"{name}<br>{plotly_text(listing)}: {int(n)} documents ({100 * share:.1f}%)"
                           for name, n, share in zip(names, counts[listing], shares[listing])],
            ))
        height = max(360, len(order) * (bar_height * len(listings) + 14) + 140)
        figure.update_layout(barmode="group", bargap=0.25, bargroupgap=0.05,
                             xaxis={"title": {"text": "share of the listing's documents (%)"},
                                    "ticksuffix": "%", "gridcolor": "#eeeeee"},
                             yaxis={"autorange": "reversed", "automargin": True, "tickfont": {"size": 11}},
                             legend={"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 0})
    else:
        figure.add_trace(go.Heatmap(
            z=(shares.to_numpy() * 100).round(2), x=[plotly_text(l) for l in listings], y=names,
            customdata=counts.to_numpy(), colorscale="Blues",
            hovertemplate="%{y}<br>%{x}: %{customdata} documents (%{z:.1f}%)<extra></extra>",
            hoverongaps=False,
            colorbar={"title": {"text": "%"}}))
        height = max(360, len(order) * 22 + 200)
        figure.update_layout(yaxis={"autorange": "reversed", "automargin": True},
                             xaxis={"tickangle": -45, "automargin": True})
    if order and order[-1] < 0:
        figure.add_hrect(y0=len(order) - 1.5, y1=len(order) - 0.5, fillcolor=OUTLIER_COLOR,
                         opacity=0.12, line_width=0, layer="below")
    figure.update_layout(template="plotly_white", height=height,
                         margin={"l": 10, "r": 20, "t": 40, "b": 40})
    return figure
