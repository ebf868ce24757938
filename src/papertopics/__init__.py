"""papertopics: topic maps for listings of paper abstracts.

The package is laid out as the workflow's DAG, one subpackage per stage (ingest, embed, reduce,
cluster, topics, evaluate, report) and the workflow's runtime last; each imports only the stages
before it (tests/test_architecture.py). `import papertopics` stays light: the names below load
their stage on first use.

    frame = papertopics.read_listing(papertopics.ListingSpec("neurips", Path("neurips.jsonl")))
    texts = frame["text"].tolist()
    vectors, _ = papertopics.embed_texts(texts)
    run = papertopics.model_topics(texts, vectors, papertopics.default_config())

`papertopics.load(folder)` reads a finished corpus folder's results in a notebook
(papertopics.results, docs/notebook.ipynb); the `papertopics` command is papertopics.runtime.cli.
"""

from importlib import import_module

__version__ = "0.1.0"

# name -> module it comes from, imported when first used
_PUBLIC = {
    "ListingSpec": "papertopics.ingest.listings",
    "read_listing": "papertopics.ingest.listings",
    "build_corpus": "papertopics.ingest.corpus",
    "embed_texts": "papertopics.embed.encode",
    "default_config": "papertopics.config",
    "model_topics": "papertopics.pipeline",
    "render_report": "papertopics.report.render",
    "PapertopicsError": "papertopics.errors",
    "load": "papertopics.results",
    "Results": "papertopics.results",
}

__all__ = ["__version__", *_PUBLIC]


def __getattr__(name: str):
    if name in _PUBLIC:
        return getattr(import_module(_PUBLIC[name]), name)
    raise AttributeError(f"module 'papertopics' has no attribute {name!r}")


def __dir__():
    return sorted([*globals(), *_PUBLIC])
