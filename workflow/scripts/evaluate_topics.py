"""evaluate_topics: results/metrics.json, the figures a researcher checks before trusting a map."""

import json

import pandas as pd

from papertopics.evaluation import cluster_validity, label_agreement, npmi_coherence, topic_diversity
from papertopics.scripting import script_run
from papertopics.topics import build_vectorizer


def read_json(path):
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


with script_run(snakemake) as log:
    p = snakemake.params
    corpus = pd.read_parquet(snakemake.input.corpus)
    corpus_stats = read_json(snakemake.input.corpus_stats)
    embed = read_json(snakemake.input.embed_stats)
    cluster = read_json(snakemake.input.cluster_params)
    stability = read_json(snakemake.input.stability)
    documents = pd.read_csv(snakemake.input.documents, usecols=["doc_id", "topic"])
    topics = pd.read_csv(snakemake.input.topics, keep_default_na=False)
    reduced = pd.read_parquet(snakemake.input.reduced)
    assigned = documents["topic"].to_numpy()

    topic_words = {int(row.topic): [t for t in row.top_terms.split("; ") if t]
                   for row in topics.itertuples() if row.topic != -1}
    # Tokens as the topic vectorizer makes them (hyphenated words kept), unigrams only.
    analyzer = build_vectorizer({**p.vectorizer, "ngram_range": [1, 1]}).build_analyzer()
    coherence = npmi_coherence(topic_words, corpus["text"].tolist(), top_n=p.top_n, analyzer=analyzer)
    metrics = {
        "n_documents": int(len(documents)),
        "n_listings": int(corpus_stats["n_listings"]),
        "n_duplicates_merged": int(corpus_stats.get("n_duplicates_merged", 0)),
        "n_topics": int(len(topic_words)),
        "outlier_share": round(float((assigned == -1).mean()), 4),
        "npmi": coherence["mean"],
        "npmi_per_topic": {str(k): v for k, v in coherence["per_topic"].items()},
        "topic_diversity": topic_diversity(topic_words, top_n=p.top_n),
        "silhouette": cluster_validity(reduced.drop(columns="doc_id").to_numpy(), assigned,
                                       random_state=p.random_state),
        "stability": {
            "runs": stability["n_runs"],
            "ari": stability["ari"],
            "mean_jaccard": stability["mean_jaccard"],
            "sampled_documents": stability.get("n_documents") if stability.get("sampled") else None,
            "per_topic_jaccard": {str(k): v for k, v in stability["per_topic"].items()},
        },
        "clustering": cluster,
        "embedding": {key: embed.get(key) for key in ("computed", "reused", "backend", "precision", "device")},
    }
    if "label" in corpus.columns:
        metrics["label_agreement"] = label_agreement(assigned, corpus["label"].tolist())
    with open(snakemake.output.metrics, "w", encoding="utf-8") as handle:
        json.dump(metrics, handle, indent=2, sort_keys=True)
    log.info("metrics: %d topics, outliers %.3f, NPMI %s, diversity %s, stability ARI %s",
             metrics["n_topics"], metrics["outlier_share"], metrics["npmi"], metrics["topic_diversity"],
             metrics["stability"]["ari"])
