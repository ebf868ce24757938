"""refit_reduction: one UMAP refit under another seed (on a sample of a large corpus) for stability.

Inputs: embeddings. Outputs: results/evaluation/refits/{seed}.parquet (doc_id, seed, u0..).
"""

from papertopics.artifacts import load_embeddings
from papertopics.evaluate.refits import refit_plan, refit_reduction
from papertopics.runtime.scripting import script_run

with script_run(snakemake) as log:
    p = snakemake.params
    doc_ids, vectors = load_embeddings(snakemake.input.embeddings)
    umap = refit_plan({"clustering": p.clustering, "umap": p.umap}, len(doc_ids), p.sample)
    table = refit_reduction(
        doc_ids,
        vectors,
        umap=umap,
        seed=int(snakemake.wildcards.seed),
        sample_size=p.sample,
        random_state=p.random_state,
        use_cuml=p.clustering["cuml"],
    )
    table.to_parquet(snakemake.output.refit, index=False)
