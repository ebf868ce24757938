"""The analyses and the tables each writes: one list that describe_topics (analyses.describe),
write_workbook and render_report read. A new analysis is one `Analysis` entry: its function
("module:function", (documents, topics) -> {table: DataFrame}; with `context`, also the job's
term counts, name index and settings as keywords) and its tables, each a file under
results/topics/ and, where a spreadsheet user wants it, a workbook sheet. Light to import:
analyses.smk and report.smk read it while the Snakefile is parsed, so the functions are named and
imported only when the job runs (as report/registry.py does)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module

__all__ = ["ANALYSES", "Analysis", "Table", "table_outputs", "tables"]
NO_AFFILIATIONS = "the listing has no affiliations or corresponding addresses"


@dataclass(frozen=True)
class Table:
    name: str  # the rule's input/output name (render_report's ReportInputs.described key)
    file: str  # under results/topics/
    sheet: str = ""  # the workbook's sheet; "" for none
    numbers: tuple[str, ...] = ()  # columns typed as numbers in the sheet


@dataclass(frozen=True)
class Analysis:
    name: str
    function: str | Callable  # "module:function": (documents, topics) -> {table name: DataFrame}
    tables: tuple[Table, ...]
    # tables of the analyses before it this analysis adds its rows to: {name: file}
    extends: tuple[tuple[str, str], ...] = ()
    # the function also takes the job's context as keywords (analyses.describe: documents' path,
    # term counts and terms, name index, c-TF-IDF and thematic settings)
    context: bool = False
    absent: str = ""  # why its tables can be header only: said in one log line when they are

    def run(self, documents, topics, **context) -> dict:
        function = self.function
        if isinstance(function, str):
            module, _, name = function.partition(":")
            function = getattr(import_module(module), name)
        return function(documents, topics, **context) if self.context else function(documents, topics)


# In the order the job runs them and the workbook shows their sheets
ANALYSES: list[Analysis] = [
    Analysis(  # analyses.over_time, analyses.trends: shares per period, rising and falling topics
        "over_time",
        "papertopics.analyses.describe:period_tables",
        (
            Table("over_time", "over_time.csv", "over time"),
            Table("trends", "topic_trends.csv", "trends"),
        ),
        context=True,
    ),
    Analysis(  # analyses.sources, analyses.authors: top venues and authors, the listing's authors
        "sources",
        "papertopics.analyses.describe:source_tables",
        (
            Table("sources", "topic_sources.csv", "venues and authors"),
            Table("authors", "authors.csv", "authors"),  # most papers first
        ),
    ),
    Analysis(  # analyses.thematic: Callon's centrality x density of each topic's keyword network
        "thematic",
        "papertopics.analyses.describe:thematic_tables",
        (Table("thematic", "thematic_map.csv", "thematic map"),),
        context=True,
    ),
    Analysis(  # analyses.citations: header only without cited_by
        "citations",
        "papertopics.analyses.describe:citation_tables",
        (
            Table("citations", "topic_citations.csv", "citations"),
            Table("most_cited", "most_cited.csv", "most cited"),
        ),
        context=True,
    ),
    Analysis(
        "main_information",
        "papertopics.analyses.main_information:main_information_tables",
        (Table("main_information", "main_information.csv", "main information"),),
        absent=NO_AFFILIATIONS,
    ),
    Analysis(
        "countries",
        "papertopics.analyses.countries:countries_tables",
        (
            Table(
                "countries",
                "countries.csv",
                "countries",
                ("papers", "corresponding", "scp", "mcp", "mcp_ratio", "share"),
            ),
        ),
        extends=(("sources", "topic_sources.csv"),),  # each topic's countries: rows field = country
        absent=NO_AFFILIATIONS,
    ),
]


def tables() -> list[Table]:
    """Every analysis's tables, in ANALYSES' order."""
    return [table for analysis in ANALYSES for table in analysis.tables]


def table_outputs(folder: str = "results/topics") -> dict[str, str]:
    """{table name: path}, as describe_topics names its outputs and its readers their inputs."""
    return {table.name: f"{folder}/{table.file}" for table in tables()}
