"""The previous run's topics, kept beside the results so a rerun can keep topic ids stable.

Snakemake removes a job's outputs before rerunning it, so the previous topics cannot be read
from results/topics/*.csv. fit_topics writes this run's snapshot as an output
(results/topics/snapshot/) and reads the last *complete* run's from results/topics/history/;
the history advances to the new snapshot only once the run's report is written (rule
advance_history), so an interrupted or failed run never moves "what changed" forward.

The history folder holds one subfolder per snapshot and `current.json` naming the one in use;
replacing that small file is atomic, so a kill or a full disk leaves the old history or the new.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

import numpy as np
import pandas as pd

from papertopics.constants import OUTLIER
from papertopics.topics.identity import TopicSnapshot, apply_mapping, match_topics, topic_changes
from papertopics.topics.snapshot_store import CURRENT, SNAPSHOT_FILES, current_name, snapshot_name

log = logging.getLogger(__name__)


def load_snapshot(folder: Path) -> tuple[TopicSnapshot, dict] | None:
    """The last run's snapshot and its meta, or None on a first run or a damaged store.

    A damaged store logs a warning: this run starts topic ids afresh (every topic reads as new).
    `folder` is a history folder (with current.json) or a snapshot folder itself.
    """
    folder = Path(folder)
    try:
        if (folder / CURRENT).exists():
            folder = folder / json.loads((folder / CURRENT).read_text())["snapshot"]
        if not all((folder / name).exists() for name in SNAPSHOT_FILES):
            return None
        topics = pd.read_parquet(folder / "topics.parquet")
        topics["centroid"] = [list(c) for c in topics["centroid"]]
        documents = pd.read_parquet(folder / "documents.parquet")
        return TopicSnapshot(topics, documents), json.loads((folder / "meta.json").read_text())
    except Exception as error:  # any damage means the same: start afresh
        reason = str(error).splitlines()[0][:200] if str(error) else type(error).__name__
        log.warning(
            "%s: the previous run's topics are unreadable (%s); starting topic ids afresh, "
            "every topic reads as new in changes.csv",
            folder,
            reason,
        )
        return None


def save_snapshot(folder: Path, snapshot: TopicSnapshot, meta: dict) -> None:
    """Write one snapshot folder (fit_topics' output): the two tables and meta.json."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    snapshot.topics.to_parquet(folder / "topics.parquet", index=False)
    snapshot.documents.to_parquet(folder / "documents.parquet", index=False)
    (folder / "meta.json").write_text(json.dumps(meta, indent=2, sort_keys=True))


def stable_topic_ids(
    doc_ids: list[str],
    assigned: np.ndarray,
    labels: dict[int, str],
    embeddings: np.ndarray,
    previous: tuple[TopicSnapshot, dict] | None,
    label_config: str,
    top_terms: dict[int, list[str]] | None = None,
) -> tuple[dict[int, int], dict[int, str], pd.DataFrame, TopicSnapshot, dict]:
    """Map this fit's topic ids to stable ones; return mapping, labels, changes and the new snapshot.

    Continued topics keep their id. They keep their label too while it is still true (each of
    its terms is among the topic's new top terms) and the labelling settings are unchanged;
    otherwise the label is the new one, since a stale label misleads more than a changed one.
    """
    documents = pd.DataFrame({"doc_id": doc_ids, "topic": np.asarray(assigned, dtype=int)})
    fitted = TopicSnapshot.from_documents(documents, labels, embeddings)
    if previous is None:
        mapping = {t: t for t in fitted.ids()} | {OUTLIER: OUTLIER}
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
                label
                if topic == OUTLIER or _still_true(label, top_terms.get(raw_of.get(topic), []))
                else labels[raw_of[topic]]
                for topic, label in zip(stable.topics["topic"].astype(int), stable.topics["label"])
            ]
        changes = topic_changes(prev, fitted, mapping)
        max_id = max([meta.get("max_id", -1), *mapping.values()])
    by_stable = dict(zip(stable.topics["topic"].astype(int), stable.topics["label"]))
    stable_labels = {t: by_stable.get(mapping[t]) or labels[t] for t in labels}
    return mapping, stable_labels, changes, stable, {"max_id": int(max_id), "label_config": label_config}


def _still_true(label: str, terms: list[str]) -> bool:
    """A kept label must name only terms the topic still ranks among its top terms."""
    return all(term.strip() in terms for term in label.split(","))


def changes_since_shown(snapshot: Path, history: Path) -> pd.DataFrame | None:
    """changes.csv when the last finished run already showed this fit's topics, else None.

    fit_topics compares with the history as it found it; the history then advances to this
    snapshot once the report is written. A rerun that does not refit (a rename, a report
    setting) keeps fit_topics' table, which compares with the run before: on a second run it
    would still say "first run". When the history's current snapshot is this fit's own, what
    changed since the last finished run is nothing: each topic compared with itself.
    """
    try:
        if current_name(history) != snapshot_name(snapshot):
            return None
        topics = TopicSnapshot(
            pd.read_parquet(Path(snapshot) / "topics.parquet", columns=["topic", "label"]),
            pd.read_parquet(Path(snapshot) / "documents.parquet", columns=["doc_id", "topic"]),
        )
    except Exception:  # noqa: BLE001 - unreadable: fit_topics' own table stands
        return None
    return topic_changes(topics, topics, {t: t for t in topics.ids()} | {OUTLIER: OUTLIER})
