"""Names for the hierarchy of the topics: every merge of the topic tree, the regions first."""

from __future__ import annotations

import numpy as np
import pandas as pd

from papertopics.topics.names.chain import Names
from papertopics.topics.names.registry import name_phrases
from papertopics.topics.tree import MAX_REGION_SHARE, balanced_regions, region_count, regions, topic_tree
from papertopics.vectors import normalise, topic_ids


def name_hierarchy(
    namer: Names,
    assigned: np.ndarray,
    tree: pd.DataFrame,
    leaf_names: dict[int, str],
    region_of: dict[int, int],
) -> pd.DataFrame:
    """results/topics/hierarchy.csv: node, parent, level, topics (';'), size, label.

    Leaves keep their topic names; merges are named from the union of their documents, the
    regions first (they are what a zoomed-out map shows, so they must differ
    from each other), then every other merge with a name no other merge has.
    """
    assigned = np.asarray(assigned)
    docs = {
        int(n): np.flatnonzero(np.isin(assigned, topics)) for n, topics in zip(tree["node"], tree["topics"])
    }
    merges = [int(n) for n, level in zip(tree["node"], tree["level"]) if level > 0]
    region_names = namer.name_regions(assigned, region_of, leaf_names)
    labels = {
        int(n): leaf_names.get(int(n), "") for n, level in zip(tree["node"], tree["level"]) if level == 0
    }
    # a one-topic region is its topic: it shows the topic's name
    region_names.update({n: labels[n] for n in region_names if n in labels})
    rest = [n for n in merges if n not in region_names]
    named = namer.name_groups(
        {n: docs[n] for n in rest},
        taken={
            part for name in [*leaf_names.values(), *region_names.values()] for part in name_phrases(name)
        },
        fallback={n: "" for n in rest},
    )
    candidates = {**{n: [name] for n, name in region_names.items()}, **named.candidates}
    labels.update(region_names)
    labels.update(named.names)
    # a merge where no phrase stands out takes its larger child's name; the root is all topics
    for n in sorted(merges):  # merge ids grow bottom-up: children are named first
        if not candidates.get(n):
            kids = tree.loc[tree["parent"] == n, "node"].astype(int).tolist()
            labels[n] = labels[max(kids, key=lambda c: len(docs[c]))]
    root = int(tree.loc[tree["parent"] == -1, "node"].iloc[0])
    if root in merges and not candidates.get(root):
        labels[root] = "All topics"
    out = tree.copy()
    out["size"] = [len(docs[int(n)]) for n in out["node"]]
    out["label"] = [labels[int(n)] for n in out["node"]]
    out["topics"] = [";".join(str(t) for t in sorted(ts)) for ts in out["topics"]]
    return out[["node", "parent", "level", "topics", "size", "label"]]


def topic_hierarchy(
    namer: Names,
    assigned: np.ndarray,
    embeddings: np.ndarray,
    leaf_names: dict[int, str],
) -> tuple[pd.DataFrame, dict[int, int]]:
    """The named hierarchy of the topics in `assigned` and each topic's region (node id).

    Regions: Ward's merges of the topics' directions from the corpus mean, no region above
    MAX_REGION_SHARE of the documents (topics.tree.balanced_regions). The tree is the report's:
    average linkage on the cosine similarity of the topics' mean embeddings, each region one
    joint of it, so hierarchy.csv, the hierarchy page and the map's regions agree.
    """
    assigned = np.asarray(assigned)
    ids = topic_ids(assigned)
    if not ids:
        return pd.DataFrame(columns=["node", "parent", "level", "topics", "size", "label"]), {}
    sums = np.stack([embeddings[assigned == t].sum(axis=0) for t in ids]).astype(np.float64)
    sizes = np.array([(assigned == t).sum() for t in ids], dtype=np.float64)
    means = sums / sizes[:, None]
    units = normalise(means, dtype=np.float64)
    similarity = np.clip(units @ units.T, -1.0, 1.0)
    # regions from the topics' directions away from the corpus mean (what they do not share
    # with every abstract), cut into balanced parts
    centred = normalise(means - sums.sum(axis=0) / sizes.sum(), dtype=np.float64)
    groups = balanced_regions(centred, sizes, region_count(len(ids)), MAX_REGION_SHARE * sizes.sum())
    tree = topic_tree(ids, similarity, groups.tolist())
    region_of = regions(tree, dict(zip(ids, groups.tolist())))
    return name_hierarchy(namer, assigned, tree, leaf_names, region_of), region_of
