"""HTML pages: Jinja templates with autoescape, data embedded as JSON that no parser runs.

Safety rules every page follows:
- listing text reaches HTML only through Jinja's autoescape (`{{ value }}`), never `|safe`;
- data for scripts sits in `<script type="application/json">`, serialised by `script_json`,
  which writes `<`, `>` and `&` as `\\u003c`..., so no `</script>` or `<!--` can end it; the
  page script reads it with `JSON.parse(el.textContent)` and writes text with `textContent`;
- text drawn by Plotly is escaped by `text.plotly_text` (Plotly parses tags in its strings);
- a Content-Security-Policy allows scripts only from files beside the page (no inline
  script runs, nothing is fetched from the network).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import plotly.graph_objects as go
import plotly.io as pio
from markupsafe import Markup

from papertopics import __version__
from papertopics.constants import OUTLIER_COLOR, OUTLIER_LABEL
from papertopics.report.registry import navigation

TEMPLATES = Path(__file__).parent / "templates"

# A constant (no listing text in it), so it is written as is. 'unsafe-eval': Plotly's WebGL
# engine (regl, for scattergl) compiles its draw calls with `new Function`; without it the
# document map of a large corpus shows "WebGL is not supported". No inline script may run.
CSP = Markup(
    "default-src 'none'; script-src 'self' 'unsafe-eval'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data: blob:; font-src 'self' data:; connect-src 'none'; "
    "base-uri 'none'; form-action 'none'"
)

_JSON_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}


def escape_script_json(text: str) -> str:
    """JSON text made safe inside <script>: no `</script>`, `<!--` or `]]>` can appear."""
    for char, escaped in _JSON_ESCAPES.items():
        text = text.replace(char, escaped)
    return text


def script_json(value) -> Markup:
    """A value serialised for `<script type="application/json">` (NaN is not JSON: refused)."""
    return Markup(
        escape_script_json(json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False))
    )


def figure_json(figure: go.Figure) -> str:
    """Plotly's own JSON encoder (numpy arrays, dates), compact; escape with escape_script_json."""
    return pio.to_json(figure, validate=False, pretty=False, remove_uids=True)


def page_data(figure: go.Figure | None = None, **values) -> Markup:
    """{"figure": ..., **values} as one escaped JSON text (the figure encoded by Plotly)."""
    parts = []
    if figure is not None:
        parts.append('"figure":' + figure_json(figure))
    for key, value in values.items():
        parts.append(
            json.dumps(key)
            + ":"
            + json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
        )
    return Markup(escape_script_json("{" + ",".join(parts) + "}"))


@lru_cache(maxsize=1)
def environment():
    from jinja2 import Environment, FileSystemLoader, StrictUndefined

    return Environment(
        loader=FileSystemLoader(str(TEMPLATES)),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=False,
        lstrip_blocks=False,
        keep_trailing_newline=True,
        bytecode_cache=_template_cache(),
    )


def _template_cache():
    """The pages' templates compiled once into the per-user cache (jinja/), not in every report
    job (~0.25 s of a report tweak). Jinja keys each entry by the template's source and its own
    and Python's versions; a folder that cannot be written means compiling each time."""
    from jinja2 import FileSystemBytecodeCache

    from papertopics.embed.user_cache import cache_root

    class TemplateCache(FileSystemBytecodeCache):
        def dump_bytecode(self, bucket) -> None:
            try:
                super().dump_bytecode(bucket)
            except OSError:  # read-only or full: the template was compiled all the same
                pass

    folder = cache_root() / "jinja"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return TemplateCache(str(folder))


def render_page(
    template: str,
    *,
    page: str,
    page_title: str,
    report_title: str,
    footer: str,
    data_json: Markup | None = None,
    uses_plotly: bool = True,
    **context,
) -> str:
    return (
        environment()
        .get_template(template)
        .render(
            page=page,
            page_title=page_title,
            report_title=report_title,
            nav=navigation(),
            csp=CSP,
            version=__version__,
            footer=footer,
            data_json=data_json,
            uses_plotly=uses_plotly,
            outlier_label=OUTLIER_LABEL,
            outlier_color=OUTLIER_COLOR,
            **context,
        )
    )


def page_footer(inputs) -> str:
    """Every page's footer: what the report holds (report.inputs.ReportInputs)."""
    return (
        f"papertopics · {len(inputs.documents):,} documents from {len(inputs.listings)} listing(s) · "
        "every file of this report is local: it opens offline"
    )
