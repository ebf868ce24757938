"""reduce_embeddings: UMAP to n-D (clustering) and 2-D (document map), same random_state.

Inputs: embeddings. Outputs: results/reduce/reduced.parquet (doc_id, u0..), map2d.parquet (doc_id, x, y).
"""

from papertopics.artifacts import load_embeddings
from papertopics.reduce.reduction import reduce_for_clustering_and_map
from papertopics.runtime.scripting import script_run

with script_run(snakemake) as log:
    p = snakemake.params
    doc_ids, vectors = load_embeddings(snakemake.input.embeddings)
    reduced, map2d = reduce_for_clustering_and_map(
        doc_ids, vectors, p.umap, random_state=p.random_state, use_cuml=p.cuml, log=log
    )
    reduced.to_parquet(snakemake.output.reduced, index=False)
    map2d.to_parquet(snakemake.output.map2d, index=False)
