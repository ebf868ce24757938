"""The topics' keyword co-occurrence network as VOSviewer items and links (report/vosviewer.py
says the format and writes the files): the topics' keywords as the thematic map chooses them; and
the write_vosviewer job, which writes both maps (here, not in vosviewer.py: only this job imports
the thematic map)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from papertopics.analyses.thematic import keyword_incidence, theme_keywords
from papertopics.report.vosviewer import (
    clusters,
    document_map,
    topic_names,
    vosviewer_files,
    write_map,
    write_network,
)

__all__ = ["keyword_network", "write_vosviewer_job"]


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


def _read(path) -> pd.DataFrame:
    return pd.read_csv(path, dtype=str, keep_default_na=False, na_values=[])


def write_vosviewer_job(job, log) -> None:
    """Rule write_vosviewer (papertopics.runtime.inprocess.run_job: a light job in Snakemake's
    process). Inputs: document_topics.csv, topics.csv, map2d.parquet, neighbours.csv, name_index.pkl
    (keywords folded as the thematic map folds them). Outputs: results/report/vosviewer/
    (keywords_map.txt and keywords_network.txt where the listing has authors' keywords;
    documents_map.txt, documents_network.txt)."""
    from papertopics.topics.names.index import NameIndex

    i, folder = job.input, Path(job.output.folder)
    folder.mkdir(parents=True, exist_ok=True)
    documents, topics = _read(i.documents), _read(i.topics)
    items, links = document_map(documents, topics, pd.read_parquet(i.map2d), _read(i.neighbours))
    write_map(folder / "documents_map.txt", items)
    write_network(folder / "documents_network.txt", links)
    log.info("%s: %d papers, %d links", folder / "documents_map.txt", len(items), len(links))
    if "keywords_map.txt" not in vosviewer_files(documents):
        log.info("no authors' keywords in the listings: no keyword network for VOSviewer")
        return
    settings = dict(job.params.thematic)
    items, links = keyword_network(
        documents,
        topics,
        NameIndex.load(i.names),
        keywords=settings["keywords"],
        min_papers=settings["min_papers"],
    )
    write_map(folder / "keywords_map.txt", items)
    write_network(folder / "keywords_network.txt", links)
    log.info("%s: %d keywords, %d links", folder / "keywords_map.txt", len(items), len(links))
