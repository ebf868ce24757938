"""evaluate_topics: the figures of results/metrics.json."""

import json

import pandas as pd

from papertopics.scripting import script_run

with script_run(snakemake) as log:
    corpus = json.loads(open(snakemake.input.corpus_stats, encoding="utf-8").read())
    embed = json.loads(open(snakemake.input.embed_stats, encoding="utf-8").read())
    cluster = json.loads(open(snakemake.input.cluster_params, encoding="utf-8").read())
    documents = pd.read_csv(snakemake.input.documents, usecols=["doc_id", "topic"])
    topics = documents["topic"]
    metrics = {
        "n_documents": int(len(documents)),
        "n_listings": int(corpus["n_listings"]),
        "n_duplicates_merged": int(corpus.get("n_duplicates_merged", 0)),
        "n_topics": int(topics[topics >= 0].nunique()),
        "outlier_share": round(float((topics == -1).mean()), 4),
        "clustering": cluster,
        "embedding": {"computed": embed["computed"], "reused": embed["reused"],
                      "backend": embed.get("backend"), "precision": embed.get("precision")},
    }
    with open(snakemake.output.metrics, "w", encoding="utf-8") as handle:
        json.dump(metrics, handle, indent=2, sort_keys=True)
    log.info("metrics: %s", metrics)
