"""assess_stability: the run's topics compared with K refits under other seeds."""

import json

import pandas as pd

from papertopics.embedding import load_embeddings
from papertopics.params import resolve_hdbscan, resolve_umap
from papertopics.scripting import script_run
from papertopics.stability import seed_stability

with script_run(snakemake) as log:
    p = snakemake.params
    doc_ids, vectors = load_embeddings(snakemake.input.embeddings)
    labels = pd.read_parquet(snakemake.input.clusters)["cluster"].to_numpy()
    resolved = json.loads(open(snakemake.input.cluster_params, encoding="utf-8").read())
    n = min(len(doc_ids), p.sample)  # a sampled comparison gets the sizes the sample would get
    hdbscan = resolved["hdbscan"] if n == len(doc_ids) else resolve_hdbscan(p.hdbscan, n)
    result = seed_stability(
        vectors, labels, runs=p.runs, sample_size=p.sample, random_state=p.random_state,
        umap=resolve_umap(p.umap, n), method=resolved["method"], hdbscan=hdbscan,
        agglomerative=resolved["agglomerative"])
    with open(snakemake.output.stability, "w", encoding="utf-8") as handle:
        json.dump(result, handle, indent=2, sort_keys=True)
    log.info("stability: ARI %s, mean Jaccard %s over %d runs", result["ari"], result["mean_jaccard"],
             result["n_runs"])
