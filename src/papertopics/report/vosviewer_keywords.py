"""The topics' keyword co-occurrence network as VOSviewer items and links (report/vosviewer.py
says the format and writes the files): the topics' keywords as the thematic map chooses them."""

from __future__ import annotations

import numpy as np
import pandas as pd

from papertopics.analyses.thematic import keyword_incidence, theme_keywords
from papertopics.report.vosviewer import clusters, topic_names

__all__ = ["keyword_network"]


def keyword_network(
    documents: pd.DataFrame, topics: pd.DataFrame, index=None, *, keywords: int = 10, min_papers: int = 2
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(map items, links): the topics' keywords and their co-occurrences (module docstring);
    both empty without authors' keywords."""
    found = keyword_incidence(documents, index)
    topic_of = pd.to_numeric(documents["topic"]).astype(int).to_numpy()
    topic_ids = sorted(t for t in set(topic_of.tolist()) if t >= 0)
    if found is None or not topic_ids:
        return pd.DataFrame(
            columns=["id", "label", "description", "cluster", "weight<Occurrences>"]
        ), pd.DataFrame(columns=["id1", "id2", "strength"])
    incidence, shown = found
    themes = theme_keywords(incidence, topic_of, topic_ids, keywords, min_papers)
    names, number = topic_names(topics), clusters(topic_ids)
    columns = [c for t in topic_ids for c in themes.get(t, [])]
    topic_of_column = [t for t in topic_ids for _ in themes.get(t, [])]
    binary = (incidence[:, columns] > 0).astype(np.int64)
    occurrences = np.asarray(binary.sum(axis=0)).ravel()
    items = pd.DataFrame(
        {
            "id": np.arange(1, len(columns) + 1),
            "label": [shown[c] for c in columns],
            "description": [f"topic {t}: {names.get(t, '')}" for t in topic_of_column],
            "cluster": [number[t] for t in topic_of_column],
            "weight<Occurrences>": occurrences,
        }
    )
    cooc = (binary.T @ binary).toarray() if len(columns) else np.zeros((0, 0), dtype=np.int64)
    i, j = np.nonzero(np.triu(cooc, 1))
    links = pd.DataFrame({"id1": i + 1, "id2": j + 1, "strength": cooc[i, j]})
    return items, links
