"""cluster_documents: reduced space (or embeddings, for small corpora) -> cluster labels.

Inputs: embeddings, reduced space. Outputs: results/cluster/clusters.parquet (doc_id, cluster;
-1: outlier; assignment: core | nearest | outlier; confidence) and params.json (the parameters
`auto` resolved to, and what came of them).
"""

import pandas as pd

from papertopics.artifacts import load_embeddings, write_json
from papertopics.cluster.assign import assignment_table
from papertopics.cluster.clustering import cluster_corpus
from papertopics.runtime.scripting import script_run

with script_run(snakemake) as log:
    p = snakemake.params
    doc_ids, vectors = load_embeddings(snakemake.input.embeddings)
    reduced = pd.read_parquet(snakemake.input.reduced)
    assert reduced["doc_id"].tolist() == doc_ids, "reduced and embeddings disagree on order"
    config = {"clustering": p.clustering, "hdbscan": p.hdbscan, "agglomerative": p.agglomerative}
    labels, resolved = cluster_corpus(
        vectors,
        reduced.drop(columns="doc_id").to_numpy(),
        config,
        threads=snakemake.threads,
        use_cuml=p.clustering["cuml"],
    )
    assignment_table(doc_ids, vectors, labels, resolved, p.clustering["assign_min_confidence"]).to_parquet(
        snakemake.output.clusters, index=False
    )
    write_json(snakemake.output.params, resolved)
