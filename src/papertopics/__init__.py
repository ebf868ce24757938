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


def lazy_exports(package: str, names: dict[str, str]):
    """(__getattr__, __dir__) for a package whose public names load their module on first use:
    `names` maps each name to its module, relative to `package`. Keeps every package's import as
    light as its lightest module (report.smk reads report.registry while the Snakefile is parsed;
    advance_history's job imports only the stdlib)."""

    def __getattr__(name: str):
        if name in names:
            return getattr(import_module(f"{package}.{names[name]}"), name)
        raise AttributeError(f"module {package!r} has no attribute {name!r}")

    def __dir__():
        return sorted({*names, *vars(import_module(package))})

    return __getattr__, __dir__


__getattr__, __dir__ = lazy_exports(
    "papertopics",
    {
        "ListingSpec": "ingest.listings",
        "read_listing": "ingest.listings",
        "build_corpus": "ingest.corpus",
        "embed_texts": "embed.encode",
        "default_config": "config",
        "model_topics": "pipeline",
        "render_report": "report.render",
        "PapertopicsError": "errors",
        "load": "results",
        "Results": "results",
    },
)
__all__ = [
    "__version__",
    "ListingSpec",
    "PapertopicsError",
    "Results",
    "build_corpus",
    "default_config",
    "embed_texts",
    "load",
    "model_topics",
    "read_listing",
    "render_report",
]
