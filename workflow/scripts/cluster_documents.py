"""cluster_documents: reduced space (or embeddings, for small corpora) -> cluster labels."""

import json

import pandas as pd

from papertopics.cluster import cluster_documents
from papertopics.artifacts import load_embeddings
from papertopics.params import resolve_agglomerative, resolve_hdbscan, resolve_method
from papertopics.scripting import script_run

with script_run(snakemake) as log:
    p = snakemake.params
    doc_ids, vectors = load_embeddings(snakemake.input.embeddings)
    reduced = pd.read_parquet(snakemake.input.reduced)
    assert reduced["doc_id"].tolist() == doc_ids, "reduced and embeddings disagree on order"
    n = len(doc_ids)
    resolved = {
        "n_documents": n,
        "method": resolve_method(p.clustering, n),
        "hdbscan": resolve_hdbscan(p.hdbscan, n),
        "agglomerative": resolve_agglomerative(p.agglomerative, n),
    }
    log.info("clustering: %s", resolved)
    labels, note = cluster_documents(
        vectors, reduced.drop(columns="doc_id").to_numpy(), method=resolved["method"],
        hdbscan=resolved["hdbscan"], agglomerative=resolved["agglomerative"], threads=snakemake.threads,
        use_cuml=p.clustering["cuml"])
    resolved["note"] = note
    resolved["n_clusters"] = int(labels.max() + 1)
    resolved["n_outliers"] = int((labels == -1).sum())
    pd.DataFrame({"doc_id": doc_ids, "cluster": labels}).to_parquet(snakemake.output.clusters, index=False)
    with open(snakemake.output.params, "w", encoding="utf-8") as handle:
        json.dump(resolved, handle, indent=2, sort_keys=True)
