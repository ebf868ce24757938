"""Topic similarity heatmap: cosine similarity of every pair of topics, in dendrogram order."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from papertopics.report.model_files import TopicVectors
from papertopics.report.text import plotly_text, short_label
from papertopics.topics.tree import leaf_order, table_regions


def visualize_heatmap(topics: pd.DataFrame, vectors: TopicVectors) -> go.Figure:
    """Square heatmap; similar topics sit together because rows follow the hierarchy page's
    leaves, each region of the map in one block."""
    table = topics[topics["topic"] >= 0].reset_index(drop=True)
    ids = table["topic"].astype(int).tolist()
    similarity = vectors.similarity(ids)
    order = leaf_order(similarity, table_regions(table)) if len(ids) else []
    ordered = [ids[i] for i in order]
    matrix = similarity[np.ix_(order, order)] if order else np.zeros((0, 0))
    labels = dict(zip(ids, table["label"]))
    names = [plotly_text(short_label(t, labels[t], 40)) for t in ordered]
    off_diagonal = matrix[~np.eye(len(matrix), dtype=bool)] if len(matrix) > 1 else np.array([0.0])
    figure = go.Figure(
        go.Heatmap(
            z=np.round(matrix, 4),
            x=names,
            y=names,
            colorscale="Blues",
            zmin=float(max(0.0, off_diagonal.min())),
            zmax=1.0,
            hovertemplate="%{y}<br>%{x}<br>cosine similarity %{z:.3f}<extra></extra>",
            colorbar={"title": {"text": "similarity"}, "thickness": 14},
        )
    )
    cell = max(14, min(64, 760 // max(len(ids), 1)))
    figure.update_layout(
        template="plotly_white",
        autosize=False,
        width=len(ids) * cell + 420,
        height=len(ids) * cell + 300,
        margin={"l": 10, "r": 10, "t": 20, "b": 10},
        xaxis={"tickangle": -45, "automargin": True, "tickfont": {"size": 10}, "side": "bottom"},
        yaxis={"automargin": True, "tickfont": {"size": 10}, "autorange": "reversed"},
    )
    return figure
