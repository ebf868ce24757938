"""The reader's curation of the map, from config.yaml's `topics` section: names, merges, pins.

Topic ids are stable across reruns (topics.identity), so what a reader says about topic 12 in
config.yaml stays with topic 12: `topics.names` gives a topic its name everywhere. A name is
applied by its own light job (rule curate_topics) after fit_topics, to the fitted tables
(results/topics/fit/*.csv) -> the tables every reader reads (results/topics/*.csv): a rename
reruns that job and the report, never the fit. A name whose topic is gone from this run (it
split, merged into another or vanished) is one warning naming the key; the run goes on.

`topics.merge` joins topics in fit_topics, before the c-TF-IDF (merge_clusters): each list's
topics become one cluster, so its terms, name, coverage, region and stability are those of
the joined topic; no embedding or UMAP is redone. Which clusters of this run a list means is
read from the last finished run's topics: a cluster joins when most of its documents were in
the list's topics then, so the merge holds when a rerun moves the clustering a little. The
joined topic keeps the list's first id: the previous run's topics are shown to the id
matching (topics.identity) with the list's topics as one, under the first id. The snapshot's
meta records {first id: the ids merged into it}, so a later run knows the others were merged,
not lost.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path

import numpy as np
import pandas as pd

log = logging.getLogger(__name__)

# The keys of config.yaml's `topics` section that curate the fitted map. fit_topics does not
# take `names` (curate_topics applies them), so a rename never refits.
CURATION_KEYS = ("names", "merge", "pinned", "pinned_min_similarity")
# topics.csv's column saying who named the topic: the reader (config.yaml) or papertopics.
NAMED_BY = "named_by"
BY_CONFIG = "config.yaml"
BY_PAPERTOPICS = "papertopics"
# The fitted tables curate_topics reads (results/topics/fit/<name>) and rewrites (results/topics/<name>).
TABLES = ("topics.csv", "document_topics.csv", "changes.csv", "hierarchy.csv")


def fit_settings(topics: Mapping) -> dict:
    """config.yaml's `topics` without the keys fit_topics never reads (a rename reruns no fit)."""
    return {key: value for key, value in topics.items() if key not in ("names",)}


def config_names(names: Mapping | None) -> dict[int, str]:
    """topics.names as {topic id: name}; the schema check (config._cross_field_problem) has
    already refused keys that are not topic ids and empty names."""
    return {int(str(key).strip()): " ".join(str(value).split()) for key, value in (names or {}).items()}


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
        return (
            clusters,
            previous,
            {},
            [
                f"config.yaml topics.merge[{i}]: {group}: no finished run to take topic ids from "
                f"(results/topics/history is empty); the topics are merged from the next run on"
                for i, group in enumerate(groups)
            ],
        )
    snapshot, meta = previous
    known_merged = {int(k): [int(t) for t in v] for k, v in (meta.get("merged") or {}).items()}
    prev_docs = snapshot.documents[["doc_id", "topic"]].copy()
    prev_docs["topic"] = prev_docs["topic"].astype(int)
    prev_topic = dict(zip(prev_docs["doc_id"], prev_docs["topic"]))
    before = np.array([prev_topic.get(d, -2) for d in doc_ids])  # -2: not in the last run
    present = set(prev_docs["topic"]) - {-1}
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
        for c in np.unique(clusters[clusters != -1]):
            mine = clusters == c
            known = mine & (before != -2)
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


def pin_previous(previous, doc_ids: list[str], pinned: np.ndarray | None):
    """The previous snapshot shown to the id matching with each pinned topic's id (snapshot
    meta "pinned": {name: id}) holding exactly this run's papers of that pinned topic, so a
    pinned topic keeps its id however far its papers moved (another min_similarity, examples)."""
    if previous is None or pinned is None:
        return previous
    from papertopics.topics.identity import TopicSnapshot

    snapshot, meta = previous
    ids = {str(name): int(t) for name, t in (meta.get("pinned") or {}).items()}
    pinned = np.asarray(pinned, dtype=object)
    if not ids or not (pinned != "").any():
        return previous
    docs = snapshot.documents.copy()
    docs["topic"] = docs["topic"].astype(int)
    here = dict(zip(doc_ids, pinned))
    name_of = docs["doc_id"].map(here).fillna("")
    for name, topic in ids.items():
        docs.loc[docs["topic"] == topic, "topic"] = -1
        docs.loc[name_of == name, "topic"] = topic
    return TopicSnapshot(snapshot.topics, docs), meta


