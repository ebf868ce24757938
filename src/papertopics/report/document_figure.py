"""The document map's figure: one empty trace per topic and one for search matches; the page's
script fills the coordinates from report.documents' payload (see report.documents)."""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from papertopics.report.colors import topic_color

# Above this many points the map uses WebGL (scattergl); SVG stays crisper for small corpora.
WEBGL_THRESHOLD = 1000


def visualize_documents(
    documents: pd.DataFrame, map2d: pd.DataFrame, topics: pd.DataFrame, *, height: int = 720, **_ignored
) -> go.Figure:
    """One empty trace per topic (outliers first, grey, underneath) plus a 'search matches' trace.

    The page script fills the coordinates from the packed arrays of `document_payload`.
    """
    webgl = len(documents) > WEBGL_THRESHOLD
    kind = go.Scattergl if webgl else go.Scatter
    marker_size = 5 if len(documents) > 20000 else 6 if webgl else 10
    present = set(documents["topic"].astype(int))
    order = [t for t in topics["topic"].astype(int) if t < 0] + [
        t for t in topics["topic"].astype(int) if t >= 0
    ]
    figure = go.Figure()
    for topic in order:
        if topic not in present:
            continue
        outlier = topic < 0
        figure.add_trace(
            kind(
                x=[],
                y=[],
                customdata=[],
                hoverinfo="none",
                mode="markers",
                name=f"topic {topic}",
                showlegend=False,
                meta={"topic": int(topic)},
                marker={
                    "size": marker_size - 1 if outlier else marker_size,
                    "color": topic_color(topic),
                    "opacity": 0.5 if outlier else 0.85,
                    "line": {"width": 0 if webgl else 0.5, "color": "#ffffff"},
                },
            )
        )
    figure.add_trace(
        kind(
            x=[],
            y=[],
            customdata=[],
            hoverinfo="none",
            mode="markers",
            name="search matches",
            meta={"topic": None, "role": "matches"},
            showlegend=False,
            marker={
                "size": marker_size + 6,
                "color": "rgba(0,0,0,0)",
                "line": {"width": 2, "color": "#111111"},
            },
        )
    )
    figure.update_layout(
        template="plotly_white",
        height=height,
        margin={"l": 6, "r": 6, "t": 6, "b": 6},
        xaxis={"visible": False},
        yaxis={"visible": False, "scaleanchor": "x", "scaleratio": 1},
        showlegend=False,
        dragmode="pan",
        uirevision="keep",
    )
    return figure
