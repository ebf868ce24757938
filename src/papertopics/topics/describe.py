"""Rule describe_topics: what the listing's own columns say of each topic, as tables beside
topics.csv. results/topics/over_time.csv and topic_trends.csv (topics.over_time: shares per
period, rising and falling topics, each period's top terms), topic_sources.csv (topics.sources:
top venues and authors), authors.csv (topics.sources: the listing's authors with their papers and
fractionalised papers), thematic_map.csv (topics.thematic: Callon's centrality x density of
each topic's keyword network), topic_citations.csv and most_cited.csv (topics.citations:
citations and most-cited papers). A listing without dates, venues, authors or citations gets
the tables with their header only, and the report shows none of their pages or lines.
"""

from __future__ import annotations

import time

import pandas as pd

from papertopics.topics.citations import topic_citations
from papertopics.topics.names.index import NameIndex
from papertopics.topics.over_time import over_time_tables
from papertopics.topics.sources import author_table, topic_sources
from papertopics.topics.terms import TermCounts
from papertopics.topics.thematic import thematic_map


def read_text_table(path) -> pd.DataFrame:
    return pd.read_csv(path, dtype=str, keep_default_na=False, na_values=[], encoding="utf-8")


def describe_topics_job(job, log) -> None:
    """Inputs: document_topics.csv, topics.csv, corpus/term_counts.npz (the abstracts' terms, in
    the corpus' order), corpus/name_index.pkl (names: the acronyms the abstracts define, which
    fold the thematic map's keywords as the names fold them). Params: reduce_frequent_words,
    bm25_weighting (representation.*: the c-TF-IDF of the period terms), thematic (thematic.*).
    Outputs: over_time.csv, topic_trends.csv, topic_sources.csv, authors.csv, thematic_map.csv,
    topic_citations.csv, most_cited.csv (topics.citations)."""
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
    ctfidf = {
        "reduce_frequent_words": bool(p.reduce_frequent_words),
        "bm25_weighting": bool(p.bm25_weighting),
    }
    shares, trends, unit = over_time_tables(documents, topics, counts, terms.terms, **ctfidf)
    sources = topic_sources(documents)
    names = getattr(i, "names", None)  # the acronyms the abstracts define, as the names fold them
    index = NameIndex.load(names) if names else None
    settings = dict(getattr(p, "thematic", None) or {})  # keywords, min_papers (config thematic.*)
    thematic = thematic_map(documents, topics, counts, terms.terms, index, **settings)
    thematic.to_csv(out.thematic, index=False)
    shares.to_csv(out.over_time, index=False)
    trends.to_csv(out.trends, index=False)
    sources.to_csv(out.sources, index=False)
    authors = author_table(documents)  # the listing's most productive authors, as bibliometrix counts
    authors.to_csv(out.authors, index=False)
    citations, most_cited = topic_citations(documents, str(i.documents))
    citations.to_csv(out.citations, index=False)
    most_cited.to_csv(out.most_cited, index=False)
    log.info(
        "over time: %d periods (%s), %d rising, %d falling; %d venue and %d author rows, %d authors; "
        "%d papers with a citation count; %.1f s",
        shares["period"].nunique(),
        unit or "no dates",
        int((trends["status"] == "rising").sum()),
        int((trends["status"] == "falling").sum()),
        int((sources["field"] == "venue").sum()),
        int((sources["field"] == "author").sum()),
        len(authors),
        int(citations["papers_counted"].sum()) if len(citations) else 0,
        time.perf_counter() - started,
    )
