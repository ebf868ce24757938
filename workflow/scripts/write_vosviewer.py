"""write_vosviewer: the topics' keyword network and the document map as VOSviewer files.

Inputs: results/topics/document_topics.csv, topics.csv, results/reduce/map2d.parquet,
results/topics/neighbours.csv, results/corpus/name_index.pkl (the keywords folded as the thematic
map folds them). Outputs: results/report/vosviewer/ (keywords_map.txt and keywords_network.txt
where the listing has authors' keywords; documents_map.txt, documents_network.txt;
papertopics.report.vosviewer).
"""

from pathlib import Path

import pandas as pd

from papertopics.report.vosviewer import document_map, vosviewer_files, write_map, write_network
from papertopics.report.vosviewer_keywords import keyword_network
from papertopics.runtime.scripting import script_run
from papertopics.topics.names.index import NameIndex


def read(path):
    return pd.read_csv(path, dtype=str, keep_default_na=False, na_values=[])


with script_run(snakemake) as log:
    folder = Path(snakemake.output.folder)
    folder.mkdir(parents=True, exist_ok=True)
    documents, topics = read(snakemake.input.documents), read(snakemake.input.topics)
    items, links = document_map(
        documents, topics, pd.read_parquet(snakemake.input.map2d), read(snakemake.input.neighbours)
    )
    write_map(folder / "documents_map.txt", items)
    write_network(folder / "documents_network.txt", links)
    log.info("%s: %d papers, %d links", folder / "documents_map.txt", len(items), len(links))
    if "keywords_map.txt" in vosviewer_files(documents):
        settings = dict(snakemake.params.thematic)
        index = NameIndex.load(snakemake.input.names)
        items, links = keyword_network(
            documents, topics, index, keywords=settings["keywords"], min_papers=settings["min_papers"]
        )
        write_map(folder / "keywords_map.txt", items)
        write_network(folder / "keywords_network.txt", links)
        log.info("%s: %d keywords, %d links", folder / "keywords_map.txt", len(items), len(links))
    else:
        log.info("no authors' keywords in the listings: no keyword network for VOSviewer")
