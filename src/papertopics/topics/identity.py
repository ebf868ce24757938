"""Stable topic identity across runs, and what changed between two runs (results/topics/changes.csv).

A rerun (new listings, new seed, new parameters) numbers its topics afresh; a reader who
bookmarked "topic 7: diffusion models" wants it to stay topic 7. So each new topic is matched to
a previous one and takes over its id and label:

1. Membership first. Documents present in both runs (same ``doc_id``) are the strongest signal:
   topics are paired by the Jaccard index of their members among those shared documents,
   solved as one assignment (Hungarian, ``scipy.optimize.linear_sum_assignment``) so two new
   topics never claim the same id; a pair needs Jaccard >= ``min_overlap``. Centroid cosine
   breaks ties.
2. Centroids (or top terms) only where membership says nothing: a previous topic none of whose
   documents is in the new corpus, or a new topic made only of new documents, may pair with an
   unpaired topic on the other side if their centroids' cosine >= ``min_cosine`` (top-term
   Jaccard >= ``min_term_overlap`` when a snapshot has no centroids). Conservative on purpose:
   a false continuation misleads more than a topic wrongly shown as new.
3. Every other new topic gets a fresh id above every id used before; the outlier group -1 is
   never remapped.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd

from papertopics.constants import OUTLIER
from papertopics.vectors import centroids, normalise

# A flow of documents that is at least this share of a topic's carried-over documents is "most".
MOSTLY = 0.5
# A fresh topic counts as split off only if carried-over documents are at least this share of it.
MIN_CARRIED = 0.2
# grown / shrunk: the topic's share of the corpus changed by more than this, relative.
SIZE_TOLERANCE = 0.2
# results/topics/changes.csv, one row per topic of either run.
CHANGE_COLUMNS = (
    "topic",
    "status",
    "label",
    "prev_size",
    "new_size",
    "prev_share",
    "new_share",
    "from_topics",
    "to_topics",
    "left",
    "joined",
)


@dataclass(frozen=True)
class TopicSnapshot:
    """One run's topics, as :func:`match_topics` needs them.

    ``topics``: one row per topic (-1 may be included), columns ``topic`` (int), ``label`` (str),
    ``size`` (int), optionally ``centroid`` (list of floats, the mean document embedding) and
    ``top_terms`` (list of str). ``documents``: ``doc_id`` (str) and ``topic`` (int), one row per
    document of the run.
    """

    topics: pd.DataFrame
    documents: pd.DataFrame

    def __post_init__(self):
        for frame, name, cols in (
            (self.topics, "topics", ("topic",)),
            (self.documents, "documents", ("doc_id", "topic")),
        ):
            missing = [c for c in cols if c not in frame.columns]
            if missing:
                raise ValueError(f"TopicSnapshot.{name} lacks column(s) {', '.join(missing)}")
        if self.documents["doc_id"].duplicated().any():
            dup = self.documents.loc[self.documents["doc_id"].duplicated(), "doc_id"].iloc[0]
            raise ValueError(f"TopicSnapshot.documents lists doc_id {dup!r} twice")

    @classmethod
    def from_documents(
        cls,
        documents: pd.DataFrame,
        labels: Mapping[int, str] | None = None,
        embeddings: np.ndarray | None = None,
    ) -> TopicSnapshot:
        """Build a snapshot from per-document topics; centroids from row-aligned ``embeddings``."""
        docs = documents[["doc_id", "topic"]].reset_index(drop=True)
        docs["topic"] = docs["topic"].astype(int)
        sizes = docs["topic"].value_counts().sort_index()
        topics = pd.DataFrame({"topic": sizes.index.astype(int), "size": sizes.to_numpy()})
        labels = labels or {}
        topics["label"] = [labels.get(t, "") for t in topics["topic"]]
        if embeddings is not None:
            ids = topics["topic"].tolist()
            units = centroids(
                np.asarray(embeddings, dtype=np.float64), docs["topic"].to_numpy(), ids, dtype=np.float64
            )
            topics["centroid"] = [list(unit) for unit in units]
        return cls(topics, docs)

    def ids(self) -> list[int]:
        """Real topic ids (without -1), from both tables."""
        found = set(self.topics["topic"].astype(int)) | set(self.documents["topic"].astype(int))
        return sorted(t for t in found if t != OUTLIER)


def _flows(prev_docs: pd.DataFrame, new_docs: pd.DataFrame) -> pd.DataFrame:
    """Counts of shared documents by (previous topic, new topic), outliers included."""
    shared = prev_docs[["doc_id", "topic"]].merge(
        new_docs[["doc_id", "topic"]], on="doc_id", suffixes=("_prev", "_new")
    )
    if shared.empty:
        return pd.DataFrame(index=pd.Index([], dtype=int), columns=pd.Index([], dtype=int), dtype=int)
    return pd.crosstab(shared["topic_prev"].astype(int), shared["topic_new"].astype(int))


def _centroid_cosine(prev: TopicSnapshot, new: TopicSnapshot, p_ids, n_ids) -> np.ndarray | None:
    if "centroid" not in prev.topics.columns or "centroid" not in new.topics.columns:
        return None

    def matrix(snap, ids):
        by_id = dict(zip(snap.topics["topic"].astype(int), snap.topics["centroid"]))
        rows = []
        for t in ids:
            c = by_id.get(t)
            if c is None or (isinstance(c, float) and np.isnan(c)) or len(c) == 0:
                return None
            rows.append(np.asarray(c, dtype=np.float64))
        return normalise(np.vstack(rows), dtype=np.float64) if rows else np.zeros((0, 1))

    a, b = matrix(prev, p_ids), matrix(new, n_ids)
    if a is None or b is None or a.shape[1] != b.shape[1]:
        return None
    return a @ b.T


def _term_jaccard(prev: TopicSnapshot, new: TopicSnapshot, p_ids, n_ids) -> np.ndarray | None:
    if "top_terms" not in prev.topics.columns or "top_terms" not in new.topics.columns:
        return None
    pt = dict(zip(prev.topics["topic"].astype(int), prev.topics["top_terms"]))
    nt = dict(zip(new.topics["topic"].astype(int), new.topics["top_terms"]))
    out = np.zeros((len(p_ids), len(n_ids)))
    for i, p in enumerate(p_ids):
        a = set(pt.get(p) or [])
        for j, n in enumerate(n_ids):
            b = set(nt.get(n) or [])
            out[i, j] = len(a & b) / len(a | b) if a | b else 0.0
    return out


def match_topics(
    prev: TopicSnapshot,
    new: TopicSnapshot,
    *,
    min_overlap: float = 0.2,
    min_cosine: float = 0.9,
    min_term_overlap: float = 0.5,
    id_floor: int | None = None,
) -> dict[int, int]:
    """Map every new topic id to its stable id: a previous id it continues, or a fresh one.

    Fresh ids start above max(previous ids, ``id_floor``); pass the largest id ever issued as
    ``id_floor`` so an id retired two runs ago is never handed to a different topic. -1 -> -1.
    """
    from scipy.optimize import linear_sum_assignment  # 0.5 s to import: the report never calls it

    p_ids, n_ids = prev.ids(), new.ids()
    mapping: dict[int, int] = {OUTLIER: OUTLIER}
    if not n_ids:
        return mapping
    flows = _flows(prev.documents, new.documents)
    inter = flows.reindex(index=p_ids, columns=n_ids, fill_value=0).to_numpy(dtype=np.float64)
    # Members among shared documents, outliers excluded from neither side's total.
    p_shared = flows.sum(axis=1).reindex(p_ids, fill_value=0).to_numpy(dtype=np.float64)
    n_shared = flows.sum(axis=0).reindex(n_ids, fill_value=0).to_numpy(dtype=np.float64)
    union = p_shared[:, None] + n_shared[None, :] - inter
    jaccard = np.divide(inter, union, out=np.zeros_like(inter), where=union > 0)

    fallback = _centroid_cosine(prev, new, p_ids, n_ids)
    fallback_min = min_cosine
    if fallback is None:
        fallback = _term_jaccard(prev, new, p_ids, n_ids)
        fallback_min = min_term_overlap

    matched: dict[int, int] = {}
    if p_ids:
        valid = jaccard >= min_overlap  # pairs below the bar must not steal a partner
        score = np.where(valid, jaccard + (1e-6 * fallback if fallback is not None else 0.0), 0.0)
        rows, cols = linear_sum_assignment(score, maximize=True)
        for i, j in zip(rows, cols):
            if valid[i, j]:
                matched[n_ids[j]] = p_ids[i]
        if fallback is not None:
            free_p = [i for i, p in enumerate(p_ids) if p not in matched.values()]
            free_n = [j for j, n in enumerate(n_ids) if n not in matched]
            silent = (p_shared[free_p][:, None] == 0) | (n_shared[free_n][None, :] == 0)
            sub = np.where(silent, fallback[np.ix_(free_p, free_n)], -np.inf)
            if free_p and free_n and np.isfinite(sub).any():
                safe = np.where(np.isfinite(sub), sub, -1e9)
                rows, cols = linear_sum_assignment(safe, maximize=True)
                for i, j in zip(rows, cols):
                    if np.isfinite(sub[i, j]) and sub[i, j] >= fallback_min:
                        matched[n_ids[free_n[j]]] = p_ids[free_p[i]]

    next_id = max([*p_ids, id_floor if id_floor is not None else OUTLIER, OUTLIER]) + 1
    for n in n_ids:  # fresh ids in the new run's own order, so reruns number them the same way
        if n in matched:
            mapping[n] = matched[n]
        else:
            mapping[n] = next_id
            next_id += 1
    return mapping


def apply_mapping(
    new: TopicSnapshot,
    mapping: Mapping[int, int],
    prev: TopicSnapshot | None = None,
    *,
    keep_labels: bool = True,
) -> TopicSnapshot:
    """The new snapshot renumbered with ``mapping``; continued topics keep the previous label."""
    topics = new.topics.copy()
    docs = new.documents.copy()
    topics["topic"] = topics["topic"].astype(int).map(lambda t: mapping.get(t, t))
    docs["topic"] = docs["topic"].astype(int).map(lambda t: mapping.get(t, t))
    if keep_labels and prev is not None and "label" in prev.topics.columns:
        old = dict(zip(prev.topics["topic"].astype(int), prev.topics["label"]))
        continued = set(mapping.values()) & set(old)
        if "label" not in topics.columns:
            topics["label"] = ""
        topics["label"] = [
            old[t] if t in continued and old[t] else lab for t, lab in zip(topics["topic"], topics["label"])
        ]
    return TopicSnapshot(topics.sort_values("topic").reset_index(drop=True), docs)


def _ids_text(ids) -> str:
    return ";".join(str(i) for i in sorted(set(ids)))


def _change_labels(prev, new, mapping: Mapping[int, int]) -> dict[int, str]:
    """Stable id -> label from the snapshots given; previous labels win (continued topics keep theirs)."""
    labels: dict[int, str] = {}
    for snap in (new, prev):
        if isinstance(snap, TopicSnapshot) and "label" in snap.topics.columns:
            ids = snap.topics["topic"].astype(int)
            if snap is new:
                ids = ids.map(lambda t: mapping.get(t, t))
            labels.update(
                {t: lab for t, lab in zip(ids, snap.topics["label"]) if isinstance(lab, str) and lab}
            )
    labels.setdefault(OUTLIER, "outliers")
    return labels


def _merges_and_splits(
    flows: pd.DataFrame, prev_ids: set, new_ids: set, new_size: pd.Series
) -> tuple[dict[int, int], dict[int, int]]:
    """merged_into (absorbed previous topic -> the topic it mostly went to) and split_from
    (fresh topic -> the previous topic most of its carried-over members came from)."""
    merged_into: dict[int, int] = {}
    split_from: dict[int, int] = {}
    for p in prev_ids - new_ids - {OUTLIER}:
        if p not in flows.index:
            continue
        row = flows.loc[p].drop(OUTLIER, errors="ignore")
        total = flows.loc[p].sum()
        if len(row) and total and row.max() >= MOSTLY * total:
            merged_into[p] = int(row.idxmax())
    for n in new_ids - prev_ids - {OUTLIER}:
        if n not in flows.columns:
            continue
        col = flows[n].drop(OUTLIER, errors="ignore")
        carried = flows[n].sum()
        if len(col) and carried >= MIN_CARRIED * new_size[n] and col.max() >= MOSTLY * carried:
            split_from[n] = int(col.idxmax())
    return merged_into, split_from


def topic_changes(
    prev: TopicSnapshot | pd.DataFrame, new: TopicSnapshot | pd.DataFrame, mapping: Mapping[int, int]
) -> pd.DataFrame:
    """One row per topic of either run (stable ids, -1 included) for results/topics/changes.csv.

    ``status``: *merged* (a previous topic that no longer exists sent most of its carried-over
    documents into it, or, on the absorbed topic's own row, into another), *split* (a fresh topic
    whose carried-over documents, at least a fifth of it, mostly come from one previous topic;
    the previous topic's row says split too), *new*, *vanished*, else *grown* / *shrunk* /
    *unchanged*: the topic's share of its corpus rose / fell by more than 20 % relative.
    Shares, not counts, because corpora grow between runs and every topic would look grown.
    ``from_topics`` lists the previous ids a topic drew from, ``to_topics`` the stable ids a
    previous topic went to (";"-joined). ``left`` / ``joined``: how many of its documents then
    are elsewhere now (or gone from the corpus) / how many of its documents now were elsewhere
    then (or are new): a topic whose share stayed within 20 % may still have swapped papers.
    Pass snapshots to get labels.
    """
    prev_docs = prev.documents if isinstance(prev, TopicSnapshot) else prev
    new_docs = (new.documents if isinstance(new, TopicSnapshot) else new).copy()
    new_docs["topic"] = new_docs["topic"].astype(int).map(lambda t: mapping.get(t, t))
    labels = _change_labels(prev, new, mapping)
    prev_size = prev_docs["topic"].astype(int).value_counts()
    new_size = new_docs["topic"].value_counts()
    n_prev, n_new = max(len(prev_docs), 1), max(len(new_docs), 1)
    flows = _flows(prev_docs, new_docs)
    prev_ids = set(prev_size.index)
    new_ids = set(new_size.index)

    draws_from: dict[int, set[int]] = {t: set() for t in prev_ids | new_ids}
    goes_to: dict[int, set[int]] = {t: set() for t in prev_ids | new_ids}
    merged_into, split_from = _merges_and_splits(flows, prev_ids, new_ids, new_size)
    for p, n in merged_into.items():
        goes_to[p].add(n)
        draws_from[n].update({p} | ({n} if n in prev_ids else set()))
    for n, p in split_from.items():
        draws_from[n].add(p)
        goes_to[p].update({n} | ({p} if p in new_ids else set()))

    rows = []
    for t in sorted(prev_ids | new_ids):
        a, b = int(prev_size.get(t, 0)), int(new_size.get(t, 0))
        stayed = int(flows.loc[t, t]) if t in flows.index and t in flows.columns else 0
        if t != OUTLIER and t in merged_into:
            status = "merged"
        elif t != OUTLIER and (t in split_from or (goes_to[t] and t not in merged_into)):
            status = "split"
        elif t != OUTLIER and any(p in merged_into for p in draws_from[t] if p != t):
            status = "merged"
        elif t not in prev_ids:
            status = "new"
        elif t not in new_ids:
            status = "vanished"
        else:
            change = (b / n_new) / (a / n_prev) - 1.0
            status = (
                "grown" if change > SIZE_TOLERANCE else "shrunk" if change < -SIZE_TOLERANCE else "unchanged"
            )
        rows.append(
            {
                "topic": int(t),
                "status": status,
                "label": labels.get(t, ""),
                "prev_size": a,
                "new_size": b,
                "prev_share": a / n_prev,
                "new_share": b / n_new,
                "from_topics": _ids_text(draws_from[t]),
                "to_topics": _ids_text(goes_to[t]),
                "left": a - stayed,
                "joined": b - stayed,
            }
        )
    return pd.DataFrame(
        rows,
        columns=list(CHANGE_COLUMNS),
    )
