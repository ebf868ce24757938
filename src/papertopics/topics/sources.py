"""Who and where, per topic: each topic's top venues and authors (topic_sources.csv), with
counts and their share of the topic's papers.

Both come from the corpus's canonical columns (ingest/columns.py maps every export's spellings
onto them): the venue is `journal` (exports), else `venue` or `session` (conference listings);
the authors are `author_full_names` where the export keeps the full names apart (Scopus "Author
full names", a WoS tab-delimited AF), else `authors` (WoS plain text and PubMed give their full
names there, AF and FAU). Authors are one person per key (topics.authors): "Smith, John",
"J. Smith" and "Smith J." are one author, shown as the fullest form written; "Wang, Yan" and
"Wang, Yu" are two.
"""

from __future__ import annotations

from collections import Counter, defaultdict

import pandas as pd

from papertopics.topics.authors import author_keys, comma_lists, split_authors

# the venue column: the first of these canonical columns a listing has values in
VENUE_COLUMNS = ("journal", "venue", "session")
AUTHOR_COLUMNS = ("author_full_names", "authors")
# venues and authors kept per topic
TOP_SOURCES = 5

SOURCE_COLUMNS = ["topic", "field", "name", "count", "share"]


def find_column(documents: pd.DataFrame, names: tuple[str, ...]) -> str | None:
    """The first of `names` the table has with a value in some row."""
    for name in names:
        if name in documents.columns and documents[name].fillna("").astype(str).str.strip().ne("").any():
            return name
    return None


def _top(topic_of: pd.Series, values: list[list[str]], keys: list[list[str]], field: str) -> list[dict]:
    """The TOP_SOURCES commonest keys per topic, each shown as its fullest written form."""
    shown: dict[str, Counter] = defaultdict(Counter)
    counts: dict[int, Counter] = defaultdict(Counter)
    for topic, names, folded in zip(topic_of.tolist(), values, keys):
        for name, key in zip(names, folded):
            shown[key][name] += 1
        counts[topic].update(set(folded))  # a paper counts once per author or venue
    sizes = topic_of.value_counts()
    rows = []
    for topic in sorted(counts):
        for key, n in sorted(counts[topic].items(), key=lambda kv: (-kv[1], kv[0]))[:TOP_SOURCES]:
            name = max(shown[key].items(), key=lambda kv: (len(kv[0]), kv[1]))[0]
            share = round(n / int(sizes[topic]), 4)
            rows.append({"topic": int(topic), "field": field, "name": name, "count": int(n), "share": share})
    return rows


def topic_sources(documents: pd.DataFrame) -> pd.DataFrame:
    """topic_sources.csv: per topic (outliers too), its top venues and authors; empty without them."""
    topic_of = documents["topic"].astype(int)
    rows: list[dict] = []
    venue = find_column(documents, VENUE_COLUMNS)
    if venue is not None:
        names = [[v.strip()] if v.strip() else [] for v in documents[venue].fillna("").astype(str)]
        rows += _top(topic_of, names, [[n.lower() for n in v] for v in names], "venue")
    author = find_column(documents, AUTHOR_COLUMNS)
    if author is not None:
        cells = documents[author].fillna("").astype(str).tolist()
        commas = comma_lists(cells)  # "J Smith, A Jones" (Publish or Perish, older Scopus)
        written = [split_authors(cell, commas) for cell in cells]
        key = author_keys(n for v in written for n in v)
        names = [[n for n in v if n in key] for v in written]
        rows += _top(topic_of, names, [[key[n] for n in v] for v in names], "author")
    return pd.DataFrame(rows, columns=SOURCE_COLUMNS)
