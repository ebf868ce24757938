"""fit_topics: c-TF-IDF keywords and labels on the clusters; saves model and tables."""

import pandas as pd

from papertopics.embedding import load_embeddings
from papertopics.scripting import script_run
from papertopics.topics import (document_table, fit_topic_model, representative_doc_ids,
                                topic_labels, topics_table)

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
    representatives = representative_doc_ids(vectors, assigned, doc_ids, p.topics["representative_docs"])
    model.save(snakemake.output.model, serialization="safetensors", save_ctfidf=True,
               save_embedding_model=p.embedding_model)
    topics_table(model, assigned, labels, representatives, top_n).to_csv(snakemake.output.topics, index=False)
    document_table(corpus, assigned, labels).to_csv(snakemake.output.documents, index=False)
    for topic, label in labels.items():
        log.info("topic %d (%d docs): %s", topic, int((assigned == topic).sum()), label)
