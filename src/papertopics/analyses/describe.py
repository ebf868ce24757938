"""Rule describe_topics: the tables topics/ still writes (topics.describe: over time, trends,
venues and authors, thematic map, citations), then every analysis of analyses.registry: its
tables (main_information.csv, countries.csv) and the rows it adds to topics/' tables (each
topic's countries in topic_sources.csv). A listing without the columns an analysis reads gets
its tables with their header only (main information: the figures it has), and one log line
says which were left out.
"""

from __future__ import annotations

import pandas as pd

from papertopics.analyses.registry import ANALYSES
from papertopics.topics.describe import describe_topics_job as describe_topic_tables
from papertopics.topics.describe import read_text_table


def describe_topics_job(job, log) -> None:
    """Inputs: as topics.describe.describe_topics_job (document_topics.csv, topics.csv, term
    counts, name index). Outputs: its tables, and every table of analyses.registry.ANALYSES
    under its name (main_information, countries)."""
    describe_topic_tables(job, log)
    i, out = job.input, job.output
    documents, topics = read_text_table(i.documents), read_text_table(i.topics)
    empty = []
    for analysis in ANALYSES:
        written = analysis.run(documents, topics)
        for table in analysis.tables:
            frame = written[table.name]
            frame.to_csv(getattr(out, table.name), index=False)
            if frame.empty:
                empty.append(table.file)
        for name, _ in analysis.extends:
            rows = written.get(name)
            if rows is None or rows.empty:
                continue  # the table as topics/ wrote it, byte for byte
            path = getattr(out, name)
            pd.concat([read_text_table(path), rows.astype(str)], ignore_index=True).to_csv(path, index=False)
    if empty:
        log.info("no %s: the listing has no affiliations or corresponding addresses", ", ".join(empty))
