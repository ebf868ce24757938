# Input functions of the stages' rules, in one file without rules (snakemake --lint: a file
# holds rules or functions, not both). Each names the rule that calls it.
from snakemake.exceptions import WorkflowError


# parse.smk (parse_listing): the listing's file, content hash and spec (common.smk LISTINGS)
def listing_path(wildcards):
    """The listing file as input; none where its path has braces, which Snakemake would read
    as wildcards (`papers {v2}.txt`): the content hash in params reruns it then."""
    path = str(LISTINGS[wildcards.listing].path)
    return [] if "{" in path or "}" in path else path


def listing_content(wildcards):
    """The listing's content hash (cached by size, mtime, ctime and inode under .snakemake/)."""
    return listing_fingerprint(
        LISTINGS[wildcards.listing].path, Path(".snakemake/papertopics/listing-hashes.json")
    )


def listing_spec(wildcards):
    spec = LISTINGS[wildcards.listing]
    return {
        "name": spec.name,
        "path": str(spec.path),
        "format": spec.format,
        "columns": dict(spec.columns),
        "sheet": spec.sheet,
    }


# embed.smk (embed_shard, gather_embeddings)
def embedding_shards(wildcards):
    """Shard files for the corpus at hand: known once build_corpus has run (a checkpoint)."""
    from papertopics.params import embedding_shard_count

    n_shards = embedding_shard_count(n_documents(), config["embedding"]["shard_size"])
    return [f"results/embed/shards/{i}.parquet" for i in range(n_shards)]


def embedding_threads(wildcards):
    """embedding.threads for this corpus (`auto`: papertopics.params.resolve_embedding_threads)."""
    import os

    from papertopics.params import resolve_embedding_threads

    cpus = None
    if workflow.local_exec:  # a cluster gives every job its own CPUs
        try:
            cpus = min(workflow.cores, os.cpu_count() or workflow.cores)
        except WorkflowError:  # no --cores (a dry run): as on a cluster
            pass
    n_shards = len(embedding_shards(wildcards))
    return resolve_embedding_threads(config["embedding"]["threads"], n_shards, cpus)


# evaluate.smk (refit_reduction, assess_stability)
def stability_refits(wildcards):
    """One refit file per seed (none when the corpus is clustered by Ward, which has no seed)."""
    from papertopics.params import refit_seeds, resolve_method

    n = n_documents()
    evaluation = config["evaluation"]
    seeds = refit_seeds(
        n,
        evaluation["stability_runs"],
        evaluation["stability_sample"],
        config["random_state"],
        resolve_method(config["clustering"], n),
    )
    return [f"results/evaluation/refits/{seed}.parquet" for seed in seeds]
