"""The report's pages: one list of (name, title, builder) that every reader of pages reads.

report.smk takes the page outputs from `page_outputs()`, every page's navigation bar is
`navigation()`, render_report writes `PAGES` in this order with each page's builder. A new page
is one builder function (ReportInputs -> HTML) and one `register_page` call. Light to import:
report.smk reads it while the Snakefile is parsed, so builders are named "module:function" and
imported only when the report is rendered.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module


@dataclass(frozen=True)
class ReportPage:
    name: str  # results/report/<name>.html
    title: str  # its label in the navigation bar
    builder: str | Callable  # "module:function" or the function: ReportInputs -> the page's HTML

    def build(self, inputs) -> str:
        builder = self.builder
        if isinstance(builder, str):
            module, _, function = builder.partition(":")
            builder = getattr(import_module(module), function)
        return builder(inputs)


_RENDER = "papertopics.report.render"
PAGES: list[ReportPage] = [
    ReportPage("index", "Overview", f"{_RENDER}:index_page"),
    ReportPage("documents", "Document map", f"{_RENDER}:documents_page"),
    ReportPage("listings", "Listings", f"{_RENDER}:listings_page"),
    ReportPage("changes", "What changed", f"{_RENDER}:changes_page"),
    ReportPage("intertopic", "Intertopic map", f"{_RENDER}:intertopic_page"),
    ReportPage("barchart", "Keywords", f"{_RENDER}:barchart_page"),
    ReportPage("hierarchy", "Hierarchy", f"{_RENDER}:hierarchy_page"),
    ReportPage("heatmap", "Similarity", f"{_RENDER}:heatmap_page"),
]


def register_page(page: ReportPage) -> ReportPage:
    """Add a page (last in the navigation); a page of the same name is replaced in place."""
    names = page_names()
    if page.name in names:
        PAGES[names.index(page.name)] = page
    else:
        PAGES.append(page)
    return page


def page_names() -> list[str]:
    return [page.name for page in PAGES]


def page_outputs(folder: str = "results/report") -> list[str]:
    """The files render_report writes for the pages, as report.smk names its outputs."""
    return [f"{folder}/{page.name}.html" for page in PAGES]


def navigation() -> list[tuple[str, str]]:
    """(name, title) of every page, in the navigation bar's order."""
    return [(page.name, page.title) for page in PAGES]
