"""The tree of the topics: average linkage on their cosine similarity, and its cut into regions.

One tree for every reader: hierarchy.csv and the regions of topics.csv (topics.names.hierarchy
names its merges), the report's hierarchy page and the heatmap's order.
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pandas as pd


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


def table_regions(table: pd.DataFrame) -> np.ndarray | None:
    """Each row's region from topics.csv's `region` column (-1 where missing), or None without it."""
    if "region" not in table.columns:
        return None
    return pd.to_numeric(table["region"], errors="coerce").fillna(-1).astype(int).to_numpy()


def leaf_order(similarity: np.ndarray, regions: list[int] | np.ndarray | None = None) -> list[int]:
    """Row indices in dendrogram order (similar topics side by side; with `regions`, each
    region's topics together, in the hierarchy page's order)."""
    from scipy.cluster.hierarchy import leaves_list

    tree = topic_linkage(similarity, regions)
    return list(range(len(similarity))) if tree is None else leaves_list(tree).tolist()


def topic_tree(topic_ids: list[int], similarity: np.ndarray, groups: list[int] | None = None) -> pd.DataFrame:
    """Nodes of the average-linkage tree of the topics (the report's hierarchy): one row per node.

    Leaves are the topics (node = topic id); merges get ids above every topic id, in merge
    order. `level` is the node's height in merges (leaves 0).
    """
    ids = [int(t) for t in topic_ids]
    rows = [{"node": t, "parent": -1, "level": 0, "topics": [t], "height": 0.0} for t in ids]
    tree = topic_linkage(similarity, groups)
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


MAX_REGION_SHARE = 0.3  # no region of the zoomed-out map holds more of the documents


def balanced_regions(directions: np.ndarray, sizes: np.ndarray, k: int, cap: float) -> np.ndarray:
    """Region index per topic: Ward's merges of the topics' directions (unit rows; each topic
    weighs one), never making a region above `cap` documents while another merge is possible;
    stops at k regions. Ward's cost grows with the topics merged, so regions come out
    comparable instead of one swallowing most topics (as average linkage's cut did).
    Hand-written: SciPy's linkage has no size cap, and this is 30 lines at a few hundred topics."""
    n = len(directions)
    label = np.arange(n)
    if n <= k:
        return label
    docs = sizes.astype(np.float64).copy()
    weight = np.ones(n)
    means = directions.astype(np.float64)
    gram = means @ means.T  # of the regions' mean directions, updated in place at each merge
    alive = np.ones(n, dtype=bool)
    for _ in range(n - k):
        idx = np.flatnonzero(alive)
        g = gram[np.ix_(idx, idx)]
        sq = np.diag(g)
        dist = np.maximum(sq[:, None] + sq[None, :] - 2 * g, 0.0)
        w = weight[idx]
        cost = (w[:, None] * w[None, :]) / (w[:, None] + w[None, :]) * dist
        total = docs[idx][:, None] + docs[idx][None, :]
        np.fill_diagonal(cost, np.inf)
        allowed = np.where(total <= cap, cost, np.inf)
        if not np.isfinite(allowed).any():  # every merge overflows: the smallest one
            allowed = np.where(np.isfinite(cost), total, np.inf)
        i, j = np.unravel_index(int(np.argmin(allowed)), allowed.shape)
        a, b = idx[i], idx[j]
        row = (weight[a] * gram[a] + weight[b] * gram[b]) / (weight[a] + weight[b])
        row[a] = (
            weight[a] ** 2 * gram[a, a] + 2 * weight[a] * weight[b] * gram[a, b] + weight[b] ** 2 * gram[b, b]
        ) / (weight[a] + weight[b]) ** 2
        gram[a], gram[:, a] = row, row
        weight[a] += weight[b]
        docs[a] += docs[b]
        alive[b] = False
        label[label == b] = a
    return np.unique(label, return_inverse=True)[1]


def regions(tree: pd.DataFrame, groups: dict[int, int]) -> dict[int, int]:
    """Topic -> the tree node holding exactly its region's topics (the tree is built with
    `groups`, topic -> region index, so each region is one node)."""
    members: dict[int, set[int]] = defaultdict(set)
    for t, g in groups.items():
        members[g].add(int(t))
    node_of = {frozenset(int(t) for t in ts): int(n) for n, ts in zip(tree["node"], tree["topics"])}
    return {t: node_of[frozenset(members[g])] for t, g in groups.items()}
