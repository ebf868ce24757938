"""write_workbook: topics.csv and document_topics.csv -> results/topics/topics.xlsx.

Inputs: results/topics/topics.csv, document_topics.csv, pinned.csv, and describe_topics' tables
(analyses/registry.py: over_time.csv, topic_trends.csv, topic_sources.csv, authors.csv,
thematic_map.csv, topic_citations.csv, most_cited.csv, main_information.csv, countries.csv),
results/corpus/filters.csv and corpus_stats.json (the `data` sheet: each field's
column per listing and notes, papertopics.report.provenance).
Outputs: results/topics/topics.xlsx (sheets `topics` and `documents`, and `pinned` when config.yaml
pins topics; a sheet of each of describe_topics' tables the listing has: over time, trends,
venues and authors, thematic map, main information, countries...; papertopics.report.workbook).
"""

from papertopics.analyses.registry import table_outputs
from papertopics.artifacts import read_json
from papertopics.report.provenance import data_table
from papertopics.report.workbook import (
    described_sheets,
    filters_sheet,
    pinned_sheet,
    read_tables,
    workbook_sheets,
    write_workbook,
)
from papertopics.runtime.scripting import script_run

with script_run(snakemake) as log:
    topics, documents = read_tables(snakemake.input.topics, snakemake.input.documents)
    sheets = workbook_sheets(topics, documents)
    pinned = pinned_sheet(snakemake.input.pinned)  # topics.pinned: one sheet, a topic column
    if len(pinned):
        sheets["pinned"] = pinned
    sheets.update(described_sheets({name: getattr(snakemake.input, name, "") for name in table_outputs()}))
    counts = filters_sheet(snakemake.input.filters)  # config.yaml's filters: what each left out
    if len(counts):
        sheets["filters"] = counts
    sheets["data"] = data_table(documents, read_json(snakemake.input.corpus_stats))  # report.provenance
    write_workbook(snakemake.output.workbook, sheets)
    log.info(
        "%s: %d topics, %d documents",
        snakemake.output.workbook,
        len(sheets["topics"]),
        len(sheets["documents"]),
    )