def pinned_ids(
    documents: pd.DataFrame, doc_ids: list[str], pinned: np.ndarray, previous, names: list[str]
) -> dict[str, int]:
    """{pinned name: stable id} of this run (from document_topics' topics), with the ids of
    pinned topics no paper joined this time kept from the last run."""
    topic_of = dict(zip(documents["doc_id"], documents["topic"].astype(int)))
    found: dict[str, int] = {}
    for doc_id, name in zip(doc_ids, pinned):
        if name and name not in found and topic_of.get(doc_id, -1) != -1:
            found[str(name)] = topic_of[doc_id]
    before = (previous[1].get("pinned") or {}) if previous is not None else {}
    return {name: found.get(name, before.get(name)) for name in names if name in found or name in before}


def merge_changes(previous, fitted) -> pd.DataFrame:
    """changes.csv against the last run as it was (not as merge_clusters showed it to the id
    matching): the list's other topics read "merged" into the first."""
    from papertopics.topics.identity import topic_changes

    if previous is None:
        return fitted.changes
    ids = fitted.snapshot.ids()
    changes = topic_changes(previous[0], fitted.snapshot, {t: t for t in ids} | {-1: -1})
    current = dict(zip(fitted.topics["topic"].astype(int), fitted.topics["label"]))
    changes["label"] = changes["topic"].map(current).fillna(changes["label"])
    return changes


def _renumbered(clusters: np.ndarray) -> np.ndarray:
    """Cluster labels 0..k-1 in order of first label (outliers stay -1)."""
    real = np.unique(clusters[clusters != -1])
    lookup = {int(c): i for i, c in enumerate(real)}
    return np.array([lookup.get(int(c), -1) for c in clusters], dtype=int)


def _read(path: str | Path) -> pd.DataFrame:
    """A table as text, cell for cell ("NA" stays "NA"): rewritten, it reads as fit_topics wrote it."""
    return pd.read_csv(path, dtype=str, keep_default_na=False, na_values=[], encoding="utf-8")


def apply_names(
    tables: dict[str, pd.DataFrame], names: Mapping[int, str]
) -> tuple[dict[str, pd.DataFrame], list[int]]:
    """The fitted tables with the reader's names; the ids of names whose topic is not in this run.

    topics.csv gets `named_by` (config.yaml | papertopics), document_topics.csv the names in
    topic_label, hierarchy.csv its leaves' labels, changes.csv its current labels.
    """
    out = {key: table.copy() for key, table in tables.items()}
    topics = out["topics.csv"]
    ids = topics["topic"].astype(int)
    present = set(ids) - {-1}
    missing = sorted(t for t in names if t not in present)
    given = {t: name for t, name in names.items() if t in present}
    topics["label"] = [given.get(t, label) for t, label in zip(ids, topics["label"])]
    topics[NAMED_BY] = [BY_CONFIG if t in given else ("" if t == -1 else BY_PAPERTOPICS) for t in ids]
    documents = out.get("document_topics.csv")
    if documents is not None and "topic_label" in documents:
        topic = documents["topic"].astype(int)
        documents["topic_label"] = [given.get(t, label) for t, label in zip(topic, documents["topic_label"])]
    hierarchy = out.get("hierarchy.csv")
    if hierarchy is not None and len(hierarchy):
        leaf = hierarchy["level"].astype(int) == 0
        node = hierarchy["node"].astype(int)
        hierarchy["label"] = [
            given.get(n, label) if is_leaf else label
            for n, label, is_leaf in zip(node, hierarchy["label"], leaf)
        ]
    changes = out.get("changes.csv")
    if changes is not None and len(changes):
        topic = changes["topic"].astype(int)
        changes["label"] = [given.get(t, label) for t, label in zip(topic, changes["label"])]
    return out, missing


def missing_name_line(topic: int, name: str) -> str:
    """One warning line for a name whose topic this run does not have."""
    return (
        f"config.yaml topics.names: {topic} ({name!r}): this run has no topic {topic} (it split, "
        f"merged into another or vanished: results/topics/changes.csv says which); give the name "
        f"to a topic id of results/topics/topics.csv or remove the line"
    )


PINNED_COLUMNS = ("topic", "name", "rank", "similarity", "doc_id", "title", "listings")


