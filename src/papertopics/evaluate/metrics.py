"""results/metrics.json: every figure of the evaluate_topics job, from the metric families.

One module per family, plain functions on plain data (lists, arrays), so the job, the
benchmarks and the tests call the same code and none of them pays for importing BERTopic:
`coherence` (NPMI), `diversity`, `silhouette` (cluster validity), `reproducibility` (the
stability check's comparison) and `agreement` (against labels, when the corpus has them).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from papertopics.artifacts import load_embeddings, read_json, write_json
from papertopics.constants import ASSIGNED_CORE, ASSIGNED_NEAREST, MEMBERS, OUTLIER, UNASSIGNED
from papertopics.evaluate.agreement import label_agreement
from papertopics.evaluate.coherence import WindowTokens, npmi_analyzer, npmi_coherence
from papertopics.evaluate.diversity import topic_diversity
from papertopics.evaluate.reproducibility import jaccard_per_run_topic
from papertopics.evaluate.silhouette import cluster_validity


def build_metrics(
    *,
    corpus,
    corpus_stats: dict,
    embed_stats: dict,
    cluster_params: dict,
    stability_check: dict,
    documents,
    topics,
    vectors: np.ndarray,
    reduced: np.ndarray,
    vectorizer: dict,
    top_n: int,
    random_state: int,
    tokens: WindowTokens | None = None,
) -> dict:
    """results/metrics.json: every per-topic figure keyed by a topic id of topics.csv, silhouette
    in the space the clusterer used (the embeddings for Ward, the UMAP space for HDBSCAN).
    ``tokens``: the corpus already tokenised by ``npmi_analyzer(vectorizer)`` (count_terms)."""

    assigned = documents["topic"].to_numpy()
    how = (
        documents["assignment"].to_numpy()
        if "assignment" in documents
        else np.where(assigned == OUTLIER, UNASSIGNED, ASSIGNED_CORE)
    )
    topic_words = {
        int(row.topic): [t for t in str(row.top_terms).split("; ") if t]
        for row in topics.itertuples()
        if row.topic != OUTLIER
    }
    coherence = npmi_coherence(
        topic_words, corpus["text"].tolist(), top_n=top_n, analyzer=npmi_analyzer(vectorizer), tokens=tokens
    )
    space = "embeddings" if cluster_params.get("method") == "agglomerative" else "umap"
    metrics = {
        "n_documents": int(len(documents)),
        "n_listings": int(corpus_stats["n_listings"]),
        "n_duplicates_merged": int(corpus_stats.get("n_duplicates_merged", 0)),
        "n_topics": int(len(topic_words)),
        "outlier_share": round(float((assigned == OUTLIER).mean()), 4),
        # How documents got their topic: core members of a cluster, or assigned to the nearest topic.
        "core_share": round(float((np.isin(how, MEMBERS) & (assigned != OUTLIER)).mean()), 4),
        "assigned_share": round(float((how == ASSIGNED_NEAREST).mean()), 4),
        "cohesion_per_topic": _cohesion(topics),
        "npmi": coherence["mean"],
        "npmi_per_topic": {str(k): v for k, v in coherence["per_topic"].items()},
        "topic_diversity": topic_diversity(topic_words, top_n=top_n),
        "silhouette": cluster_validity(
            vectors if space == "embeddings" else reduced, assigned, random_state=random_state
        ),
        "silhouette_space": space,
        "stability": _stability(stability_check, documents),
        "clustering": cluster_params,
        "embedding": {
            key: embed_stats.get(key) for key in ("computed", "reused", "backend", "precision", "device")
        },
    }
    if "label" in corpus.columns:
        metrics["label_agreement"] = label_agreement(assigned, corpus["label"].tolist())
    return metrics


def _cohesion(topics) -> dict[str, float]:
    """topics.csv's cohesion column, by topic id (none for a table without it)."""
    if "cohesion" not in topics:
        return {}
    return {
        str(int(row.topic)): float(row.cohesion)
        for row in topics.itertuples()
        if row.topic != OUTLIER and row.cohesion != ""
    }


def _stability(stability_check: dict, documents) -> dict:
    """The stability check (stability.json), with each topic's Jaccard keyed by topics.csv's ids."""
    reference = stability_check.get("reference") or {"doc_ids": [], "labels": []}
    per_topic_jaccard = (
        jaccard_per_run_topic(
            stability_check["per_topic"], reference["doc_ids"], reference["labels"], documents
        )
        if stability_check.get("n_runs")
        else {}
    )
    return {
        "runs": stability_check["n_runs"],
        # "seeds" or "subsamples of 90%" (Ward: no seed)
        "measured_by": stability_check.get("measured_by"),
        "ari": stability_check["ari"],
        "mean_jaccard": stability_check["mean_jaccard"],
        "sampled_documents": (stability_check.get("n_documents") if stability_check.get("sampled") else None),
        "per_topic_jaccard": {str(k): v for k, v in per_topic_jaccard.items()},
    }


def evaluate_topics_job(job, log) -> None:
    """Rule evaluate_topics (run by papertopics.runtime.inprocess.run_job): the figures a researcher
    checks before trusting a map.

    Inputs: corpus, its NPMI tokens (count_terms), corpus and embedding stats, embeddings, reduced
    space, clustering params, stability.json, document_topics.csv, topics.csv.
    Outputs: results/metrics.json.
    """
    p, i = job.params, job.input
    metrics = build_metrics(
        corpus=pd.read_parquet(i.corpus),
        corpus_stats=read_json(i.corpus_stats),
        embed_stats=read_json(i.embed_stats),
        cluster_params=read_json(i.cluster_params),
        stability_check=read_json(i.stability),
        documents=pd.read_csv(i.documents, usecols=lambda c: c in ("doc_id", "topic", "assignment")),
        topics=pd.read_csv(i.topics, keep_default_na=False),
        vectors=load_embeddings(i.embeddings)[1],
        reduced=pd.read_parquet(i.reduced).drop(columns="doc_id").to_numpy(),
        vectorizer=p.vectorizer,
        top_n=p.top_n,
        random_state=p.random_state,
        tokens=WindowTokens.load(i.windows),
    )
    write_json(job.output.metrics, metrics)
    log.info(
        "metrics: %d topics, outliers %.3f, NPMI %s, diversity %s, stability ARI %s",
        metrics["n_topics"],
        metrics["outlier_share"],
        metrics["npmi"],
        metrics["topic_diversity"],
        metrics["stability"]["ari"],
    )
