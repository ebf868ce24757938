from papertopics.constants import NAME_INDEX_VERSION, TOKENISING_KEYS


checkpoint build_corpus:
    """All listings merged; an abstract present in several listings is one document; config.yaml's
    filters leave records out (filters.csv counts each step). A filter edit reruns this and what
    follows, never the parse."""
    input:
        parsed=expand("results/parse/{listing}.parquet", listing=list(LISTINGS)),
    output:
        corpus="results/corpus/corpus.parquet",
        stats="results/corpus/corpus_stats.json",
        filters="results/corpus/filters.csv",
    log:
        "results/logs/build_corpus.log",
    benchmark:
        "results/benchmarks/build_corpus.tsv"
    params:
        code=script_code("build_corpus"),  # modules, package data, library versions: a change reruns it
        listings=list(LISTINGS),
        filters=config["filters"],
    script:
        "../scripts/build_corpus.py"


rule count_terms:
    """Each abstract's term counts, once per corpus: a fit sums its topics' rows (c-TF-IDF)
    instead of tokenising every abstract again; and its unigram stream, which evaluate_topics'
    NPMI windows read. Only the tokenising settings are params, so a min_df/max_df tweak keeps
    this."""
    input:
        corpus="results/corpus/corpus.parquet",
    output:
        terms="results/corpus/term_counts.npz",
        windows="results/corpus/window_tokens.npz",
    log:
        "results/logs/count_terms.log",
    benchmark:
        "results/benchmarks/count_terms.tsv"
    params:
        code=script_code("count_terms"),  # modules, package data, library versions: a change reruns it
        vectorizer={key: config["vectorizer"][key] for key in TOKENISING_KEYS},
    script:
        "../scripts/count_terms.py"


rule index_phrases:
    """Candidate topic names (phrases, acronyms) counted in every abstract, once per corpus."""
    input:
        corpus="results/corpus/corpus.parquet",
    output:
        index="results/corpus/name_index.pkl",
    log:
        "results/logs/index_phrases.log",
    benchmark:
        "results/benchmarks/index_phrases.tsv"
    params:
        code=script_code("index_phrases"),  # modules, package data, library versions: a change reruns it
        version=NAME_INDEX_VERSION,
    script:
        "../scripts/index_phrases.py"
