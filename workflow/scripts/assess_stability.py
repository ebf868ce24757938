"""assess_stability: the run's topics compared with the topics of K refits under other seeds."""

import json

import pandas as pd

from papertopics.artifacts import load_embeddings
from papertopics.params import resolve_hdbscan
from papertopics.scripting import script_run
from papertopics.stability import seed_stability

with script_run(snakemake) as log:
    p = snakemake.params
    doc_ids, vectors = load_embeddings(snakemake.input.embeddings)
    labels = pd.read_parquet(snakemake.input.clusters)["cluster"].to_numpy()
    resolved = json.loads(open(snakemake.input.cluster_params, encoding="utf-8").read())
    refits = pd.read_parquet(snakemake.input.refits)
    n = refits["doc_id"].nunique() if len(refits) else len(doc_ids)
    # A sampled comparison uses the sizes `auto` would pick for the sample.
    hdbscan = resolved["hdbscan"] if n == len(doc_ids) else resolve_hdbscan(p.hdbscan, n)
    result = seed_stability(doc_ids, vectors, labels, refits, random_state=p.random_state,
                            method=resolved["method"], hdbscan=hdbscan,
                            agglomerative=resolved["agglomerative"])
    with open(snakemake.output.stability, "w", encoding="utf-8") as handle:
        json.dump(result, handle, indent=2, sort_keys=True)
    log.info("stability: ARI %s, mean Jaccard %s over %d runs", result["ari"], result["mean_jaccard"],
             result["n_runs"])
