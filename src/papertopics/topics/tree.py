"""The tree of the topics: average linkage on their cosine similarity, and its cut into regions.

One tree for every reader: hierarchy.csv and the regions of topics.csv (topics.names.hierarchy
names its merges), the report's hierarchy page and the heatmap's order.
"""

from __future__ import annotations

import numpy as np
import pandas as pd


def topic_linkage(similarity: np.ndarray) -> np.ndarray | None:
    """SciPy linkage matrix (average, optimal leaf order) or None for fewer than 2 topics."""
    from scipy.cluster.hierarchy import linkage
    from scipy.spatial.distance import squareform

    if len(similarity) < 2:
        return None
    distances = np.clip(1.0 - np.asarray(similarity, dtype=np.float64), 0.0, 2.0)
    distances = (distances + distances.T) / 2
    np.fill_diagonal(distances, 0.0)
    return linkage(squareform(distances, checks=False), method="average", optimal_ordering=True)


def leaf_order(similarity: np.ndarray) -> list[int]:
    """Row indices in dendrogram order (similar topics side by side)."""
    from scipy.cluster.hierarchy import leaves_list

    tree = topic_linkage(similarity)
    return list(range(len(similarity))) if tree is None else leaves_list(tree).tolist()


def topic_tree(topic_ids: list[int], similarity: np.ndarray) -> pd.DataFrame:
    """Nodes of the average-linkage tree of the topics (the report's hierarchy): one row per node.

    Leaves are the topics (node = topic id); merges get ids above every topic id, in merge
    order. `level` is the node's height in merges (leaves 0).
    """
    ids = [int(t) for t in topic_ids]
    rows = [{"node": t, "parent": -1, "level": 0, "topics": [t], "height": 0.0} for t in ids]
    tree = topic_linkage(similarity)
    if tree is not None:
        base = max(ids) + 1
        node_of = {i: i for i in range(len(ids))}  # linkage index -> row
        for k, (left, right, height, _) in enumerate(tree):
            a, b = node_of[int(left)], node_of[int(right)]
            row = len(rows)
            rows.append(
                {
                    "node": base + k,
                    "parent": -1,
                    "level": 1 + max(rows[a]["level"], rows[b]["level"]),
                    "topics": rows[a]["topics"] + rows[b]["topics"],
                    "height": float(height),
                }
            )
            rows[a]["parent"] = rows[b]["parent"] = base + k
            node_of[len(ids) + k] = row
    return pd.DataFrame(rows)


def region_count(n_topics: int) -> int:
    """Regions for the zoomed-out map: about sqrt(topics), 6 to 15, never more than the topics."""
    return min(n_topics, max(6, min(15, round(np.sqrt(n_topics) * 1.2))))


def regions(tree: pd.DataFrame, k: int) -> dict[int, int]:
    """Topic -> the node that holds it when the tree is cut into k parts (last k-1 merges undone)."""
    merges = tree[tree["level"] > 0].sort_values("node")
    roots = set(tree.loc[tree["parent"] == -1, "node"])
    undone = merges["node"].tolist()[::-1][: max(0, k - 1)]
    cut = set(roots)
    for node in undone:
        cut.discard(node)
        cut |= set(tree.loc[tree["parent"] == node, "node"])
    region = {}
    for node in cut:
        for t in tree.loc[tree["node"] == node, "topics"].iloc[0]:
            region[int(t)] = int(node)
    return region
