"""embed_shard: one slice of the corpus -> normalised vectors, reusing the content cache.

Inputs: corpus. Outputs: results/embed/shards/<n>.parquet (doc_id, vector) and <n>.json (stats,
with the embedding settings that made the vectors, which gather_embeddings checks).
"""

import pandas as pd

from papertopics.artifacts import save_embeddings, write_json
from papertopics.embed import ENCODER_KEYS, SETTING_KEYS, embed_texts
from papertopics.embed.user_cache import cache_root
from papertopics.params import embedding_shard_rows
from papertopics.runtime.scripting import script_run

p = snakemake.params
cache = cache_root(p.cache_dir)
with script_run(snakemake, writes=[cache]) as log:
    shard = int(snakemake.wildcards.shard)
    corpus = pd.read_parquet(snakemake.input.corpus, columns=["doc_id", "text"])
    start, stop = embedding_shard_rows(len(corpus), p.shard_size, shard)
    part = corpus.iloc[start:stop]
    vectors, stats = embed_texts(
        part["text"].tolist(),
        **{key: getattr(p, key) for key in ENCODER_KEYS},
        threads=snakemake.threads,
        cache_dir=cache,
        log=log,
    )
    save_embeddings(snakemake.output.shard, part["doc_id"].tolist(), vectors)
    write_json(snakemake.output.stats, {**stats, "settings": {key: getattr(p, key) for key in SETTING_KEYS}})
