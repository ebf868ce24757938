"""Embedding stage (rules embed_shard, gather_embeddings, find_neighbours): cleaned abstracts ->
L2-normalised float32 vectors, and each document's nearest documents (`neighbours`).

Two things make re-runs cheap: a content-keyed cache (an abstract embedded once, under any
listing, is never embedded again with the same model and settings) and a default backend
(OpenVINO on x86-64: a bf16 hint on CPUs with native bf16, >2x plain fp32 sentence-transformers
at cosine ~0.9999 to it; fp32 elsewhere, ~1.2x; torch on ARM and where OpenVINO cannot run;
papertopics.embed.cpu decides). See bench/README.md for the measurements.

Cache layout under `cache_dir` (the pipeline uses the per-user folder of
papertopics.embed.user_cache, shared by every corpus folder):

    model-ids.json                     model folder -> content hash, memoised by file size+mtime
    openvino/<model-id>-ov<version>-<libraries>/   converted IR (model.xml, model.bin), fp32 weights
    vectors/<backend>-<precision>-<device>-seq<N>-<hash>/
        meta.json                      what the hash stands for (model id, seq length, library versions, ...)
        chunk-<ns>-<pid>-<n>.parquet   key (sha256 of the exact text) + vector, append-only
        pack-<ns>-<pid>.parquet        many chunks merged once they pile up

Chunks are written to a hidden temp file and renamed, every `cache_flush_docs` vectors or
`cache_flush_seconds`, so `kill -9` loses at most the vectors since the last chunk and never
leaves a torn file. Every backend runs batches of one fixed shape per length bucket (token
length rounded up to a multiple of 32, padded under a zero attention mask; short batches filled
with the empty text up to batch_size rows: papertopics.embed.encode), which makes each vector
independent of its batch-mates and of how many batches a corpus made (tested bit-identical on
CPU for every backend and precision at every instruction-set level CI runs, docs/cpus.md; not
measured on CUDA): cached vectors are the bits a fresh run computes, so topics do not depend on
what the shared cache held, and a resumed run gives the same output.
"""

from papertopics import lazy_exports

# The settings a vector depends on (config.yaml's embedding section, minus where it is cached and
# how many threads compute it): an embedding shard records them, the gather refuses a mismatch.
SETTING_KEYS = ("shard_size", "model", "backend", "precision", "device", "batch_size", "max_seq_length")
# Those of them embed_texts takes (the shard size only splits the corpus).
ENCODER_KEYS = tuple(key for key in SETTING_KEYS if key != "shard_size")

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "BACKENDS": "model",
        "DEFAULT_MODEL": "model",
        "PRECISIONS": "model",
        "embed_texts": "encode",
        "model_identity": "model",
        "resolve_backend": "model",
        "resolve_model_path": "model",
    },
)
__all__ = [
    "SETTING_KEYS",
    "ENCODER_KEYS",
    "BACKENDS",
    "DEFAULT_MODEL",
    "PRECISIONS",
    "embed_texts",
    "model_identity",
    "resolve_backend",
    "resolve_model_path",
]
