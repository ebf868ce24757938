"""The fit_topics stage as one function: BERTopic on the clusters, stable ids, finished tables.

Kept out of topics.py (BERTopic plumbing) and history.py (the snapshot store) because it is
the one place that knows how the three fit together: the model's topic ids are internal, every
table a user reads carries the stable id that history.stable_topic_ids gives each topic.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from papertopics.artifacts import load_embeddings
from papertopics.cluster.cohesion import mark_mixed, mixed_topics, topic_cohesion
from papertopics.cluster.pinned import pinned_topics
from papertopics.constants import ASSIGNED_CORE, ASSIGNED_NEAREST, OUTLIER, UNASSIGNED
from papertopics.embed.model import resolve_model_path
from papertopics.topics.history import load_snapshot, save_snapshot, stable_topic_ids
from papertopics.topics.identity import TopicSnapshot
from papertopics.topics.merge import merge_changes, merge_clusters, pin_previous, pinned_ids
from papertopics.topics.names.chain import Names
from papertopics.topics.names.hierarchy import topic_hierarchy
from papertopics.topics.names.phrases import NameIndex
from papertopics.topics.names.registry import DEFAULT_NAMING, Listing
from papertopics.topics.representation import (
    document_table,
    fit_topic_model,
    representative_doc_ids,
    topic_labels,
    topics_table,
)
from papertopics.topics.terms import TermCounts


@dataclass
class FittedTopics:
    model: Any  # BERTopic, its labels set; its own ids are in topics["model_topic"]
    topics: pd.DataFrame  # results/topics/topics.csv, sorted by stable id
    documents: pd.DataFrame  # results/topics/document_topics.csv
    changes: pd.DataFrame  # results/topics/changes.csv
    snapshot: TopicSnapshot  # results/topics/snapshot; advance_history moves the history to it
    meta: dict
    hierarchy: pd.DataFrame | None = None  # results/topics/hierarchy.csv (named merges of the topics)


def labelling_key(vectorizer: dict, representation: dict) -> str:
    """Kept labels stay only while the settings that made them are unchanged."""
    return hashlib.sha256(json.dumps([vectorizer, representation], sort_keys=True).encode()).hexdigest()


def fit_topic_tables(
    corpus: pd.DataFrame,
    vectors: np.ndarray,
    clusters: np.ndarray,
    previous: tuple[TopicSnapshot, dict] | None,
    *,
    vectorizer: dict,
    representation: dict,
    topics: dict,
    assignment: np.ndarray | None = None,
    confidence: np.ndarray | None = None,
    mixed_cohesion: float | None = None,
    terms=None,
    index=None,
    phrase_vectors: Mapping[str, np.ndarray] | None = None,
) -> FittedTopics:
    """corpus (doc_id, text, ...) and vectors in the same order, clusters from cluster_documents,
    previous: history.load_snapshot's answer (None on a first run); assignment and confidence
    (clusters.parquet) go to document_topics.csv; topics below mixed_cohesion are named "Mixed: ...".
    terms (rule count_terms) and index (rule index_phrases) are per-corpus precomputations,
    computed here when not given; representation.name_source chooses the name sources
    (topics.names.registry) that name the topics, the regions and the hierarchy's merges;
    phrase_vectors (rule embed_phrases: phrase -> unit vector, the documents' model) let them
    weigh names by meaning."""
    doc_ids = corpus["doc_id"].tolist()
    model, assigned = fit_topic_model(
        corpus["text"].tolist(),
        vectors,
        clusters,
        vectorizer=vectorizer,
        representation=representation,
        topics=topics,
        terms=terms,
        # keywords from each cluster's own members, not the documents assigned to it afterwards
        keyword_labels=None
        if assignment is None
        else np.where(np.asarray(assignment) == ASSIGNED_NEAREST, OUTLIER, clusters),
    )
    top_n = representation["top_n_words"]
    namer = _namer(corpus, index, vectors, phrase_vectors, vectorizer, representation)
    # Names from the name sources (default: phrases of the abstracts and titles); keywords are the fallback.
    keywords = topic_labels(model, assigned, representation["label_terms"], top_n)
    named = namer.name_topics(assigned, fallback=keywords)
    cohesion = topic_cohesion(vectors, assigned)
    # A kept name must still be among the topic's candidate names (history's label keeping).
    mapping, labels, changes, snapshot, meta = stable_topic_ids(
        doc_ids,
        assigned,
        named.names,
        vectors,
        previous,
        labelling_key(vectorizer, representation),
        {t: named.candidates[t] for t in named.names if t != OUTLIER},
    )
    stable = np.array([mapping[t] for t in assigned.tolist()])
    labels, hierarchy, region_of, coverage = _final_labels(
        namer, named, labels, mapping, stable, assigned, vectors, cohesion, mixed_cohesion
    )
    snapshot.topics["label"] = (
        snapshot.topics["topic"]
        .map({mapping[t]: n for t, n in labels.items()})
        .fillna(snapshot.topics["label"])
    )
    stable_labels = {mapping[t]: label for t, label in labels.items()}
    leaf_rows = hierarchy["level"] == 0  # with "Mixed: " where it was added
    hierarchy.loc[leaf_rows, "label"] = hierarchy.loc[leaf_rows, "node"].map(stable_labels)
    model.set_topic_labels(dict(labels))

    representatives = representative_doc_ids(vectors, stable, doc_ids, topics["representative_docs"])
    table = topics_table(model, assigned, labels, {t: representatives[mapping[t]] for t in labels}, top_n)
    table = _topic_rows(table, mapping, cohesion, coverage, hierarchy, region_of)
    table = _name_sources(table, named.sources, corpus, assigned)
    changes["label"] = changes["topic"].map(stable_labels).fillna(changes["label"])  # current labels
    documents = _document_rows(corpus, stable, stable_labels, assignment, confidence)
    return FittedTopics(model, table.sort_values("topic"), documents, changes, snapshot, meta, hierarchy)


def _namer(corpus, index, vectors, phrase_vectors, vectorizer, representation) -> Names:
    """The name sources representation.name_source chooses, chained (topics.names.chain)."""
    if index is None:
        index = NameIndex.build(corpus["text_raw"].tolist(), corpus["title"].fillna("").tolist())
    # the user's own stop words stay out of the names too (naming has its own phrase index)
    exclude = frozenset(w.casefold() for w in vectorizer.get("extra_stop_words") or [])
    source = representation.get("name_source", "auto")
    return Names.for_listing(Listing(corpus, index, vectors, phrase_vectors, exclude, source=source))


def _name_sources(table, sources, corpus, assigned) -> pd.DataFrame:
    """topics.csv's name_source after coverage, and where the listing has keywords, `keyworded`:
    the share of each topic's papers that carry some (the card's "... of those with keywords")."""
    at = table.columns.get_loc("coverage") + 1
    table.insert(at, "name_source", table["model_topic"].map(lambda t: sources.get(t, DEFAULT_NAMING)))
    if "keywords" in corpus:
        given = corpus["keywords"].fillna("").astype(str).str.strip().ne("").to_numpy()
        keyworded = {t: round(float(given[assigned == t].mean()), 4) for t in set(assigned.tolist())}
        table.insert(at + 1, "keyworded", table["model_topic"].map(keyworded))
    return table


def _final_labels(namer, named, labels, mapping, stable, assigned, vectors, cohesion, mixed_cohesion):
    """The topics' final names (distinct, a region's field name where it took one, "Mixed: "
    below mixed_cohesion), the hierarchy, each topic's region and the names' coverage."""
    fresh = named.names
    labels = namer.make_distinct(labels, named.candidates, keep={t for t in labels if labels[t] != fresh[t]})
    hierarchy, region_of = topic_hierarchy(
        namer, stable, vectors, {mapping[t]: label for t, label in labels.items()}
    )
    leaves = hierarchy[hierarchy["level"] == 0]
    leaf_label = dict(zip(leaves["node"].astype(int), leaves["label"]))
    labels = {t: leaf_label.get(mapping[t], label) if t != OUTLIER else label for t, label in labels.items()}
    members = {t: np.flatnonzero(assigned == t) for t in labels if t != OUTLIER}
    coverage = namer.coverage({t: n for t, n in labels.items() if t != OUTLIER}, members, named.sources)
    if mixed_cohesion is not None:  # after naming, whatever names the topics
        labels = mark_mixed(labels, mixed_topics(cohesion, mixed_cohesion, coverage))
    return labels, hierarchy, region_of, coverage


def _topic_rows(table, mapping, cohesion, coverage, hierarchy, region_of) -> pd.DataFrame:
    """topics.csv from BERTopic's table: the stable id first, the model's beside it, each
    topic's cohesion, coverage and region."""
    table.insert(0, "model_topic", table.pop("topic"))
    table.insert(0, "topic", table["model_topic"].map(mapping))
    table["cohesion"] = table["model_topic"].map(cohesion)
    table["coverage"] = table["model_topic"].map(coverage)
    node_label = dict(zip(hierarchy["node"], hierarchy["label"]))
    table["region"] = table["topic"].map(lambda t: region_of.get(t, OUTLIER)).astype(int)
    table["region_label"] = table["region"].map(lambda r: node_label.get(r, ""))
    return table


