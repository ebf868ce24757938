"""The report's pages and files: one list of each that every reader reads.

report.smk takes its outputs from `page_outputs()` and `asset_outputs()`, every page's
navigation bar is `navigation()`, render_report writes `PAGES` in this order with each page's
builder and `ASSETS` beside them. A new page is one `ReportPage` entry in `PAGES`: a builder
function (ReportInputs -> HTML), or for a page that shows one figure, a `FigurePage` (heading,
introduction and the figure's function) that `render.figure_page` turns into the page. Light to
import: report.smk reads it while the Snakefile is parsed, so functions are named
"module:function" and imported only when the report is rendered.
"""

from __future__ import annotations

from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from importlib import import_module


def resolve(function: str | Callable) -> Callable:
    """A "module:function" name (or a function) as the function."""
    if isinstance(function, str):
        module, _, name = function.partition(":")
        return getattr(import_module(module), name)
    return function


@dataclass(frozen=True)
class FigurePage:
    """A page that shows one figure: `figure(inputs.topics, inputs.vectors, **{keyword:
    inputs.<field>})` under a heading and an introduction, whose `{basis}` is what the topic
    similarities are computed from (TopicVectors.similarity_basis)."""

    heading: str
    intro: str
    figure: str | Callable  # "module:function" or the function: (topics, vectors, ...) -> a plotly figure
    inputs: tuple[tuple[str, str], ...] = ()  # (keyword, ReportInputs field) passed besides


@dataclass(frozen=True)
class ReportPage:
    name: str  # results/report/<name>.html
    title: str  # its label in the navigation bar
    # "module:function" or the function: ReportInputs -> the page's HTML; for a figure page,
    # (ReportInputs, ReportPage) -> HTML (render.figure_page)
    builder: str | Callable = "papertopics.report.render:figure_page"
    figure: FigurePage | None = None
    # "module:function" (ReportInputs -> bool): whether the listing has what the page shows; a
    # page that has nothing to show is still written (a line saying so) but left out of the
    # navigation bar. None: always shown.
    shown: str | Callable | None = None

    def is_shown(self, inputs) -> bool:
        return self.shown is None or bool(resolve(self.shown)(inputs))

    def build(self, inputs) -> str:
        builder = resolve(self.builder)
        return builder(inputs, self) if self.figure is not None else builder(inputs)


_RENDER = "papertopics.report.render"
PAGES: list[ReportPage] = [
    ReportPage("index", "Overview", f"{_RENDER}:index_page"),
    ReportPage("documents", "Document map", f"{_RENDER}:documents_page"),
    ReportPage("listings", "Listings", f"{_RENDER}:listings_page"),
    ReportPage("changes", "What changed", f"{_RENDER}:changes_page"),
    ReportPage(
        "intertopic",
        "Intertopic map",
        figure=FigurePage(
            "Intertopic distance map",
            "Each bubble is a topic, its area proportional to its documents; topics are placed by classical "
            "multidimensional scaling of the cosine distances between their {basis}, so near bubbles are "
            "similar topics. Hover for the top terms.",
            "papertopics.report.intertopic:visualize_intertopic",
        ),
    ),
    ReportPage(
        "barchart",
        "Keywords",
        figure=FigurePage(
            "Topic keywords",
            "The terms that set each topic apart (class-based TF-IDF, as BERTopic computes it), best first.",
            "papertopics.report.barchart:visualize_barchart",
        ),
    ),
    ReportPage(
        "hierarchy",
        "Hierarchy",
        figure=FigurePage(
            "Topic hierarchy",
            "Topics merged step by step, the closest pair first (average linkage on cosine distances of "
            "the {basis}). Each joint is named after the phrase its papers share; "
            "hover it to see the topics it joins.",
            "papertopics.report.dendrogram:visualize_hierarchy",
            inputs=(("merges", "hierarchy"),),
        ),
    ),
    ReportPage(
        "heatmap",
        "Similarity",
        figure=FigurePage(
            "Topic similarity",
            "Cosine similarity between every pair of topics ({basis}), rows in the "
            "hierarchy's order so groups of related topics form blocks.",
            "papertopics.report.heatmap:visualize_heatmap",
        ),
    ),
    ReportPage("pinned", "Pinned", "papertopics.report.pinned:pinned_page"),  # topics.pinned
    # from the listing's own dates and the topics' links (describe_topics; report.described)
    ReportPage(
        "timeline",
        "Over time",
        "papertopics.report.described:over_time_page",
        shown="papertopics.report.described:has_over_time",
    ),
    ReportPage(
        "thematic",
        "Thematic map",
        "papertopics.report.thematic:thematic_page",
        shown="papertopics.report.thematic:has_thematic_map",
    ),
    # the authors' countries (analyses.countries; describe_topics' countries.csv)
    ReportPage(
        "countries",
        "Countries",
        "papertopics.report.countries:countries_page",
        shown="papertopics.report.countries:has_countries",
    ),
    # per field, the column of each listing it came from and what became of its values
    ReportPage("fields", "Data", "papertopics.report.data_page:data_page"),
]
# the pages render_report leaves out of the navigation bar (ReportPage.shown), while it renders
HIDDEN: ContextVar[frozenset[str]] = ContextVar("hidden_pages", default=frozenset())

# The report's script: one file per feature in assets/scripts/, each adding its part to one
# namespace (window.papertopicsReport), joined in this order into report.js; start.js, last,
# runs the page. The files copied beside the pages (plotly.min.js besides, from plotly itself).
SCRIPTS = (
    "plot.js",
    "loading.js",
    "topics.js",
    "labels.js",
    "search.js",
    "panel.js",
    "fields.js",
    "map.js",
    "downloads.js",
    "start.js",
)
ASSETS = ("report.css", "report.js", "brotli-decode.min.js")


def page_names() -> list[str]:
    return [page.name for page in PAGES]


def page_outputs(folder: str = "results/report") -> list[str]:
    """The files render_report writes for the pages, as report.smk names its outputs."""
    return [f"{folder}/{page.name}.html" for page in PAGES]


def asset_outputs(folder: str = "results/report") -> list[str]:
    """The script, stylesheet and decoder render_report writes beside the pages."""
    return [f"{folder}/{name}" for name in ASSETS]


def navigation() -> list[tuple[str, str]]:
    """(name, title) of every page shown, in the navigation bar's order."""
    hidden = HIDDEN.get()
    return [(page.name, page.title) for page in PAGES if page.name not in hidden]
