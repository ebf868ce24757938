"""The analyses and the tables each writes: one list that describe_topics (analyses.describe),
write_workbook and render_report read. A new analysis is one `Analysis` entry: its function
("module:function", (documents, topics) -> {table: DataFrame}) and its tables, each a file under
results/topics/ and, where a spreadsheet user wants it, a workbook sheet. Light to import:
topics.smk and report.smk read it while the Snakefile is parsed, so the functions are named and
imported only when the job runs (as report/registry.py does)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from importlib import import_module

__all__ = ["ANALYSES", "Analysis", "Table", "table_outputs", "tables"]


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
    # describe_topics' tables (topics/) this analysis adds its rows to: {name: file}
    extends: tuple[tuple[str, str], ...] = ()

    def run(self, documents, topics) -> dict:
        function = self.function
        if isinstance(function, str):
            module, _, name = function.partition(":")
            function = getattr(import_module(module), name)
        return function(documents, topics)


ANALYSES: list[Analysis] = [
    Analysis(
        "main_information",
        "papertopics.analyses.main_information:main_information_tables",
        (Table("main_information", "main_information.csv", "main information"),),
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
    ),
]


def tables() -> list[Table]:
    """Every analysis's tables, in ANALYSES' order."""
    return [table for analysis in ANALYSES for table in analysis.tables]


def table_outputs(folder: str = "results/topics") -> dict[str, str]:
    """{table name: path}, as describe_topics names its outputs and its readers their inputs."""
    return {table.name: f"{folder}/{table.file}" for table in tables()}
