"""papertopics: topic maps for listings of paper abstracts.

`papertopics.load(folder)` reads a finished corpus folder's results in a notebook
(papertopics.results); the `papertopics` command is papertopics.cli.
"""

__version__ = "0.1.0"


def __getattr__(name: str):
    # lazily: the Snakefile imports papertopics on every start, and results needs pandas
    if name in ("load", "Results"):
        from papertopics import results

        return getattr(results, name)
    raise AttributeError(f"module 'papertopics' has no attribute {name!r}")
