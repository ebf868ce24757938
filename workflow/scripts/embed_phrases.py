"""embed_phrases: the corpus's candidate names -> unit vectors, with the documents' model.

Inputs: results/corpus/name_index.pkl (and the documents' embeddings, only so that this job runs
beside UMAP rather than against the embedding shards). Outputs: results/embed/phrase_vectors.parquet
(doc_id = the phrase as the index displays it, vector), read by fit_topics to weigh names by meaning.
The vectors go to the per-user cache with the abstracts': a rerun after a new listing embeds only
the names it has not seen.
"""

from papertopics.artifacts import save_embeddings
from papertopics.embed import ENCODER_KEYS, embed_texts
from papertopics.embed.user_cache import cache_root
from papertopics.runtime.scripting import script_run
from papertopics.topics.names.phrases import NameIndex

p = snakemake.params
cache = cache_root(p.cache_dir)
with script_run(snakemake, writes=[cache]) as log:
    phrases = NameIndex.load(snakemake.input.names).nameable(p.limit)
    vectors, stats = embed_texts(
        phrases,
        **{key: getattr(p, key) for key in ENCODER_KEYS},
        threads=snakemake.threads,
        cache_dir=cache,  # a name embedded once is reused, as abstracts are (issue 67)
        log=log,
    )
    save_embeddings(snakemake.output.phrases, phrases, vectors)
    log.info("%d candidate names embedded in %.1f s", len(phrases), stats["seconds"])
