"""Fit-time steering (config.yaml topics.merge and the pinned topics' ids), run by fit_topics.

`topics.merge` joins topics in fit_topics, before the c-TF-IDF (merge_clusters): each list's
topics become one cluster, so its terms, name, coverage, region and stability are those of
the joined topic; no embedding or UMAP is redone. Which clusters of this run a list means is
read from the last finished run's topics: a cluster joins when most of its documents were in
the list's topics then, so the merge holds when a rerun moves the clustering a little. The
joined topic keeps the list's first id: the previous run's topics are shown to the id
matching (topics.identity) with the list's topics as one, under the first id. The snapshot's
meta records {first id: the ids merged into it}, so a later run knows the others were merged,
not lost.

A pinned topic keeps its id across reruns (pin_previous, pinned_ids): the snapshot's meta
records {pinned name: id}.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from papertopics.constants import OUTLIER

# A document of this run that the last finished run did not have (merge_clusters' `before`).
NOT_IN_LAST_RUN = -2

# A cluster of this run joins a merge list when at least this share of its documents (among
# those the last run had) were in the list's topics then.
MERGE_MOSTLY = 0.5


def config_merges(merge) -> list[list[int]]:
    """topics.merge as lists of ints (the schema check refused lists of one and repeats)."""
    return [[int(t) for t in group] for group in (merge or [])]


def merge_clusters(
    doc_ids: list[str],
    clusters: np.ndarray,
    previous,
    merge,
) -> tuple[np.ndarray, object, dict[int, list[int]], list[str]]:
    """The clusters with each topics.merge list joined into one; the previous snapshot to match
    the ids against (the list's topics as one topic under its first id); {first id: ids merged
    into it} for the new snapshot's meta; one warning line per list that cannot be applied.

    `previous` is history.load_snapshot's answer ((TopicSnapshot, meta) or None): without a
    previous run there are no ids to merge yet, and every list is a warning.
    """
    from papertopics.topics.identity import TopicSnapshot

    groups = config_merges(merge)
    clusters = np.asarray(clusters, dtype=int).copy()
    if not groups:
        return clusters, previous, {}, []
    if previous is None:
        return clusters, previous, {}, [_waiting_line(i, group) for i, group in enumerate(groups)]
    snapshot, meta = previous
    known_merged = {int(k): [int(t) for t in v] for k, v in (meta.get("merged") or {}).items()}
    prev_docs = snapshot.documents[["doc_id", "topic"]].copy()
    prev_docs["topic"] = prev_docs["topic"].astype(int)
    prev_topic = dict(zip(prev_docs["doc_id"], prev_docs["topic"]))
    before = np.array([prev_topic.get(d, NOT_IN_LAST_RUN) for d in doc_ids])
    present = set(prev_docs["topic"]) - {OUTLIER}
    warnings: list[str] = []
    relabel: dict[int, int] = {}  # previous id -> the first id of its list
    record: dict[int, list[int]] = {}
    next_label = int(clusters.max()) + 1 if len(clusters) else 0
    for i, group in enumerate(groups):
        first, rest = group[0], group[1:]
        # ids merged in an earlier run live on as the first id of their list
        gone = [t for t in group if t not in present and not any(t in v for v in known_merged.values())]
        if gone:
            warnings.append(
                f"config.yaml topics.merge[{i}]: {group}: the last run has no topic "
                f"{', '.join(map(str, gone))} (split, merged or vanished: results/topics/changes.csv); "
                f"the other topics of the list are merged"
            )
        ids = [t for t in group if t in present]
        if first not in present:
            continue  # the list's id is gone: nothing to keep the merge under
        members = np.isin(before, ids)
        joined = []
        for c in np.unique(clusters[clusters != OUTLIER]):
            mine = clusters == c
            known = mine & (before != NOT_IN_LAST_RUN)
            if known.any() and members[known].mean() >= MERGE_MOSTLY:
                joined.append(int(c))
        if len(joined) >= 2:
            clusters[np.isin(clusters, joined)] = next_label
            next_label += 1
        for t in ids:
            relabel[t] = first
        parts = sorted({*known_merged.get(first, []), *(t for t in rest if t in present)})
        if parts:
            record[first] = parts
    if relabel:
        docs = prev_docs.copy()
        docs["topic"] = docs["topic"].map(lambda t: relabel.get(t, t))
        topics = snapshot.topics[
            ~snapshot.topics["topic"].astype(int).isin(set(relabel) - set(relabel.values()))
        ].copy()
        # a list joined for the first time is named afresh (its first topic's name was a part's)
        fresh = {first for first, merged in record.items() if any(t in present for t in merged)}
        if "label" in topics.columns:
            topics["label"] = [
                "" if int(t) in fresh else label for t, label in zip(topics["topic"], topics["label"])
            ]
        previous = (TopicSnapshot(topics.reset_index(drop=True), docs), meta)
    return _renumbered(clusters), previous, record, warnings


def _waiting_line(i: int, group: list[int]) -> str:
    """One warning line for a merge list given before any run finished in the folder."""
    return (
        f"config.yaml topics.merge[{i}]: {group}: no finished run to take topic ids from "
        f"(results/topics/history is empty); the topics are merged from the next run on"
    )


def pin_previous(previous, doc_ids: list[str], pinned: np.ndarray | None):
    """The previous snapshot shown to the id matching with each pinned topic's id (snapshot
    meta "pinned": {name: id}) holding exactly this run's papers of that pinned topic, so a
    pinned topic keeps its id however far its papers moved (another min_similarity, examples).
    A pinned topic no paper joined this time is taken out altogether: no other topic continues
    it (by its papers or its centroid), so its id, name and reading list go to nothing else."""
    if previous is None or pinned is None:
        return previous
    from papertopics.topics.identity import TopicSnapshot

    snapshot, meta = previous
    ids = {str(name): int(t) for name, t in (meta.get("pinned") or {}).items()}
    if not ids:
        return previous
    pinned = np.asarray(pinned, dtype=object)
    docs = snapshot.documents.copy()
    docs["topic"] = docs["topic"].astype(int)
    name_of = docs["doc_id"].map(dict(zip(doc_ids, pinned))).fillna("")
    for name, topic in ids.items():
        docs.loc[docs["topic"] == topic, "topic"] = OUTLIER
        docs.loc[name_of == name, "topic"] = topic
    empty = {topic for name, topic in ids.items() if not (pinned == name).any()}
    topics = snapshot.topics[~snapshot.topics["topic"].astype(int).isin(empty)].reset_index(drop=True)
    return TopicSnapshot(topics, docs), meta


def pinned_ids(
    documents: pd.DataFrame, doc_ids: list[str], pinned: np.ndarray, previous, names: list[str]
) -> tuple[dict[str, int], dict[str, int]]:
    """({pinned name: stable id} of the pinned topics this run has (document_topics' topics),
    the same with the ids of pinned topics no paper joined this time kept from the last run):
    the first names topics.csv's `pinned`, the second is the snapshot's meta, so a pinned topic
    that gathers papers again gets its id back and no other topic ever takes it."""
    topic_of = dict(zip(documents["doc_id"], documents["topic"].astype(int)))
    found: dict[str, int] = {}
    for doc_id, name in zip(doc_ids, pinned):
        if name and name not in found and topic_of.get(doc_id, OUTLIER) != OUTLIER:
            found[str(name)] = topic_of[doc_id]
    before = (previous[1].get("pinned") or {}) if previous is not None else {}
    kept = {name: found.get(name, before.get(name)) for name in names if name in found or name in before}
    return {name: found[name] for name in names if name in found}, kept


def merge_changes(previous, fitted) -> pd.DataFrame:
    """changes.csv against the last run as it was (not as merge_clusters showed it to the id
    matching): the list's other topics read "merged" into the first."""
    from papertopics.topics.identity import topic_changes

    if previous is None:
        return fitted.changes
    ids = fitted.snapshot.ids()
    changes = topic_changes(previous[0], fitted.snapshot, {t: t for t in ids} | {OUTLIER: OUTLIER})
    current = dict(zip(fitted.topics["topic"].astype(int), fitted.topics["label"]))
    changes["label"] = changes["topic"].map(current).fillna(changes["label"])
    return changes


def _renumbered(clusters: np.ndarray) -> np.ndarray:
    """Cluster labels 0..k-1 in order of first label (outliers stay OUTLIER)."""
    real = np.unique(clusters[clusters != OUTLIER])
    lookup = {int(c): i for i, c in enumerate(real)}
    return np.array([lookup.get(int(c), OUTLIER) for c in clusters], dtype=int)
