"""embed_shard: one slice of the corpus -> normalised vectors, reusing the content cache.

Inputs: corpus. Outputs: results/embed/shards/<n>.parquet (doc_id, vector) and <n>.json (stats).
"""

import pandas as pd

from papertopics.artifacts import save_embeddings, write_json
from papertopics.embed import embed_texts
from papertopics.embed.user_cache import cache_root
from papertopics.params import embedding_shard_rows
from papertopics.runtime.scripting import script_run

with script_run(snakemake) as log:
    p = snakemake.params
    shard = int(snakemake.wildcards.shard)
    corpus = pd.read_parquet(snakemake.input.corpus, columns=["doc_id", "text"])
    start, stop = embedding_shard_rows(len(corpus), p.shard_size, shard)
    part = corpus.iloc[start:stop]
    vectors, stats = embed_texts(
        part["text"].tolist(),
        model=p.model,
        backend=p.backend,
        precision=p.precision,
        batch_size=p.batch_size,
        max_seq_length=p.max_seq_length,
        device=p.device,
        threads=snakemake.threads,
        cache_dir=cache_root(p.cache_dir),
        log=log,
    )
    save_embeddings(snakemake.output.shard, part["doc_id"].tolist(), vectors)
    write_json(snakemake.output.stats, stats)
