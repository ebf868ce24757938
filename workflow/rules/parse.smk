rule parse_listing:
    """One job per listing file: a table with one row per abstract, raw and cleaned text."""
    input:
        listing_path,
        code=script_code("parse_listing"),  # the package modules it runs: an edit reruns the job
    output:
        "results/parse/{listing}.parquet",
    log:
        "results/logs/parse_listing/{listing}.log",
    benchmark:
        "results/benchmarks/parse_listing/{listing}.tsv"
    params:
        spec=listing_spec,
        max_chars=config["parse"]["max_chars"],
        # the file's content: an edit with an older mtime (cp -p, rsync -a, unzip) reruns too
        content=listing_content,
        # an English-only model gets a warning for a listing in another script
        embedding_model=config["embedding"]["model"],
    script:
        "../scripts/parse_listing.py"
