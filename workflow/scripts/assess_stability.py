"""assess_stability: the run's topics compared with the topics of K refits under other seeds.

Inputs: embeddings, clusters and their params.json, the UMAP refits.
Outputs: results/evaluation/stability.json (ARI, per-topic Jaccard and the labelling it scored).
"""

import pandas as pd

from papertopics.artifacts import load_embeddings, read_json, write_json
from papertopics.scripting import script_run
from papertopics.stability import assess_stability

with script_run(snakemake) as log:
    p = snakemake.params
    doc_ids, vectors = load_embeddings(snakemake.input.embeddings)
    labels = pd.read_parquet(snakemake.input.clusters)["cluster"].to_numpy()
    config = {"clustering": p.clustering, "hdbscan": p.hdbscan, "agglomerative": p.agglomerative}
    result = assess_stability(doc_ids, vectors, labels, pd.read_parquet(snakemake.input.refits),
                              read_json(snakemake.input.cluster_params), config, random_state=p.random_state)
    write_json(snakemake.output.stability, result)
    log.info("stability: ARI %s, mean Jaccard %s over %d runs", result["ari"], result["mean_jaccard"],
             result["n_runs"])
