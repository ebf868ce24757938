"""Rule describe_topics: every analysis of analyses.registry, in its order, each writing its
tables beside topics.csv: over_time.csv and topic_trends.csv (analyses.over_time: shares per
period, rising and falling topics, each period's top terms), topic_sources.csv
(analyses.sources: top venues and authors), authors.csv (analyses.sources: the listing's authors
with their papers and fractionalised papers), thematic_map.csv (analyses.thematic: Callon's
centrality x density of each topic's keyword network), topic_citations.csv and most_cited.csv
(analyses.citations: citations and most-cited papers), main_information.csv and countries.csv
(analyses.main_information, analyses.countries), and the rows an analysis adds to an earlier
one's table (each topic's countries in topic_sources.csv). A listing without dates, venues,
authors, citations or affiliations gets the tables with their header only (main information:
the figures it has), the report shows none of their pages or lines, and one log line says which
were left out.
"""

from __future__ import annotations

import time

import pandas as pd

from papertopics.analyses.citations import topic_citations
from papertopics.analyses.over_time import over_time_tables
from papertopics.analyses.registry import ANALYSES
from papertopics.analyses.sources import author_table, topic_sources
from papertopics.analyses.thematic import thematic_map
from papertopics.topics.names.index import NameIndex
from papertopics.topics.terms import TermCounts


def read_text_table(path) -> pd.DataFrame:
    return pd.read_csv(path, dtype=str, keep_default_na=False, na_values=[], encoding="utf-8")


def period_tables(documents, topics, *, counts, terms, ctfidf, **_) -> dict[str, pd.DataFrame]:
    """over_time.csv and topic_trends.csv (the period unit in the shares' attrs, for the log)."""
    shares, trends, unit = over_time_tables(documents, topics, counts, terms, **ctfidf)
    shares.attrs["unit"] = unit
    return {"over_time": shares, "trends": trends}


def source_tables(documents, topics) -> dict[str, pd.DataFrame]:
    """topic_sources.csv, and authors.csv: the listing's most productive authors, as bibliometrix counts."""
    return {"sources": topic_sources(documents), "authors": author_table(documents)}


def thematic_tables(documents, topics, *, counts, terms, index, thematic, **_) -> dict[str, pd.DataFrame]:
    """thematic_map.csv; `thematic`: keywords, min_papers (config thematic.*)."""
    return {"thematic": thematic_map(documents, topics, counts, terms, index, **thematic)}


def citation_tables(documents, topics, *, path, **_) -> dict[str, pd.DataFrame]:
    citations, most_cited = topic_citations(documents, path)
    return {"citations": citations, "most_cited": most_cited}


def describe_topics_job(job, log) -> None:
    """Inputs: document_topics.csv, topics.csv, corpus/term_counts.npz (the abstracts' terms, in
    the corpus' order), corpus/name_index.pkl (names: the acronyms the abstracts define, which
    fold the thematic map's keywords as the names fold them). Params: reduce_frequent_words,
    bm25_weighting (representation.*: the c-TF-IDF of the period terms), thematic (thematic.*).
    Outputs: every table of analyses.registry.ANALYSES under its name (over_time, trends,
    sources, authors, thematic, citations, most_cited, main_information, countries)."""
    started = time.perf_counter()
    i, out, p = job.input, job.output, job.params
    documents, topics = read_text_table(i.documents), read_text_table(i.topics)
    terms = TermCounts.load(i.terms)
    counts = terms.counts if terms.counts.shape[0] == len(documents) else None
    if counts is None:
        log.warning(
            "%s holds %d rows for %d documents: no period terms",
            i.terms,
            terms.counts.shape[0],
            len(documents),
        )
    names = getattr(i, "names", None)  # the acronyms the abstracts define, as the names fold them
    context = {
        "path": str(i.documents),
        "counts": counts,
        "terms": terms.terms,
        "index": NameIndex.load(names) if names else None,
        "ctfidf": {
            "reduce_frequent_words": bool(p.reduce_frequent_words),
            "bm25_weighting": bool(p.bm25_weighting),
        },
        "thematic": dict(getattr(p, "thematic", None) or {}),  # keywords, min_papers (config thematic.*)
    }
    tables, empty = {}, {}
    for analysis in ANALYSES:
        written = analysis.run(documents, topics, **context)
        for table in analysis.tables:
            frame = tables[table.name] = written[table.name]
            frame.to_csv(getattr(out, table.name), index=False)
            if frame.empty and analysis.absent:
                empty.setdefault(analysis.absent, []).append(table.file)
        for name, _ in analysis.extends:
            rows = written.get(name)
            if rows is None or rows.empty:
                continue  # the table as the earlier analysis wrote it, byte for byte
            path = getattr(out, name)
            pd.concat([read_text_table(path), rows.astype(str)], ignore_index=True).to_csv(path, index=False)
    shares, trends, sources = tables["over_time"], tables["trends"], tables["sources"]
    citations = tables["citations"]
    log.info(
        "over time: %d periods (%s), %d rising, %d falling; %d venue and %d author rows, %d authors; "
        "%d papers with a citation count; %.1f s",
        shares["period"].nunique(),
        shares.attrs.get("unit") or "no dates",
        int((trends["status"] == "rising").sum()),
        int((trends["status"] == "falling").sum()),
        int((sources["field"] == "venue").sum()),
        int((sources["field"] == "author").sum()),
        len(tables["authors"]),
        int(citations["papers_counted"].sum()) if len(citations) else 0,
        time.perf_counter() - started,
    )
    for reason, files in empty.items():
        log.info("no %s: %s", ", ".join(files), reason)