def curate_tables(
    folder_in: str | Path, names: Mapping | None, pinned: list | None = None
) -> tuple[dict[str, pd.DataFrame], list[str]]:
    """The curated tables from fit_topics' folder, and the warnings to give.

    A pinned topic (fit's topics.csv `pinned`: its name) is named by its pinned name (never
    "Mixed"), unless topics.names names its id; a pinned topic no paper joined is a warning.
    """
    from papertopics.cluster.pinned import pinned_topics

    folder_in = Path(folder_in)
    wanted = config_names(names)
    tables = {name: _read(folder_in / name) for name in TABLES}
    topics = tables["topics.csv"]
    given = dict(wanted)
    if "pinned" in topics.columns:
        for topic, name in zip(topics["topic"].astype(int), topics["pinned"]):
            if name:
                given.setdefault(topic, name)
    curated, missing = apply_names(tables, given)
    warnings = [missing_name_line(t, wanted[t]) for t in missing if t in wanted]
    found = set(topics["pinned"]) if "pinned" in topics.columns else set()
    for i, topic in enumerate(pinned_topics(pinned)):
        if topic.name not in found:
            warnings.append(
                f"config.yaml topics.pinned[{i}] ({topic.name!r}): no paper joined it; lower "
                f"topics.pinned_min_similarity (0: every paper joins its nearest pinned topic) or "
                f"give it examples"
            )
    return curated, warnings


def pinned_table(
    topics: pd.DataFrame, documents: pd.DataFrame, clusters: pd.DataFrame | None, order: list[str]
) -> pd.DataFrame:
    """results/topics/pinned.csv: each pinned topic's papers, nearest first, with the cosine
    similarity to the pinned topic (clusters.parquet's `similarity`), the pinned topics in
    `order` (config.yaml's)."""
    if clusters is None or "pinned" not in topics.columns or "similarity" not in clusters.columns:
        return pd.DataFrame(columns=list(PINNED_COLUMNS))
    pinned = topics[topics["pinned"] != ""]
    similarity = dict(zip(clusters["doc_id"], clusters["similarity"]))
    frames = []
    for row in pinned.itertuples():
        papers = documents[documents["topic"].astype(int) == int(row.topic)].copy()
        papers["similarity"] = papers["doc_id"].map(similarity).astype(float)
        papers = papers.sort_values("similarity", ascending=False, kind="stable")
        frames.append(
            pd.DataFrame(
                {
                    "topic": int(row.topic),
                    "name": row.label,
                    "rank": range(1, len(papers) + 1),
                    "similarity": papers["similarity"].round(4).to_numpy(),
                    "doc_id": papers["doc_id"].to_numpy(),
                    "title": papers["title"].to_numpy() if "title" in papers else "",
                    "listings": papers["listings"].to_numpy() if "listings" in papers else "",
                    "_order": order.index(row.pinned) if row.pinned in order else len(order),
                }
            )
        )
    if not frames:
        return pd.DataFrame(columns=list(PINNED_COLUMNS))
    table = pd.concat(frames, ignore_index=True).sort_values(["_order", "rank"], kind="stable")
    return table[list(PINNED_COLUMNS)].reset_index(drop=True)


def curate_topics_job(job, log) -> None:
    """Rule curate_topics (run by papertopics.runtime.inprocess.run_job): the reader's names and
    pinned topics on the fitted tables.

    Inputs: results/topics/fit/{topics,document_topics,changes,hierarchy}.csv (fit_topics),
    results/cluster/clusters.parquet (the pinned papers' similarities).
    Params: names (config.yaml topics.names), pinned (topics.pinned).
    Outputs: results/topics/{topics,document_topics,changes,hierarchy,pinned}.csv.
    """
    folder = Path(job.input.topics).parent
    curated, warnings = curate_tables(folder, job.params.names, job.params.pinned)
    for line in warnings:
        log.warning("%s", line)
    outputs = {
        "topics.csv": job.output.topics,
        "document_topics.csv": job.output.documents,
        "changes.csv": job.output.changes,
        "hierarchy.csv": job.output.hierarchy,
    }
    for name, path in outputs.items():
        curated[name].to_csv(path, index=False)
    clusters = pd.read_parquet(job.input.clusters) if job.params.pinned else None
    from papertopics.cluster.pinned import pinned_topics

    order = [topic.name for topic in pinned_topics(job.params.pinned)]
    pinned = pinned_table(curated["topics.csv"], curated["document_topics.csv"], clusters, order)
    pinned.to_csv(job.output.pinned, index=False)
    named = curated["topics.csv"]
    log.info(
        "%d topic(s) named in config.yaml (pinned ones included), %d warning(s); %d pinned paper(s)",
        int((named[NAMED_BY] == BY_CONFIG).sum()),
        len(warnings),
        len(pinned),
    )
