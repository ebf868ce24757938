"""Topic hierarchy: a dendrogram of the topics, merging the most similar first.

BERTopic's `visualize_hierarchy` builds the same kind of tree from c-TF-IDF; here average
linkage runs on cosine distances of the topic vectors (`TopicVectors.similarity`), so the
tree, the heatmap's order and the intertopic map agree.
"""

from __future__ import annotations

import pandas as pd
import plotly.graph_objects as go

from papertopics.report.colors import topic_color
from papertopics.report.model_files import TopicVectors
from papertopics.report.text import plotly_lines, plotly_text, short_label, truncate
from papertopics.topics.tree import table_regions, topic_linkage


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
    tree = topic_linkage(vectors.similarity(ids), table_regions(table)) if ids else None
    if tree is None:
        return _nothing_to_merge(bool(ids))

    figure = go.Figure()
    dendro = dendrogram(tree, no_plot=True, orientation="left", color_threshold=0)
    leaves = dendro["leaves"]
    _add_joints(figure, dendro, tree, ids, labels, merge_names(merges))
    leaf_ids = [ids[i] for i in leaves]
    positions = [5 + 10 * k for k in range(len(leaves))]
    figure.add_trace(_leaf_markers(table, leaf_ids, labels, positions))
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


def _nothing_to_merge(any_topic: bool) -> go.Figure:
    figure = go.Figure()
    figure.add_annotation(
        text=plotly_text("Only one topic: there is nothing to merge." if any_topic else "No topics."),
        showarrow=False,
        font={"size": 15},
    )
    figure.update_layout(
        template="plotly_white", height=300, xaxis={"visible": False}, yaxis={"visible": False}
    )
    return figure


def _add_joints(figure: go.Figure, dendro: dict, tree, ids: list[int], labels: dict, named: dict) -> None:
    """The tree's branches, then one marker per joint: its merge name (`named`) and, on hover,
    the topics it joins."""
    # Members under every node of the tree, to say what a joint merges.
    members: dict[int, list[int]] = {i: [ids[i]] for i in range(len(ids))}
    for k, (left, right, _, _) in enumerate(tree):
        members[len(ids) + k] = members[int(left)] + members[int(right)]
    heights = {round(float(height), 9): len(ids) + k for k, height in enumerate(tree[:, 2])}

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


def _leaf_markers(table: pd.DataFrame, leaf_ids: list[int], labels: dict, positions: list[int]) -> go.Scatter:
    """One coloured marker per topic at the tree's leaves; hover: name, size, top terms."""
    return go.Scatter(
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
                ", ".join(x.strip() for x in table.loc[table["topic"] == t, "top_terms"].iloc[0].split(";")),
                60,
                200,
            )
            for t in leaf_ids
        ],
        hoverinfo="text",
    )
