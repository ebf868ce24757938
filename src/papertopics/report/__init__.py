"""The HTML report: static pages built with Plotly, opened offline from a folder.

One concept per module, like BERTopic's plotting package: every `visualize_*` function takes
tables or topic vectors and returns a plotly figure; `html` turns figures and tables into
HTML; `render` writes the folder. Nothing here imports bertopic or umap (9 s and 13 s per
process): the saved model is read directly from its safetensors/JSON files (`model_files`).

The pages and files are listed once, in `registry` (name, title, builder or figure; the
script's parts): report.smk, the navigation and render_report read it. Importing this package
imports neither plotly nor the pages: the names below load on first use, so report.smk can
read the registry while the Snakefile is parsed.
"""

from papertopics import lazy_exports

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "ReportInputs": "inputs",
        "read_inputs": "inputs",
        "link_folder": "pack",
        "render_report": "render",
        "write_report": "render",
        "PAGES": "registry",
        "ReportPage": "registry",
    },
)
__all__ = [
    "PAGES",
    "ReportInputs",
    "ReportPage",
    "link_folder",
    "read_inputs",
    "render_report",
    "write_report",
]
