"""write_workbook: topics.csv and document_topics.csv -> results/topics/topics.xlsx.

Inputs: results/topics/topics.csv, document_topics.csv, pinned.csv.
Outputs: results/topics/topics.xlsx (sheets `topics` and `documents`, and `pinned` when config.yaml
pins topics; papertopics.report.workbook).
"""

from papertopics.report.pinned import pinned_sheet
from papertopics.report.workbook import read_tables, workbook_sheets, write_workbook
from papertopics.runtime.scripting import script_run

with script_run(snakemake) as log:
    sheets = workbook_sheets(*read_tables(snakemake.input.topics, snakemake.input.documents))
    pinned = pinned_sheet(snakemake.input.pinned)  # topics.pinned: one sheet, a topic column
    if len(pinned):
        sheets["pinned"] = pinned
    write_workbook(snakemake.output.workbook, sheets)
    log.info(
        "%s: %d topics, %d documents",
        snakemake.output.workbook,
        len(sheets["topics"]),
        len(sheets["documents"]),
    )
