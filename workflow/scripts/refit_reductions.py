"""refit_reductions: UMAP under other seeds (on a sample of a large corpus) for stability."""

from papertopics.artifacts import load_embeddings
from papertopics.params import resolve_method, resolve_umap
from papertopics.scripting import script_run
from papertopics.stability import refit_reductions

with script_run(snakemake) as log:
    p = snakemake.params
    doc_ids, vectors = load_embeddings(snakemake.input.embeddings)
    n = min(len(doc_ids), p.sample)
    # Small corpora are clustered on the embeddings themselves: nothing to refit.
    umap = None if resolve_method(p.clustering, len(doc_ids)) == "agglomerative" else resolve_umap(p.umap, n)
    table = refit_reductions(doc_ids, vectors, umap=umap, runs=p.runs, sample_size=p.sample,
                             random_state=p.random_state)
    table.to_parquet(snakemake.output.refits, index=False)
