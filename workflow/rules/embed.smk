from papertopics.constants import PHRASE_VECTORS_MAX
from papertopics.embed import ENCODER_KEYS, SETTING_KEYS

# What a vector depends on (papertopics.embed.SETTING_KEYS, which each shard records): both rules
# take these as params (see gather_embeddings).
EMBEDDING_SETTINGS = {key: config["embedding"][key] for key in SETTING_KEYS}


rule embed_shard:
    """Embed one slice of the corpus; a content-keyed cache makes repeated abstracts free."""
    input:
        corpus="results/corpus/corpus.parquet",
    output:
        shard="results/embed/shards/{shard}.parquet",
        stats="results/embed/shards/{shard}.json",
    log:
        "results/logs/embed_shard/{shard}.log",
    benchmark:
        "results/benchmarks/embed_shard/{shard}.tsv"
    threads: embedding_threads
    resources:
        mem_mb=4000,
    params:
        **EMBEDDING_SETTINGS,
        # null: $PAPERTOPICS_CACHE_DIR, else the user cache folder (papertopics.embed.user_cache);
        # resolved in the job, so moving the cache never reruns anything (it is content-keyed).
        code=script_code("embed_shard"),  # modules, package data, library versions: a change reruns it
        cache_dir=config["embedding"]["cache_dir"],
    script:
        "../scripts/embed_shard.py"


rule gather_embeddings:
    """Concatenate the shards in corpus order; each shard must have been embedded with today's
    settings. The settings are params here too: after a failed embedding (its shard deleted),
    a rerun redoes the gather and so the missing shard, never keeping the old vectors."""
    input:
        shards=embedding_shards,
    output:
        embeddings="results/embed/embeddings.parquet",
        stats="results/embed/embed_stats.json",
    log:
        "results/logs/gather_embeddings.log",
    benchmark:
        "results/benchmarks/gather_embeddings.tsv"
    params:
        code=script_code("gather_embeddings"),  # modules, package data, library versions: a change reruns it
        settings=EMBEDDING_SETTINGS,
    script:
        "../scripts/gather_embeddings.py"


rule embed_phrases:
    """Candidate names (the corpus's phrases, most used first) embedded with the documents'
    model, once per corpus: fit_topics weighs a name by how near it sits to its topic."""
    input:
        names="results/corpus/name_index.pkl",
        # not read: the job starts once the documents are embedded, beside UMAP
        embeddings="results/embed/embeddings.parquet",
    output:
        phrases="results/embed/phrase_vectors.parquet",
    log:
        "results/logs/embed_phrases.log",
    benchmark:
        "results/benchmarks/embed_phrases.tsv"
    threads: 1
    params:
        **{key: config["embedding"][key] for key in ENCODER_KEYS},
        code=script_code("embed_phrases"),  # modules, package data, library versions: a change reruns it
        cache_dir=config["embedding"]["cache_dir"],
        limit=PHRASE_VECTORS_MAX,
    script:
        "../scripts/embed_phrases.py"
