"""Keyword bar chart: each topic's top c-TF-IDF terms, one small panel per topic."""

from __future__ import annotations

import math

import pandas as pd
import plotly.graph_objects as go

from papertopics.report.colors import topic_color
from papertopics.report.model_files import TopicVectors
from papertopics.report.text import plotly_text, short_label, truncate


def topic_words(
    topics: pd.DataFrame, vectors: TopicVectors, topic: int, n_words: int
) -> list[tuple[str, float]]:
    """(term, score), best first: the model's scores, else the order of topics.csv's top_terms."""
    words = [(word, score) for word, score in vectors.words.get(topic, []) if word and score > 0]
    if not words:
        row = topics.loc[topics["topic"] == topic, "top_terms"]
        terms = [term.strip() for term in (row.iloc[0] if len(row) else "").split(";") if term.strip()]
        words = [(term, float(len(terms) - i)) for i, term in enumerate(terms)]
    return words[:n_words]


def _panel_axes(suffix: str, x0: float, y1: float, width: float, height: float) -> dict:
    """One panel's x and y axes, placed in the figure's paper coordinates."""
    return {
        # Scores are in the hover; x ticks and grids on dozens of panels cost more to draw than they tell.
        f"xaxis{suffix}": {
            "domain": [max(0.0, x0), min(1.0, x0 + width)],
            "anchor": f"y{suffix}",
            "showgrid": False,
            "showticklabels": False,
            "zeroline": False,
            "fixedrange": True,
        },
        # Fixed room for the terms instead of automargin, whose relayout passes cost seconds on 50 panels.
        f"yaxis{suffix}": {
            "domain": [max(0.0, y1 - height), min(1.0, y1)],
            "anchor": f"x{suffix}",
            "tickfont": {"size": 11},
            "automargin": False,
            "fixedrange": True,
            "showgrid": False,
        },
    }


def visualize_barchart(
    topics: pd.DataFrame,
    vectors: TopicVectors,
    *,
    n_words: int = 8,
    columns: int = 4,
    panel_height: int = 230,
) -> go.Figure:
    """Horizontal bars of term scores for every topic (outliers have no keywords: left out).

    The panels' axes and titles are laid out here, in one layout dict, rather than with
    make_subplots and add_trace(row, col): Plotly validates every call, which took 2.5 s for
    the 130 panels of a 75k-abstract corpus, and 0.5 s this way.
    """
    table = topics[topics["topic"] >= 0].reset_index(drop=True)
    n = max(len(table), 1)
    columns = max(1, min(columns, n))
    rows = math.ceil(n / columns)
    h_gap, v_gap = min(0.5 / columns, 0.14), min(0.3 / rows, 0.12)
    width = (1 - h_gap * (columns - 1)) / columns
    height = (1 - v_gap * (rows - 1)) / rows
    traces, annotations = [], []
    layout: dict = {}
    for i, (topic, size, label) in enumerate(zip(table["topic"].astype(int), table["size"], table["label"])):
        row, col = divmod(i, columns)
        x0 = col * (width + h_gap)
        y1 = 1 - row * (height + v_gap)
        suffix = "" if i == 0 else str(i + 1)
        layout.update(_panel_axes(suffix, x0, y1, width, height))
        words = topic_words(table, vectors, topic, n_words)[::-1]
        traces.append(
            {
                "type": "bar",
                "x": [round(score, 5) for _, score in words],
                "y": [plotly_text(truncate(word, 22)) for word, _ in words],
                "orientation": "h",
                "marker": {"color": topic_color(topic)},
                "showlegend": False,
                "xaxis": f"x{suffix}",
                "yaxis": f"y{suffix}",
                "hovertemplate": "%{y}: %{x:.4f}<extra>"
                + plotly_text(f"topic {topic} ({int(size)} docs)")
                + "</extra>",
            }
        )
        annotations.append(
            {
                "text": plotly_text(short_label(int(topic), label, 34)),
                "x": x0 + width / 2,
                "y": y1,
                "xref": "paper",
                "yref": "paper",
                "xanchor": "center",
                "yanchor": "bottom",
                "showarrow": False,
                "font": {"size": 12},
            }
        )
    layout.update(
        template="plotly_white",
        height=max(320, rows * panel_height + 80),
        margin={"l": 150, "r": 50, "t": 50, "b": 30},
        bargap=0.25,
        annotations=annotations,
    )
    return go.Figure(data=traces, layout=layout)
