"""fit_topics: c-TF-IDF keywords and labels on the clusters; stable ids; model and tables.

Inputs: corpus, embeddings, clusters, term counts and phrase index (per corpus);
results/topics/history (the last finished run's topics).
Outputs: results/topics/model, topics.csv, document_topics.csv, changes.csv, hierarchy.csv, snapshot/
(this run's topics; advance_history makes it the history once the report is written).
"""

import pandas as pd

from papertopics.artifacts import load_embeddings
from papertopics.runtime.scripting import script_run
from papertopics.topics.fit import fit_topic_tables
from papertopics.topics.history import load_snapshot, save_snapshot
from papertopics.topics.names.phrases import NameIndex
from papertopics.topics.terms import TermCounts

with script_run(snakemake) as log:
    p, out = snakemake.params, snakemake.output
    corpus = pd.read_parquet(snakemake.input.corpus)
    doc_ids, vectors = load_embeddings(snakemake.input.embeddings)
    clusters = pd.read_parquet(snakemake.input.clusters)
    assert corpus["doc_id"].tolist() == doc_ids == clusters["doc_id"].tolist(), (
        "stage outputs disagree on order"
    )
    fitted = fit_topic_tables(
        corpus,
        vectors,
        clusters["cluster"].to_numpy(),
        load_snapshot(p.history),
        vectorizer=p.vectorizer,
        representation=p.representation,
        topics=p.topics,
        assignment=clusters["assignment"].to_numpy(),
        confidence=clusters["confidence"].to_numpy(),
        mixed_cohesion=p.mixed_cohesion,
        terms=TermCounts.load(snakemake.input.terms),
        index=NameIndex.load(snakemake.input.names),
    )
    fitted.model.save(
        out.model, serialization="safetensors", save_ctfidf=True, save_embedding_model=p.embedding_model
    )
    fitted.topics.to_csv(out.topics, index=False)
    fitted.documents.to_csv(out.documents, index=False)
    fitted.changes.to_csv(out.changes, index=False)
    fitted.hierarchy.to_csv(out.hierarchy, index=False)
    save_snapshot(out.snapshot, fitted.snapshot, fitted.meta)  # the history advances after the report
    for row in fitted.topics.itertuples():
        log.info("topic %d (%d docs): %s", row.topic, row.size, row.label)
