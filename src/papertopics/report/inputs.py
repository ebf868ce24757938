"""Everything a report is made of, as tables: read from the pipeline's files or built in memory.

The render functions take a `ReportInputs`, so a test (or a notebook) can build one from a
few rows without running the pipeline or saving a model.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from papertopics.constants import OUTLIER, OUTLIER_LABEL
from papertopics.errors import PapertopicsError
from papertopics.report.model_files import TopicVectors, read_saved_model, vectors_from_documents
from papertopics.topics.identity import CHANGE_COLUMNS

DOCUMENT_COLUMNS = ("doc_id", "listings", "topic", "topic_label", "title", "text")
TOPIC_COLUMNS = ("topic", "label", "size", "top_terms", "representative_doc_ids")
# Optional columns of document_topics.csv with a meaning of their own (not metadata to show):
# how a document got its topic (core | nearest | outlier) and how sure that is.
ASSIGNMENT_COLUMNS = ("assignment", "confidence")
NEIGHBOUR_COLUMNS = ("doc_id", "rank", "neighbour_id", "similarity")


class ReportInputError(PapertopicsError):
    """An input table lacks a column or disagrees with another one."""


@dataclass
class ReportInputs:
    documents: pd.DataFrame  # DOCUMENT_COLUMNS + extra metadata columns, one row per document
    topics: pd.DataFrame  # TOPIC_COLUMNS, one row per topic id (-1: outliers)
    map2d: pd.DataFrame | None = None  # doc_id, x, y
    metrics: dict = field(default_factory=dict)
    listings: list[str] = field(default_factory=list)  # names in config order
    vectors: TopicVectors | None = None
    title: str | None = None
    max_hover_chars: int = 300
    changes: pd.DataFrame | None = None  # CHANGE_COLUMNS (results/topics/changes.csv); None: not known
    listing_titles: dict[str, str] = field(default_factory=dict)  # name -> header line of the listing file
    neighbours: pd.DataFrame | None = None  # NEIGHBOUR_COLUMNS (results/topics/neighbours.csv)
    hierarchy: pd.DataFrame | None = None  # results/topics/hierarchy.csv (named merges); None: not known
    # describe_topics' tables by name (over_time, trends, sources, thematic: results/topics/*.csv)
    described: dict[str, pd.DataFrame] = field(default_factory=dict)
    # results/corpus/filters.csv: the records each step left out (ingest.filters); None: not known
    filters: pd.DataFrame | None = None
    # corpus_stats.json: each listing's columns and notes, the corpus' merges (report.provenance)
    corpus_stats: dict = field(default_factory=dict)

    def __post_init__(self):
        self.documents = normalise_documents(self.documents)
        self.topics = normalise_topics(self.topics, self.documents)
        if self.map2d is not None:
            self.map2d = normalise_map(self.map2d, self.documents)
        if self.changes is not None:
            self.changes = normalise_changes(self.changes)
        seen = [name for cell in self.documents["listings"].unique() for name in split_listings(cell)]
        self.listings = list(dict.fromkeys([*map(str, self.listings or []), *seen]))
        if self.neighbours is not None:
            self.neighbours = normalise_neighbours(self.neighbours, self.documents)
        self.listing_titles = {
            str(name): " ".join(str(title).split())
            for name, title in (self.listing_titles or {}).items()
            if str(title).strip()
        }
        if self.vectors is None:
            self.vectors = vectors_from_documents(self.documents, self.topics)
        if not self.title:
            self.title = report_title(self.listings, self.listing_titles)

    @property
    def extra_columns(self) -> list[str]:
        return [
            column
            for column in self.documents.columns
            if column not in DOCUMENT_COLUMNS and column not in ASSIGNMENT_COLUMNS
        ]

    def display_names(self) -> dict[str, str]:
        """What a listing is called on screen: its header line where it has one (the file name
        in brackets when several listings share that header), else its name."""
        return display_names(self.listings, self.listing_titles)


def display_names(listings: list[str], titles: dict[str, str]) -> dict[str, str]:
    shared = pd.Series([titles.get(name, "") for name in listings]).value_counts()
    names = {}
    for name in listings:
        title = titles.get(name, "")
        names[name] = title if title and shared.get(title, 0) == 1 else f"{title} ({name})" if title else name
    return names


def report_title(listings: list[str], titles: dict[str, str]) -> str:
    """The listings' distinct headers joined (a listing without one by its name)."""
    shown = list(dict.fromkeys(titles.get(name) or name for name in listings))
    if not shown:
        return "Topic report"
    if not any(titles.get(name) for name in listings):
        return "Topics of " + ", ".join(shown)
    return ", ".join(shown)


def split_listings(cell: str) -> list[str]:
    return list(_split_listings(str(cell)))


