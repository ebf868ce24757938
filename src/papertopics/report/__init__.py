"""The HTML report: static pages built with Plotly, opened offline from a folder.

One concept per module, like BERTopic's plotting package: every `visualize_*` function takes
tables or topic vectors and returns a plotly figure; `pages` turns figures and tables into
HTML; `render` writes the folder. Nothing here imports bertopic or umap (9 s and 13 s per
process): the saved model is read directly from its safetensors/JSON files (`model_files`).
"""

from papertopics.report.inputs import ReportInputs, read_inputs
from papertopics.report.render import PAGES, link_folder, render_report

__all__ = ["PAGES", "ReportInputs", "link_folder", "read_inputs", "render_report"]
