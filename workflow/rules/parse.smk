# One job per listing: its file (by content) and its spec from config.yaml (common.smk LISTINGS).


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


rule parse_listing:
    """One job per listing file: a table with one row per abstract, raw and cleaned text."""
    input:
        listing_path,
    output:
        "results/parse/{listing}.parquet",
    log:
        "results/logs/parse_listing/{listing}.log",
    benchmark:
        "results/benchmarks/parse_listing/{listing}.tsv"
    params:
        code=script_code("parse_listing"),  # modules, package data, library versions: a change reruns it
        spec=listing_spec,
        max_chars=config["parse"]["max_chars"],
        # the file's content: an edit with an older mtime (cp -p, rsync -a, unzip) reruns too
        content=listing_content,
        # an English-only model gets a warning for a listing in another script
        embedding_model=config["embedding"]["model"],
    script:
        "../scripts/parse_listing.py"
