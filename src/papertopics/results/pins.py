"""A new abstract's pinned topic, by the run's own rule (cluster.pinned.assign_pinned); whether
it has words to embed at all.

A paper joins a pinned topic before any clustering, when its similarity to the topic (seen from
the corpus' average paper) reaches the threshold the run used; `transform` asks this first, so
a paper the run pinned comes back in its pinned topic.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from papertopics.artifacts import load_embeddings
from papertopics.constants import OUTLIER


def pinned_of(
    cluster_folder: Path, topics: pd.DataFrame, corpus_mean: np.ndarray, new: np.ndarray
) -> tuple[np.ndarray, np.ndarray] | None:
    """(stable topic id or OUTLIER, cosine to the nearest pinned topic) of each new vector, or None
    where the run had no pinned topic that gathered papers (topics.csv `pinned`)."""
    from papertopics.cluster.pinned import NOT_PINNED, assign_pinned, split_controls

    path = cluster_folder / "pinned_topics.parquet"
    if "pinned" not in topics.columns or not path.is_file():
        return None
    id_of = {name: int(t) for name, t in zip(topics["pinned"], topics["topic"]) if name}
    try:
        names, vectors, _ = split_controls(*load_embeddings(path))  # the run's null: not a topic
        params = json.loads((cluster_folder / "params.json").read_text(encoding="utf-8"))["pinned"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not id_of:
        return None
    rules = params.get("topics") or {}
    thresholds = np.array([float((rules.get(name) or {}).get("threshold", 0.0)) for name in names])
    index, best, _ = assign_pinned(
        new, vectors, params.get("min_similarity", 0), corpus_mean=corpus_mean, thresholds=thresholds
    )
    topic = np.array([id_of.get(names[i], OUTLIER) if i != NOT_PINNED else OUTLIER for i in index], dtype=int)
    return topic, best


def has_words(text: str) -> bool:
    """Whether the text has a word (two or more letters or digits) outside English stop words."""
    import re

    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    return any(word not in ENGLISH_STOP_WORDS for word in re.findall(r"\w\w+", text.lower()))
