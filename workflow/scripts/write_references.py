"""write_references: the analysed papers, each tagged with its topic, for a reference manager.

Inputs: results/corpus/corpus.parquet (the papers as read), results/topics/document_topics.csv
(each paper's topic). Outputs: results/topics/papers_by_topic.ris and papers_by_topic.bib
(papertopics.report.references).
"""

import pandas as pd

from papertopics.report.references import reference_records, write_bibtex, write_ris
from papertopics.runtime.scripting import script_run

with script_run(snakemake) as log:
    records = reference_records(
        pd.read_parquet(snakemake.input.corpus),
        pd.read_csv(snakemake.input.documents, dtype=str, keep_default_na=False, na_values=[]),
    )
    write_ris(snakemake.output.ris, records)
    write_bibtex(snakemake.output.bib, records)
    log.info(
        "%s, %s: %d papers tagged with their topic", snakemake.output.ris, snakemake.output.bib, len(records)
    )
