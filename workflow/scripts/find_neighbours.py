"""find_neighbours: each document's nearest documents by embedding -> results/topics/neighbours.csv.

Inputs: embeddings.parquet (corpus order). Outputs: neighbours.csv (doc_id, rank, neighbour_id,
similarity). Depends on the vectors alone, so re-clustering or relabelling never recomputes it.
"""

from pathlib import Path

from papertopics.artifacts import atomic_write_text, load_embeddings
from papertopics.embed.neighbours import neighbour_table
from papertopics.runtime.scripting import script_run

with script_run(snakemake) as log:
    doc_ids, vectors = load_embeddings(snakemake.input.embeddings)
    table = neighbour_table(doc_ids, vectors, k=snakemake.params.k)
    atomic_write_text(Path(snakemake.output.neighbours), table.to_csv(index=False))
    log.info("neighbours: %d documents, %d nearest each", len(doc_ids), snakemake.params.k)
