# One job per listing: its file (by content) and its spec from config.yaml (common.smk LISTINGS;
# the input functions in inputs.smk).


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