@functools.lru_cache(maxsize=4096)
def _split_listings(cell: str) -> tuple[str, ...]:
    """Memoised: a report splits each document's cell several times, and cells repeat (75k
    documents of one listing: one distinct cell)."""
    return tuple(name for name in cell.split(";") if name)


def _require(table: pd.DataFrame, columns, what: str) -> None:
    missing = [column for column in columns if column not in table.columns]
    if missing:
        raise ReportInputError(f"{what}: missing column(s) {', '.join(missing)}")


def normalise_documents(documents: pd.DataFrame) -> pd.DataFrame:
    documents = documents.copy()
    for column in ("title", "topic_label"):
        if column not in documents.columns:
            documents[column] = ""
    _require(documents, DOCUMENT_COLUMNS, "document table")
    documents["topic"] = pd.to_numeric(documents["topic"], errors="raise").astype(int)
    for column in documents.columns:
        if column != "topic":
            documents[column] = documents[column].fillna("").astype(str)
    if documents["doc_id"].duplicated().any():
        raise ReportInputError("document table: doc_id values repeat")
    return documents.reset_index(drop=True)


def normalise_topics(topics: pd.DataFrame, documents: pd.DataFrame) -> pd.DataFrame:
    topics = topics.copy()
    _require(topics, ("topic", "label"), "topic table")
    topics["topic"] = pd.to_numeric(topics["topic"], errors="raise").astype(int)
    sizes = documents["topic"].value_counts()
    topics["size"] = [int(sizes.get(topic, 0)) for topic in topics["topic"]]
    for column in ("top_terms", "representative_doc_ids", "label"):
        if column not in topics.columns:
            topics[column] = ""
        topics[column] = topics[column].fillna("").astype(str)
    # A topic the documents use but the table lacks still gets a row (and a card).
    known = set(topics["topic"])
    missing = sorted(set(documents["topic"]) - known)
    if missing:
        labels = documents.drop_duplicates("topic").set_index("topic")["topic_label"]
        extra = pd.DataFrame(
            {
                "topic": missing,
                "label": [labels.get(t, "") for t in missing],
                "size": [int(sizes.get(t, 0)) for t in missing],
                "top_terms": "",
                "representative_doc_ids": "",
            }
        )
        topics = pd.concat([topics, extra], ignore_index=True)
    topics["label"] = [
        label or (OUTLIER_LABEL if topic == OUTLIER else f"Topic {topic}")
        for topic, label in zip(topics["topic"], topics["label"])
    ]
    return topics.sort_values("topic").reset_index(drop=True)


def normalise_map(map2d: pd.DataFrame, documents: pd.DataFrame) -> pd.DataFrame:
    _require(map2d, ("doc_id", "x", "y"), "2-D map")
    map2d = map2d[["doc_id", "x", "y"]].copy()
    map2d["doc_id"] = map2d["doc_id"].astype(str)
    missing = set(documents["doc_id"]) - set(map2d["doc_id"])
    if missing:
        raise ReportInputError(
            f"2-D map: {len(missing)} documents have no coordinates "
            f"(e.g. {sorted(missing)[0]}); rerun reduce_embeddings"
        )
    return documents[["doc_id"]].merge(map2d, on="doc_id", how="left")


def normalise_neighbours(neighbours: pd.DataFrame, documents: pd.DataFrame) -> pd.DataFrame:
    """neighbours.csv typed, restricted to documents of this report, nearest first."""
    _require(neighbours, NEIGHBOUR_COLUMNS, "neighbours table")
    table = neighbours[list(NEIGHBOUR_COLUMNS)].copy()
    table["doc_id"] = table["doc_id"].astype(str)
    table["neighbour_id"] = table["neighbour_id"].astype(str)
    table["rank"] = pd.to_numeric(table["rank"], errors="raise").astype(int)
    table["similarity"] = pd.to_numeric(table["similarity"], errors="raise").astype(float)
    known = set(documents["doc_id"])
    table = table[table["doc_id"].isin(known) & table["neighbour_id"].isin(known)]
    return table.sort_values(["doc_id", "rank"]).reset_index(drop=True)


