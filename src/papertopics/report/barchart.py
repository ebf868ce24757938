"""Keyword bar chart: each topic's top c-TF-IDF terms, one small panel per topic."""

from __future__ import annotations

import math

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

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


def visualize_barchart(
    topics: pd.DataFrame,
    vectors: TopicVectors,
    *,
    n_words: int = 8,
    columns: int = 4,
    panel_height: int = 230,
) -> go.Figure:
    """Horizontal bars of term scores for every topic (outliers have no keywords: left out)."""
    table = topics[topics["topic"] >= 0].reset_index(drop=True)
    n = max(len(table), 1)
    columns = max(1, min(columns, n))
    rows = math.ceil(n / columns)
    titles = [plotly_text(short_label(int(t), label, 34)) for t, label in zip(table["topic"], table["label"])]
    figure = make_subplots(
        rows=rows,
        cols=columns,
        subplot_titles=titles or None,
        horizontal_spacing=min(0.5 / columns, 0.14),
        vertical_spacing=min(0.3 / rows, 0.12),
    )
    for i, (topic, size) in enumerate(zip(table["topic"].astype(int), table["size"])):
        words = topic_words(table, vectors, topic, n_words)[::-1]
        figure.add_trace(
            go.Bar(
                x=[round(score, 5) for _, score in words],
                y=[plotly_text(truncate(word, 22)) for word, _ in words],
                orientation="h",
                marker_color=topic_color(topic),
                showlegend=False,
                hovertemplate="%{y}: %{x:.4f}<extra>"
                + plotly_text(f"topic {topic} ({int(size)} docs)")
                + "</extra>",
            ),
            row=i // columns + 1,
            col=i % columns + 1,
        )
    # Scores are in the hover; x ticks and grids on dozens of panels cost more to draw than they tell.
    figure.update_xaxes(showgrid=False, showticklabels=False, zeroline=False, fixedrange=True)
    # Fixed room for the terms instead of automargin, whose relayout passes cost seconds on 50 panels.
    figure.update_yaxes(tickfont={"size": 11}, automargin=False, fixedrange=True, showgrid=False)
    figure.update_annotations(font={"size": 12})
    figure.update_layout(
        template="plotly_white",
        height=max(320, rows * panel_height + 80),
        margin={"l": 150, "r": 50, "t": 50, "b": 30},
        bargap=0.25,
    )
    return figure
