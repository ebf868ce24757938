"""Topic hierarchy: a dendrogram of the topics, merging the most similar first.

BERTopic's `visualize_hierarchy` builds the same kind of tree from c-TF-IDF; here average
linkage runs on cosine distances of the topic vectors (`TopicVectors.similarity`), so the
tree, the heatmap's order and the intertopic map agree.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from papertopics.report.colors import topic_color
from papertopics.report.model_files import TopicVectors
from papertopics.report.text import plotly_lines, plotly_text, short_label, truncate


def topic_linkage(similarity: np.ndarray, regions: list[int] | np.ndarray | None = None) -> np.ndarray | None:
    """SciPy linkage matrix (average, optimal leaf order) or None for fewer than 2 topics.

    With `regions` (one id per row, topics.csv's `region`), each region's topics are merged
    among themselves before regions merge, so every region is one joint of the tree: the
    hierarchy page, hierarchy.csv and the map's regions say the same thing.
    """
    from scipy.cluster.hierarchy import linkage
    from scipy.spatial.distance import squareform

    if len(similarity) < 2:
        return None
    distances = np.clip(1.0 - np.asarray(similarity, dtype=np.float64), 0.0, 2.0)
    distances = (distances + distances.T) / 2
    apart = None
    if regions is not None and len(set(np.asarray(regions).tolist())) > 1:
        regions = np.asarray(regions)
        apart = regions[:, None] != regions[None, :]
        distances = distances + 2.0 * apart  # above every within-region distance
    np.fill_diagonal(distances, 0.0)
    tree = linkage(squareform(distances, checks=False), method="average", optimal_ordering=True)
    if apart is not None:  # heights back on the cosine scale, never below a child's
        n = len(similarity)
        for k in range(len(tree)):
            kids = [tree[int(c) - n, 2] for c in tree[k, :2] if c >= n]
            height = tree[k, 2] - 2.0 if tree[k, 2] > 2.0 else tree[k, 2]
            tree[k, 2] = max([height] + [h + 1e-6 for h in kids])
    return tree


def leaf_order(similarity: np.ndarray) -> list[int]:
    """Row indices in dendrogram order (similar topics side by side)."""
    from scipy.cluster.hierarchy import leaves_list

    tree = topic_linkage(similarity)
    return list(range(len(similarity))) if tree is None else leaves_list(tree).tolist()


def merge_names(hierarchy: pd.DataFrame | None) -> dict[frozenset, str]:
    """Leaf topic set -> name of the merge holding exactly them (results/topics/hierarchy.csv)."""
    if hierarchy is None or not {"topics", "label", "level"} <= set(hierarchy.columns):
        return {}
    return {
        frozenset(int(t) for t in str(topics).split(";") if t.strip()): str(label)
        for topics, label, level in zip(hierarchy["topics"], hierarchy["label"], hierarchy["level"])
        if int(level) > 0 and str(label)
    }


def visualize_hierarchy(
    topics: pd.DataFrame, vectors: TopicVectors, *, leaf_height: int = 26, merges: pd.DataFrame | None = None
) -> go.Figure:
    """Dendrogram with topic names on the leaves and merge names on the joints (from `merges`,
    hierarchy.csv, when its leaf sets match this tree's); hover a joint to see what it joins."""
    from scipy.cluster.hierarchy import dendrogram

    table = topics[topics["topic"] >= 0].reset_index(drop=True)
    ids = table["topic"].astype(int).tolist()
    labels = dict(zip(ids, table["label"]))
    figure = go.Figure()
    regions = (
        pd.to_numeric(table["region"], errors="coerce").fillna(-1).astype(int).to_numpy()
        if "region" in table.columns
        else None
    )
    tree = topic_linkage(vectors.similarity(ids), regions) if ids else None
    if tree is None:
        figure.add_annotation(
            text=plotly_text("Only one topic: there is nothing to merge." if ids else "No topics."),
            showarrow=False,
            font={"size": 15},
        )
        figure.update_layout(
            template="plotly_white", height=300, xaxis={"visible": False}, yaxis={"visible": False}
        )
        return figure

    dendro = dendrogram(tree, no_plot=True, orientation="left", color_threshold=0)
    leaves = dendro["leaves"]
    # Members under every node of the tree, to say what a joint merges.
    members: dict[int, list[int]] = {i: [ids[i]] for i in range(len(ids))}
    for k, (left, right, _, _) in enumerate(tree):
        members[len(ids) + k] = members[int(left)] + members[int(right)]
    heights = {round(float(height), 9): len(ids) + k for k, height in enumerate(tree[:, 2])}

    named = merge_names(merges)
    joint_x, joint_y, joint_hover, joint_text = [], [], [], []
    for icoord, dcoord in zip(dendro["icoord"], dendro["dcoord"]):
        figure.add_trace(
            go.Scatter(
                x=dcoord,
                y=icoord,
                mode="lines",
                hoverinfo="skip",
                line={"color": "#5f6b7a", "width": 1.4},
                showlegend=False,
            )
        )
        node = heights.get(round(float(dcoord[1]), 9))
        joint_x.append(dcoord[1])
        joint_y.append((icoord[1] + icoord[2]) / 2)
        merged = members.get(node, [])
        names = "<br>".join(plotly_text(short_label(t, labels[t], 60)) for t in merged[:8])
        more = f"<br>... and {len(merged) - 8} more" if len(merged) > 8 else ""
        name = named.get(frozenset(merged), "")
        joint_text.append(plotly_text(truncate(name, 28)) if name and len(merged) >= 3 else "")
        title = f"<b>{plotly_text(name)}</b><br>" if name else ""
        joint_hover.append(f"{title}<b>{len(merged)} topics</b>, distance {dcoord[1]:.3f}<br>{names}{more}")
    figure.add_trace(
        go.Scatter(
            x=joint_x,
            y=joint_y,
            mode="markers+text" if named else "markers",
            text=joint_text,
            textposition="top left",
            textfont={"size": 10, "color": "#3b4654"},
            hovertext=joint_hover,
            hoverinfo="text",
            marker={"size": 7, "color": "#5f6b7a"},
            showlegend=False,
        )
    )
    leaf_ids = [ids[i] for i in leaves]
    positions = [5 + 10 * k for k in range(len(leaves))]
    figure.add_trace(
        go.Scatter(
            x=[0] * len(leaf_ids),
            y=positions,
            mode="markers",
            showlegend=False,
            marker={
                "size": 10,
                "color": [topic_color(t) for t in leaf_ids],
                "line": {"width": 1, "color": "#fff"},
            },
            hovertext=[
                f"<b>{plotly_text(short_label(t, labels[t], 80))}</b><br>"
                f"{int(table.loc[table['topic'] == t, 'size'].iloc[0])} documents<br>"
                + plotly_lines(
                    ", ".join(
                        x.strip() for x in table.loc[table["topic"] == t, "top_terms"].iloc[0].split(";")
                    ),
                    60,
                    200,
                )
                for t in leaf_ids
            ],
            hoverinfo="text",
        )
    )
    figure.update_layout(
        template="plotly_white",
        height=max(360, len(leaves) * leaf_height + 120),
        margin={"l": 10, "r": 30, "t": 30, "b": 50},
        hovermode="closest",
        xaxis={
            "title": {"text": "cosine distance"},
            "showgrid": True,
            "gridcolor": "#eeeeee",
            "zeroline": False,
            "range": [-0.015 * float(tree[:, 2].max()), 1.03 * float(tree[:, 2].max())],
        },
        yaxis={
            "tickmode": "array",
            "tickvals": positions,
            "ticktext": [plotly_text(short_label(t, labels[t], 52)) for t in leaf_ids],
            "side": "left",
            "showgrid": False,
            "zeroline": False,
            "automargin": True,
            "range": [0, 10 * len(leaves)],
        },
        hoverlabel={"align": "left"},
    )
    return figure
