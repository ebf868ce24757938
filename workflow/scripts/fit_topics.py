"""fit_topics: c-TF-IDF keywords and labels on the clusters; stable ids; model and tables."""

import hashlib
import json

import numpy as np
import pandas as pd

from papertopics.artifacts import load_embeddings
from papertopics.history import load_snapshot, save_snapshot, stable_topic_ids
from papertopics.scripting import script_run
from papertopics.topics import (document_table, fit_topic_model, representative_doc_ids,
                                top_terms, topic_labels, topics_table)

with script_run(snakemake) as log:
    p = snakemake.params
    corpus = pd.read_parquet(snakemake.input.corpus)
    doc_ids, vectors = load_embeddings(snakemake.input.embeddings)
    clusters = pd.read_parquet(snakemake.input.clusters)
    assert corpus["doc_id"].tolist() == doc_ids == clusters["doc_id"].tolist(), "stage outputs disagree on order"
    model, assigned = fit_topic_model(
        corpus["text"].tolist(), vectors, clusters["cluster"].to_numpy(),
        vectorizer=p.vectorizer, representation=p.representation, topics=p.topics)
    top_n = p.representation["top_n_words"]
    labels = topic_labels(model, assigned, p.representation["label_terms"], top_n)

    # Stable identity: match this fit's topics to the previous run's (results/topics/history).
    label_config = hashlib.sha256(json.dumps([p.vectorizer, p.representation], sort_keys=True).encode()).hexdigest()
    terms = {t: top_terms(model, t, top_n) for t in labels if t != -1}
    mapping, labels, changes, snapshot, meta = stable_topic_ids(
        doc_ids, assigned, labels, vectors, load_snapshot(p.history), label_config, terms)
    stable = np.array([mapping[t] for t in assigned.tolist()])
    stable_labels = {mapping[t]: label for t, label in labels.items()}
    model.set_topic_labels({t: label for t, label in labels.items()})

    representatives = representative_doc_ids(vectors, stable, doc_ids, p.topics["representative_docs"])
    model.save(snakemake.output.model, serialization="safetensors", save_ctfidf=True,
               save_embedding_model=p.embedding_model)
    table = topics_table(model, assigned, labels, {t: representatives[mapping[t]] for t in labels}, top_n)
    table.insert(0, "model_topic", table.pop("topic"))
    table.insert(0, "topic", table["model_topic"].map(mapping))
    table.sort_values("topic").to_csv(snakemake.output.topics, index=False)
    document_table(corpus, stable, stable_labels).to_csv(snakemake.output.documents, index=False)
    changes["label"] = changes["topic"].map(stable_labels).fillna(changes["label"])  # current labels
    changes.to_csv(snakemake.output.changes, index=False)
    save_snapshot(p.history, snapshot, meta)
    for topic, label in sorted(stable_labels.items()):
        log.info("topic %d (%d docs): %s", topic, int((stable == topic).sum()), label)
