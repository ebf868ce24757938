"""The listing-wide analyses of a bibliometric study, each in its own module beside topics/:
what the listing's records say as a whole and per topic, from the canonical columns of
ingest/columns.py and the documents' topics (document_topics.csv).

- `over_time`, `trends`: each topic's share per period, its trend (statsmodels' binomial GLM),
  each period's top terms (over_time.csv, topic_trends.csv);
- `sources`, `authors`: each topic's top venues and authors, the listing's authors, one person
  per key (topic_sources.csv, authors.csv);
- `thematic`: the thematic map, Callon's centrality x density of each topic's keywords
  (thematic_map.csv);
- `citations`: each topic's citations and the most-cited papers (topic_citations.csv,
  most_cited.csv);
- `main_information`: bibliometrix's "Main information" table (main_information.csv);
- `countries`: each paper's countries from its affiliations and its corresponding author's
  country; papers per country with SCP/MCP (countries.csv), and each topic's countries (rows
  `field = country` of topic_sources.csv).

`registry.ANALYSES` is the one list of them and their tables: describe_topics
(analyses.describe) writes each analysis's tables, write_workbook makes a sheet of each,
render_report reads them by name, as the report's pages come from report/registry.py.
"""
