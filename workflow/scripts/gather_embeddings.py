"""gather_embeddings: shards -> results/embed/embeddings.parquet in corpus order.

Inputs: results/embed/shards/<n>.parquet and <n>.json. Outputs: embeddings.parquet, embed_stats.json.
"""

from papertopics.artifacts import gather_shards, save_embeddings, write_json
from papertopics.runtime.scripting import script_run

with script_run(snakemake) as log:
    doc_ids, vectors, stats = gather_shards(snakemake.input.shards)
    save_embeddings(snakemake.output.embeddings, doc_ids, vectors)
    write_json(snakemake.output.stats, stats)
    log.info(
        "embeddings: %d documents from %d shards (%d computed, %d reused)",
        len(doc_ids),
        stats["shards"],
        stats["computed"],
        stats["reused"],
    )
