"""The listing-wide analyses of a bibliometric study, each in its own module beside topics/:
what the listing's records say as a whole and per topic, from the canonical columns of
ingest/columns.py and the documents' topics (document_topics.csv).

- `main_information`: bibliometrix's "Main information" table (main_information.csv);
- `countries`: each paper's countries from its affiliations and its corresponding author's
  country; papers per country with SCP/MCP (countries.csv), and each topic's countries (rows
  `field = country` of topic_sources.csv).

`registry.ANALYSES` is the one list of them: describe_topics (analyses.describe) writes each
analysis's tables, write_workbook makes a sheet of each, render_report reads them by name, as
the report's pages come from report/registry.py. The analyses still in topics/ (over time,
trends, sources, thematic map, citations) are to move here; until then analyses.describe runs
topics.describe's tables first.
"""