def _document_rows(corpus, stable, stable_labels, assignment, confidence) -> pd.DataFrame:
    """document_topics.csv: each document's stable topic, how it got it and how surely."""
    documents = document_table(corpus, stable, stable_labels)
    how = (
        np.asarray(assignment, dtype=object).copy()
        if assignment is not None
        else np.where(stable == OUTLIER, UNASSIGNED, ASSIGNED_CORE).astype(object)
    )
    how[(how == UNASSIGNED) & (stable != OUTLIER)] = ASSIGNED_NEAREST  # topics.reduce_outliers gave it one
    documents["assignment"] = how
    documents["confidence"] = (
        np.round(confidence, 4) if confidence is not None else (stable != OUTLIER).astype(float)
    )
    return documents


def fit_topics_job(job, log) -> None:
    """Rule fit_topics (run by papertopics.runtime.inprocess.run_job): c-TF-IDF keywords and labels on
    the clusters; stable ids; model and tables.

    Inputs: corpus, embeddings, clusters, term counts, phrase index and phrase vectors (per corpus);
    results/topics/history (the last finished run's topics).
    Outputs: results/topics/model, topics.csv, document_topics.csv, changes.csv, hierarchy.csv,
    snapshot/ (this run's topics; advance_history makes it the history once the report is written).
    """
    p, out = job.params, job.output
    corpus = pd.read_parquet(job.input.corpus)
    doc_ids, vectors = load_embeddings(job.input.embeddings)
    clusters = pd.read_parquet(job.input.clusters)
    assert corpus["doc_id"].tolist() == doc_ids == clusters["doc_id"].tolist(), (
        "stage outputs disagree on order"
    )
    # topics.merge (topics.merge): the lists' clusters joined, the ids matched as one topic
    previous = load_snapshot(p.history)
    joined, matched_against, merged, warnings = merge_clusters(
        doc_ids, clusters["cluster"].to_numpy(), previous, p.topics.get("merge")
    )
    for line in warnings:
        log.warning("%s", line)
    # topics.pinned (cluster.pinned): a pinned topic keeps its id however far its papers moved
    pinned = clusters["pinned"].fillna("").to_numpy(dtype=object) if "pinned" in clusters else None
    matched_against = pin_previous(matched_against, doc_ids, pinned)
    fitted = fit_topic_tables(
        corpus,
        vectors,
        joined,
        matched_against,
        vectorizer=p.vectorizer,
        representation=p.representation,
        topics=p.topics,
        assignment=clusters["assignment"].to_numpy(),
        confidence=clusters["confidence"].to_numpy(),
        mixed_cohesion=p.mixed_cohesion,
        terms=TermCounts.load(job.input.terms),
        index=NameIndex.load(job.input.names),
        phrase_vectors=dict(zip(*load_embeddings(job.input.phrases))),
    )
    if merged:
        fitted.meta["merged"] = {str(first): ids for first, ids in merged.items()}
        fitted.changes = merge_changes(previous, fitted)
    if pinned is not None:  # which topic is which pinned one: curate_topics names them
        names = [topic.name for topic in pinned_topics(p.topics.get("pinned"))]
        here, kept = pinned_ids(fitted.documents, doc_ids, pinned, previous, names)
        fitted.meta["pinned"] = kept
        fitted.topics["pinned"] = fitted.topics["topic"].map({t: n for n, t in here.items()}).fillna("")
    # config.json names the model's folder (not the package), so BERTopic.load finds it offline
    fitted.model.save(
        out.model,
        serialization="safetensors",
        save_ctfidf=True,
        save_embedding_model=str(resolve_model_path(p.embedding_model)),
    )
    fitted.topics.to_csv(out.topics, index=False)
    fitted.documents.to_csv(out.documents, index=False)
    fitted.changes.to_csv(out.changes, index=False)
    fitted.hierarchy.to_csv(out.hierarchy, index=False)
    save_snapshot(out.snapshot, fitted.snapshot, fitted.meta)  # the history advances after the report
    for row in fitted.topics.itertuples():
        log.info("topic %d (%d docs): %s", row.topic, row.size, row.label)
