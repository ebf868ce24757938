"""reduce_embeddings: UMAP to n-D (clustering) and 2-D (document map), same random_state."""

import pandas as pd

from papertopics.artifacts import load_embeddings
from papertopics.params import resolve_umap
from papertopics.reduce import umap_reduce
from papertopics.scripting import script_run

with script_run(snakemake) as log:
    doc_ids, vectors = load_embeddings(snakemake.input.embeddings)
    umap = resolve_umap(snakemake.params.umap, len(doc_ids))
    seed = snakemake.params.random_state
    log.info("UMAP for clustering: %s", umap)
    reduced = umap_reduce(vectors, random_state=seed, use_cuml=snakemake.params.cuml, **umap)
    table = pd.DataFrame(reduced, columns=[f"u{i}" for i in range(reduced.shape[1])])
    table.insert(0, "doc_id", doc_ids)
    table.to_parquet(snakemake.output.reduced, index=False)
    coords = umap_reduce(vectors, random_state=seed, use_cuml=snakemake.params.cuml, **{**umap, "n_components": 2, "min_dist": 0.1})
    pd.DataFrame({"doc_id": doc_ids, "x": coords[:, 0], "y": coords[:, 1]}).to_parquet(
        snakemake.output.map2d, index=False)
