"""refit_reductions: UMAP under other seeds (on a sample of a large corpus) for stability.

Inputs: embeddings. Outputs: results/evaluation/refits.parquet (doc_id, seed, u0..).
"""

from papertopics.artifacts import load_embeddings
from papertopics.scripting import script_run
from papertopics.stability import refit_plan, refit_reductions

with script_run(snakemake) as log:
    p = snakemake.params
    doc_ids, vectors = load_embeddings(snakemake.input.embeddings)
    umap = refit_plan({"clustering": p.clustering, "umap": p.umap}, len(doc_ids), p.sample)
    table = refit_reductions(doc_ids, vectors, umap=umap, runs=p.runs, sample_size=p.sample,
                             random_state=p.random_state)
    table.to_parquet(snakemake.output.refits, index=False)
