"""Intertopic distance map: topics as bubbles, near when similar, area by size.

BERTopic's `visualize_topics` fits UMAP on the c-TF-IDF rows, which costs 12-14 s of numba
JIT in every new process; for a few dozen topics classical MDS (an eigendecomposition of
the double-centred squared distances) gives the same kind of picture in milliseconds, and
is deterministic.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from papertopics.report.colors import topic_color
from papertopics.report.model_files import TopicVectors
from papertopics.report.text import plotly_lines, plotly_text, short_label, truncate


def classical_mds(distances: np.ndarray, n_components: int = 2) -> np.ndarray:
    """Coordinates whose Euclidean distances best match `distances`; signs fixed for determinism."""
    distances = np.asarray(distances, dtype=np.float64)
    n = len(distances)
    coords = np.zeros((n, n_components))
    if n < 2:
        return coords
    centring = np.eye(n) - np.ones((n, n)) / n
    gram = -0.5 * centring @ (distances**2) @ centring
    values, vectors = np.linalg.eigh((gram + gram.T) / 2)
    order = np.argsort(values)[::-1][:n_components]
    for k, index in enumerate(order):
        if values[index] <= 1e-12:
            continue
        column = vectors[:, index] * np.sqrt(values[index])
        if column[np.argmax(np.abs(column))] < 0:
            column = -column
        coords[:, k] = column
    return coords


def visualize_intertopic(topics: pd.DataFrame, vectors: TopicVectors, *, height: int = 680) -> go.Figure:
    """Bubble map of the topics (outliers left out: they are not a topic)."""
    table = topics[topics["topic"] >= 0].reset_index(drop=True)
    ids = table["topic"].astype(int).tolist()
    similarity = vectors.similarity(ids) if ids else np.zeros((0, 0))
    coords = classical_mds(np.sqrt(np.clip(2.0 - 2.0 * similarity, 0.0, None)))
    sizes = table["size"].astype(float).to_numpy()
    max_size = sizes.max() if len(sizes) else 1.0
    figure = go.Figure()
    hover = []
    for topic, label, size, terms in zip(ids, table["label"], table["size"], table["top_terms"]):
        terms = ", ".join(term.strip() for term in str(terms).split(";") if term.strip())
        hover.append(
            f"<b>{plotly_text(short_label(topic, label, 80))}</b><br>{int(size)} documents"
            + (f"<br>{plotly_lines(terms, 60, 240)}" if terms else "")
        )
    figure.add_trace(
        go.Scatter(
            x=np.round(coords[:, 0], 5),
            y=np.round(coords[:, 1], 5),
            mode="markers+text",
            text=[plotly_text(truncate(str(label), 26)) for label in table["label"]],
            textposition="middle center",
            textfont={"size": 10, "color": "#1a1a1a"},
            customdata=ids,
            hovertext=hover,
            hoverinfo="text",
            marker={
                "size": sizes,
                "sizemode": "area",
                "sizeref": 2.0 * max_size / (70.0**2),
                "sizemin": 6,
                "color": [topic_color(topic) for topic in ids],
                "opacity": 0.75,
                "line": {"width": 1, "color": "#ffffff"},
            },
            showlegend=False,
        )
    )
    span = float(np.abs(coords).max()) if len(ids) > 1 else 1.0
    pad = span * 1.25 or 1.0
    axis = {
        "range": [-pad, pad],
        "zeroline": True,
        "zerolinecolor": "#d9d9d9",
        "showgrid": False,
        "showticklabels": False,
        "title": None,
    }
    figure.update_layout(
        template="plotly_white",
        height=height,
        margin={"l": 20, "r": 20, "t": 30, "b": 20},
        xaxis=axis,
        yaxis={**axis, "scaleanchor": "x", "scaleratio": 1},
        hoverlabel={"align": "left"},
    )
    return figure
