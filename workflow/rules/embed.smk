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
        shard_size=config["embedding"]["shard_size"],
        model=config["embedding"]["model"],
        backend=config["embedding"]["backend"],
        precision=config["embedding"]["precision"],
        device=config["embedding"]["device"],
        batch_size=config["embedding"]["batch_size"],
        max_seq_length=config["embedding"]["max_seq_length"],
        # null: $PAPERTOPICS_CACHE_DIR, else the user cache folder (papertopics.embed.user_cache);
        # resolved in the job, so moving the cache never reruns anything (it is content-keyed).
        cache_dir=config["embedding"]["cache_dir"],
    script:
        "../scripts/embed_shard.py"


rule gather_embeddings:
    """Concatenate the shards in corpus order."""
    input:
        shards=embedding_shards,
    output:
        embeddings="results/embed/embeddings.parquet",
        stats="results/embed/embed_stats.json",
    log:
        "results/logs/gather_embeddings.log",
    benchmark:
        "results/benchmarks/gather_embeddings.tsv"
    script:
        "../scripts/gather_embeddings.py"
