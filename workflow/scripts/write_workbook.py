"""write_workbook: topics.csv and document_topics.csv -> results/topics/topics.xlsx.

Inputs: results/topics/topics.csv, document_topics.csv.
Outputs: results/topics/topics.xlsx (sheets `topics` and `documents`; papertopics.report.workbook).
"""

from papertopics.report.workbook import read_tables, workbook_sheets, write_workbook
from papertopics.runtime.scripting import script_run

with script_run(snakemake) as log:
    sheets = workbook_sheets(*read_tables(snakemake.input.topics, snakemake.input.documents))
    write_workbook(snakemake.output.workbook, sheets)
    log.info("%s: %d topics, %d documents", snakemake.output.workbook, *map(len, sheets.values()))
