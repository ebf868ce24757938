"""The previous run's topics, kept beside the results so a rerun can keep topic ids stable.

Snakemake removes a job's outputs before rerunning it, so the previous topics cannot be read
from results/topics/*.csv; fit_topics keeps a snapshot in results/topics/history/ instead
(a side store like the embedding cache) and writes it only after every output is written.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pandas as pd

from papertopics.identity import TopicSnapshot, apply_mapping, match_topics, topic_changes

SNAPSHOT_FILES = ("topics.parquet", "documents.parquet", "meta.json")


def load_snapshot(folder: Path) -> tuple[TopicSnapshot, dict] | None:
    """The last run's snapshot and its meta, or None on a first run (or a damaged store)."""
    folder = Path(folder)
    if not all((folder / name).exists() for name in SNAPSHOT_FILES):
        return None
    topics = pd.read_parquet(folder / "topics.parquet")
    topics["centroid"] = [list(c) for c in topics["centroid"]]
    documents = pd.read_parquet(folder / "documents.parquet")
    return TopicSnapshot(topics, documents), json.loads((folder / "meta.json").read_text())


def save_snapshot(folder: Path, snapshot: TopicSnapshot, meta: dict) -> None:
    """Write the snapshot file by file through temporary names, meta last (it marks completeness)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "meta.json").unlink(missing_ok=True)
    for name, frame in (("topics.parquet", snapshot.topics), ("documents.parquet", snapshot.documents)):
        tmp = folder / f".{name}.tmp"
        frame.to_parquet(tmp, index=False)
        os.replace(tmp, folder / name)
    tmp = folder / ".meta.json.tmp"
    tmp.write_text(json.dumps(meta, indent=2, sort_keys=True))
    os.replace(tmp, folder / "meta.json")


def stable_topic_ids(doc_ids: list[str], assigned: np.ndarray, labels: dict[int, str],
                     embeddings: np.ndarray, previous: tuple[TopicSnapshot, dict] | None,
                     label_config: str, top_terms: dict[int, list[str]] | None = None,
                     ) -> tuple[dict[int, int], dict[int, str], pd.DataFrame, TopicSnapshot, dict]:
    """Map this fit's topic ids to stable ones; return mapping, labels, changes and the new snapshot.

    Continued topics keep their id. They keep their label too while it is still true (each of
    its terms is among the topic's new top terms) and the labelling settings are unchanged;
    otherwise the label is the new one, since a stale label misleads more than a changed one.
    """
    documents = pd.DataFrame({"doc_id": doc_ids, "topic": np.asarray(assigned, dtype=int)})
    fitted = TopicSnapshot.from_documents(documents, labels, embeddings)
    if previous is None:
        mapping = {t: t for t in fitted.ids()} | {-1: -1}
        stable = fitted
        changes = topic_changes(TopicSnapshot.from_documents(documents.iloc[:0]), fitted, mapping)
        max_id = max(fitted.ids(), default=-1)
    else:
        prev, meta = previous
        mapping = match_topics(prev, fitted, id_floor=meta.get("max_id", -1))
        stable = apply_mapping(fitted, mapping, prev, keep_labels=meta.get("label_config") == label_config)
        if top_terms is not None:
            raw_of = {stable_id: raw for raw, stable_id in mapping.items()}
            stable.topics["label"] = [
                label if topic == -1 or _still_true(label, top_terms.get(raw_of.get(topic), []))
                else labels[raw_of[topic]]
                for topic, label in zip(stable.topics["topic"].astype(int), stable.topics["label"])]
        changes = topic_changes(prev, fitted, mapping)
        max_id = max([meta.get("max_id", -1), *mapping.values()])
    by_stable = dict(zip(stable.topics["topic"].astype(int), stable.topics["label"]))
    stable_labels = {t: by_stable.get(mapping[t]) or labels[t] for t in labels}
    return mapping, stable_labels, changes, stable, {"max_id": int(max_id), "label_config": label_config}


def _still_true(label: str, terms: list[str]) -> bool:
    """A kept label must name only terms the topic still ranks among its top terms."""
    return all(term.strip() in terms for term in label.split(","))
