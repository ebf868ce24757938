"""evaluate_topics: the figures a researcher checks before trusting a map.

Inputs: corpus, its NPMI tokens (count_terms), corpus and embedding stats, embeddings, reduced
space, clustering params, stability.json, document_topics.csv, topics.csv.
Outputs: results/metrics.json.
"""

import pandas as pd

from papertopics.artifacts import load_embeddings, read_json, write_json
from papertopics.evaluate.metrics import WindowTokens, build_metrics
from papertopics.runtime.scripting import script_run

with script_run(snakemake) as log:
    p, i = snakemake.params, snakemake.input
    metrics = build_metrics(
        corpus=pd.read_parquet(i.corpus),
        corpus_stats=read_json(i.corpus_stats),
        embed_stats=read_json(i.embed_stats),
        cluster_params=read_json(i.cluster_params),
        stability=read_json(i.stability),
        documents=pd.read_csv(i.documents, usecols=lambda c: c in ("doc_id", "topic", "assignment")),
        topics=pd.read_csv(i.topics, keep_default_na=False),
        vectors=load_embeddings(i.embeddings)[1],
        reduced=pd.read_parquet(i.reduced).drop(columns="doc_id").to_numpy(),
        vectorizer=p.vectorizer,
        top_n=p.top_n,
        random_state=p.random_state,
        tokens=WindowTokens.load(i.windows),
    )
    write_json(snakemake.output.metrics, metrics)
    log.info(
        "metrics: %d topics, outliers %.3f, NPMI %s, diversity %s, stability ARI %s",
        metrics["n_topics"],
        metrics["outlier_share"],
        metrics["npmi"],
        metrics["topic_diversity"],
        metrics["stability"]["ari"],
    )
