"""assess_stability: the run's topics compared with K refits under other seeds (HDBSCAN on UMAP)
or, for Ward's seedless clustering of small corpora, with K perturbed subsamples.

Inputs: embeddings, clusters and their params.json, the UMAP refits (one file per seed).
Outputs: results/evaluation/stability.json (ARI, per-topic Jaccard, how it was measured and the
labelling it scored).
"""

import pandas as pd

from papertopics.artifacts import load_embeddings, read_json, write_json
from papertopics.evaluate.stability import assess_stability
from papertopics.runtime.scripting import script_run

with script_run(snakemake) as log:
    p = snakemake.params
    doc_ids, vectors = load_embeddings(snakemake.input.embeddings)
    labels = pd.read_parquet(snakemake.input.clusters)["cluster"].to_numpy()
    refits = (
        pd.concat([pd.read_parquet(path) for path in snakemake.input.refits], ignore_index=True)
        if snakemake.input.refits
        else pd.DataFrame({"doc_id": [], "seed": []})
    )
    config = {"clustering": p.clustering, "hdbscan": p.hdbscan, "agglomerative": p.agglomerative}
    result = assess_stability(
        doc_ids,
        vectors,
        labels,
        refits,
        read_json(snakemake.input.cluster_params),
        config,
        random_state=p.random_state,
        runs=p.runs,
        subsample=p.subsample,
        threads=snakemake.threads,
        use_cuml=p.clustering["cuml"],
    )
    write_json(snakemake.output.stability, result)
    log.info(
        "stability (%s): ARI %s, mean Jaccard %s over %d runs",
        result["measured_by"],
        result["ari"],
        result["mean_jaccard"],
        result["n_runs"],
    )
