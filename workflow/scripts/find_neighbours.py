"""find_neighbours: each document's nearest documents by embedding -> results/topics/neighbours.csv."""

import numpy as np

from papertopics.artifacts import atomic_write_text, load_embeddings
from papertopics.neighbours import neighbour_table
from papertopics.report.inputs import read_table
from papertopics.scripting import script_run

with script_run(snakemake) as log:
    doc_ids, vectors = load_embeddings(snakemake.input.embeddings)
    documents = read_table(snakemake.input.documents)["doc_id"].tolist()
    row_of = {doc_id: row for row, doc_id in enumerate(doc_ids)}
    missing = [doc_id for doc_id in documents if doc_id not in row_of]
    if missing:
        raise ValueError(
            f"{snakemake.input.embeddings}: no vector for {len(missing)} documents of "
            f"{snakemake.input.documents} (e.g. {missing[0]}); rerun the embed stage"
        )
    vectors = vectors[np.fromiter((row_of[d] for d in documents), dtype=np.int64, count=len(documents))]
    table = neighbour_table(documents, vectors, k=snakemake.params.k)
    from pathlib import Path

    atomic_write_text(Path(snakemake.output.neighbours), table.to_csv(index=False))
    log.info("neighbours: %d documents, %d nearest each", len(documents), snakemake.params.k)
