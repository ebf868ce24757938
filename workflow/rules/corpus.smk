checkpoint build_corpus:
    """All listings merged; an abstract present in several listings is one document."""
    input:
        expand("results/parse/{listing}.parquet", listing=list(LISTINGS)),
    output:
        corpus="results/corpus/corpus.parquet",
        stats="results/corpus/corpus_stats.json",
    log:
        "results/logs/build_corpus.log",
    benchmark:
        "results/benchmarks/build_corpus.tsv"
    params:
        listings=list(LISTINGS),
    script:
        "../scripts/build_corpus.py"
