"""The HTML report: static pages built with Plotly, opened offline from a folder.

One concept per module, like BERTopic's plotting package: every `visualize_*` function takes
tables or topic vectors and returns a plotly figure; `pages` turns figures and tables into
HTML; `render` writes the folder. Nothing here imports bertopic or umap (9 s and 13 s per
process): the saved model is read directly from its safetensors/JSON files (`model_files`).

The pages are listed once, in `registry` (name, title, builder): report.smk, the navigation and
render_report read it. Importing this package imports neither plotly nor the pages: the names
below load on first use, so report.smk can read the registry while the Snakefile is parsed.
"""

from importlib import import_module

_PUBLIC = {
    "ReportInputs": "papertopics.report.inputs",
    "read_inputs": "papertopics.report.inputs",
    "link_folder": "papertopics.report.render",
    "render_report": "papertopics.report.render",
    "write_report": "papertopics.report.render",
    "PAGES": "papertopics.report.registry",
    "ReportPage": "papertopics.report.registry",
    "register_page": "papertopics.report.registry",
}

__all__ = sorted(_PUBLIC)


def __getattr__(name: str):
    if name in _PUBLIC:
        return getattr(import_module(_PUBLIC[name]), name)
    raise AttributeError(f"module 'papertopics.report' has no attribute {name!r}")
