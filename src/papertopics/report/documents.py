"""Document map: every document a point at its 2-D UMAP position, coloured by topic.

The figure carries only what Plotly draws (coordinates, escaped hover text, the row index as
`customdata`); `document_payload` carries the text the page's script searches and shows in
the side panel, raw, to be set with `textContent` only.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from papertopics.report.colors import topic_color
from papertopics.report.inputs import split_listings
from papertopics.report.text import headline, plotly_lines, plotly_text, short_label

# Above this many points the map uses WebGL (scattergl); SVG stays crisper for small corpora.
WEBGL_THRESHOLD = 1000


def document_headlines(documents: pd.DataFrame, max_chars: int = 200) -> list[str]:
    return [headline(title, text, max_chars) for title, text in zip(documents["title"], documents["text"])]


def hover_texts(documents: pd.DataFrame, labels: dict[int, str], max_chars: int) -> list[str]:
    """Escaped, wrapped tooltip per document: headline, listing(s), topic."""
    texts = []
    for head, cell, topic in zip(document_headlines(documents, max_chars), documents["listings"], documents["topic"]):
        listing = ", ".join(split_listings(cell))
        texts.append(f"<b>{plotly_lines(head, 70)}</b><br>"
                     f"listing: {plotly_text(listing)}<br>"
                     f"topic: {plotly_text(short_label(int(topic), labels.get(int(topic), ''), 70))}")
    return texts


def visualize_documents(documents: pd.DataFrame, map2d: pd.DataFrame, topics: pd.DataFrame, *,
                        max_hover_chars: int = 300, height: int = 720) -> go.Figure:
    """One trace per topic (outliers first, grey, underneath) plus an empty 'search matches' trace."""
    labels = dict(zip(topics["topic"].astype(int), topics["label"]))
    sizes = documents["topic"].value_counts()
    coords = documents[["doc_id"]].merge(map2d, on="doc_id", how="left")
    x = np.round(coords["x"].to_numpy(dtype=float), 4)
    y = np.round(coords["y"].to_numpy(dtype=float), 4)
    hover = np.array(hover_texts(documents, labels, max_hover_chars), dtype=object)
    kind = go.Scattergl if len(documents) > WEBGL_THRESHOLD else go.Scatter
    marker_size = 6 if len(documents) > WEBGL_THRESHOLD else 10
    order = [t for t in topics["topic"].astype(int) if t < 0] + [t for t in topics["topic"].astype(int) if t >= 0]
    figure = go.Figure()
    topic_array = documents["topic"].to_numpy()
    for topic in order:
        rows = np.flatnonzero(topic_array == topic)
        if not len(rows):
            continue
        outlier = topic < 0
        figure.add_trace(kind(
            x=x[rows].tolist(), y=y[rows].tolist(), customdata=rows.tolist(), hovertext=hover[rows].tolist(), hoverinfo="text",
            mode="markers", name=plotly_text(f"{short_label(topic, labels.get(topic, ''), 44)} ({int(sizes.get(topic, 0))})"),
            legendgroup=str(topic), meta={"topic": int(topic)},
            marker={"size": marker_size - 1 if outlier else marker_size, "color": topic_color(topic),
                    "opacity": 0.55 if outlier else 0.85,
                    "line": {"width": 0 if kind is go.Scattergl else 0.5, "color": "#ffffff"}},
        ))
    figure.add_trace(kind(
        x=[], y=[], customdata=[], hovertext=[], hoverinfo="text", mode="markers",
        name="search matches", meta={"topic": None, "role": "matches"}, showlegend=False,
        marker={"size": marker_size + 6, "color": "rgba(0,0,0,0)",
                "line": {"width": 2, "color": "#111111"}},
    ))
    figure.update_layout(
        template="plotly_white", height=height, margin={"l": 10, "r": 10, "t": 36, "b": 10},
        xaxis={"visible": False}, yaxis={"visible": False, "scaleanchor": "x", "scaleratio": 1},
        legend={"title": {"text": "topics (documents)", "font": {"size": 12}}, "itemsizing": "constant",
                "font": {"size": 11}, "x": 1.0, "xanchor": "left", "y": 1.0, "yanchor": "top",
                "bgcolor": "rgba(255,255,255,0.85)"},
        hoverlabel={"align": "left"}, dragmode="pan", uirevision="keep",
    )
    return figure


def document_payload(documents: pd.DataFrame, topics: pd.DataFrame, listings: list[str],
                     extra_columns: list[str]) -> dict:
    """Raw text for the page script: column arrays (compact), listings as indices."""
    index = {name: i for i, name in enumerate(listings)}
    return {
        "doc_id": documents["doc_id"].tolist(),
        "headline": document_headlines(documents, 150),
        "title": documents["title"].tolist(),
        "text": documents["text"].tolist(),
        "topic": documents["topic"].astype(int).tolist(),
        "listings": [[index[name] for name in split_listings(cell) if name in index] for cell in documents["listings"]],
        "extra": {column: documents[column].tolist() for column in extra_columns
                  if documents[column].astype(str).str.len().gt(0).any()},
        "listing_names": listings,
        "topic_labels": {str(int(t)): label for t, label in zip(topics["topic"], topics["label"])},
        "topic_colors": {str(int(t)): topic_color(int(t)) for t in topics["topic"]},
    }