def normalise_changes(changes: pd.DataFrame) -> pd.DataFrame:
    """changes.csv with typed columns; missing optional columns filled, statuses lower-cased."""
    changes = changes.copy()
    missing = [column for column in ("topic", "status") if column not in changes.columns]
    if missing:
        raise ReportInputError(f"changes table: missing column(s) {', '.join(missing)}")
    changes["topic"] = pd.to_numeric(changes["topic"], errors="raise").astype(int)
    for column in ("prev_size", "new_size"):
        values = changes[column] if column in changes.columns else pd.Series(0, index=changes.index)
        changes[column] = pd.to_numeric(values, errors="coerce").fillna(0).astype(int)
    for column, size in (("prev_share", "prev_size"), ("new_share", "new_size")):
        values = (
            changes[column] if column in changes.columns else pd.Series(float("nan"), index=changes.index)
        )
        changes[column] = pd.to_numeric(values, errors="coerce")
        total = changes[size].sum()
        # A table without shares (or with blanks): the share of the run's documents, from the sizes.
        changes[column] = changes[column].fillna(changes[size] / total if total else 0.0).astype(float)
    for column in ("label", "from_topics", "to_topics"):
        if column not in changes.columns:
            changes[column] = ""
        changes[column] = changes[column].fillna("").astype(str)
    for column in ("left", "joined"):  # a table from before these columns: not known (NaN)
        values = (
            changes[column] if column in changes.columns else pd.Series(float("nan"), index=changes.index)
        )
        changes[column] = pd.to_numeric(values, errors="coerce")
    changes["status"] = changes["status"].fillna("").astype(str).str.strip().str.lower()
    if changes["topic"].duplicated().any():
        raise ReportInputError("changes table: topic ids repeat")
    return changes[list(CHANGE_COLUMNS)].reset_index(drop=True)


def read_table(path: str | Path) -> pd.DataFrame:
    """A pipeline CSV read as text: ids keep leading zeros, an empty or "NA" title stays text."""
    return pd.read_csv(path, dtype=str, keep_default_na=False, na_values=[], encoding="utf-8")


def read_inputs(
    *,
    documents: str | Path,
    topics: str | Path,
    map2d: str | Path | None = None,
    metrics: str | Path | None = None,
    model: str | Path | None = None,
    listings: list[str] | None = None,
    title: str | None = None,
    max_hover_chars: int = 300,
    changes: str | Path | None = None,
    neighbours: str | Path | None = None,
    corpus_stats: str | Path | None = None,
    hierarchy: str | Path | None = None,
    described: dict[str, str | Path] | None = None,
    filters: str | Path | None = None,
) -> ReportInputs:
    """ReportInputs from the files of results/ (see docs/report.md)."""
    vectors = None
    if model is not None and (Path(model) / "topics.json").is_file():
        vectors = read_saved_model(model)
    document_table = read_table(documents)
    topic_table = read_table(topics)
    if vectors is not None and vectors.ctfidf is None and vectors.embeddings is None:
        vectors = None  # nothing to compare topics with: fall back to the documents' words
    if vectors is not None and "model_topic" in topic_table.columns:
        vectors = renumber(
            vectors, dict(zip(topic_table["model_topic"].astype(int), topic_table["topic"].astype(int)))
        )
    inputs = ReportInputs(
        documents=document_table,
        topics=topic_table,
        map2d=pd.read_parquet(map2d) if map2d is not None else None,
        metrics=json.loads(Path(metrics).read_text(encoding="utf-8")) if metrics is not None else {},
        listings=list(listings or []),
        vectors=vectors,
        title=title,
        max_hover_chars=int(max_hover_chars),
        changes=read_table(changes) if changes is not None else None,
        neighbours=read_table(neighbours) if neighbours is not None else None,
        listing_titles=read_listing_titles(corpus_stats) if corpus_stats is not None else {},
        corpus_stats=json.loads(Path(corpus_stats).read_text(encoding="utf-8"))
        if corpus_stats is not None
        else {},
        hierarchy=read_table(hierarchy) if hierarchy is not None and Path(hierarchy).is_file() else None,
        described={
            name: read_table(path) for name, path in (described or {}).items() if Path(path).is_file()
        },
        filters=read_table(filters) if filters is not None and Path(filters).is_file() else None,
    )
    if vectors is not None:
        unknown = sorted(set(inputs.topics["topic"]) - set(vectors.topics))
        if unknown:
            inputs.vectors = vectors_from_documents(inputs.documents, inputs.topics)
    return inputs


def read_listing_titles(path: str | Path) -> dict[str, str]:
    """{listing name: header line} from corpus_stats.json (build_corpus keeps each listing's header)."""
    stats = json.loads(Path(path).read_text(encoding="utf-8"))
    return {
        str(name): str(entry.get("title") or "")
        for name, entry in (stats.get("listings") or {}).items()
        if isinstance(entry, dict)
    }


def renumber(vectors: TopicVectors, stable_of: dict[int, int]) -> TopicVectors:
    """The model numbers topics its own way; topics.csv maps them (model_topic) to stable ids."""
    topics = [stable_of.get(topic, topic) for topic in vectors.topics]
    order = sorted(range(len(topics)), key=lambda row: topics[row])
    return TopicVectors(
        topics=[topics[row] for row in order],
        ctfidf=vectors.ctfidf[order] if vectors.ctfidf is not None else None,
        embeddings=vectors.embeddings[order] if vectors.embeddings is not None else None,
        words={stable_of.get(topic, topic): words for topic, words in vectors.words.items()},
        source=vectors.source,
    )
