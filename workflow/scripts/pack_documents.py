"""pack_documents: the document map's data files for the corpus -> results/report_data/.

Inputs: corpus.parquet, neighbours.csv. Outputs: results/report_data/data/ (headlines.js, docs-<k>.js:
every document's headline, id, abstract, metadata and similar papers, Brotli-packed) and
documents.json. They depend on the corpus and its neighbours, not on the topics: a re-cluster or a
report tweak links them into results/report/data/ instead of compressing the abstracts again.
"""

import time

import pandas as pd

from papertopics.report.inputs import read_table
from papertopics.report.pack import pack_documents
from papertopics.runtime.scripting import script_run
from papertopics.topics.representation import reading_table

with script_run(snakemake) as log:
    started = time.perf_counter()
    readable = reading_table(pd.read_parquet(snakemake.input.corpus))
    written = pack_documents(
        readable,
        read_table(snakemake.input.neighbours),
        snakemake.output.packed,
        threads=snakemake.threads,
    )
    log.info(
        "packed %d documents into %d files, %.2f MB, in %.1f s",
        len(readable),
        len(written),
        sum(path.stat().st_size for path in written) / 1e6,
        time.perf_counter() - started,
    )
