"""Who and where, per topic: each topic's top venues and authors (topic_sources.csv), with
counts and their share of the topic's papers.

Both come from the corpus's canonical columns (ingest/columns.py maps every export's spellings
onto them): the venue is `journal` (exports), else `venue` or `session` (conference listings);
the authors are, per row, `author_full_names` where the row has them (Scopus "Author full
names", a WoS tab-delimited AF), else its `authors` (WoS plain text and PubMed give their full
names there, AF and FAU; IEEE and the others only there): a Scopus listing beside an IEEE one
keeps both listings' authors. Authors are one person per key (topics.authors): "Smith, John",
"J. Smith" and "Smith J." are one author, shown as the fullest form written; "Wang, Yan" and
"Wang, Yu" are two; a row's two cells link its short forms to its full names, and a Scopus
author id (in "Author full names", or "Author(s) ID" beside "Authors") is the person.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict

import pandas as pd

from papertopics.analyses.authors import (
    author_id,
    author_keys,
    clean_name,
    comma_lists,
    linked_forms,
    split_authors,
)

# the venue column: the first of these canonical columns a listing has values in
VENUE_COLUMNS = ("journal", "venue", "session")
AUTHOR_COLUMNS = ("author_full_names", "authors")
# Scopus's ids of the names in "Authors", in their order ("57255281800;57283529300")
AUTHOR_ID_COLUMNS = ("Author(s) ID", "author_ids")
# venues and authors kept per topic
TOP_SOURCES = 5

SOURCE_COLUMNS = ["topic", "field", "name", "count", "share"]
# authors.csv: the listing's authors, most papers first (bibliometrix's "Most Productive Authors")
AUTHOR_TABLE_COLUMNS = ["rank", "name", "papers", "papers_fractionalised", "key"]


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
    if find_column(documents, AUTHOR_COLUMNS) is not None:
        written, shown = row_authors(documents)
        key = author_keys((n for v in written for n in v), links=row_links(documents))
        names = [[n for n in v if n in key] for v in written]
        rows += _top(
            topic_of, [[shown[n] for n in v] for v in names], [[key[n] for n in v] for v in names], "author"
        )
    return pd.DataFrame(rows, columns=SOURCE_COLUMNS)


def _cells(documents: pd.DataFrame, column: str | None) -> list[str]:
    if column is None or column not in documents.columns:
        return [""] * len(documents)
    return documents[column].fillna("").astype(str).str.strip().tolist()


def row_authors(documents: pd.DataFrame) -> tuple[list[list[str]], dict[str, str]]:
    """Each row's written names (full names where the row has them, else its authors), each
    with its Scopus author id beside it where the export gives one ("Hahn, Waldemar
    (57255281800)"); and {written name: the name shown}."""
    full, short = _cells(documents, "author_full_names"), _cells(documents, "authors")
    ids = _cells(documents, find_column(documents, AUTHOR_ID_COLUMNS))
    commas_full, commas_short = comma_lists(full), comma_lists(short)  # Publish or Perish, older Scopus
    written: list[list[str]] = []
    shown: dict[str, str] = {}
    for f, a, i in zip(full, short, ids):
        if f:
            raw = [p for p in re.split(r",(?![^()]*\))" if commas_full else ";", f) if p.strip()]
            names = [(clean_name(p), author_id(p)) for p in raw]
        else:
            parts = split_authors(a, commas_short)
            idents = [x.strip() for x in i.split(";") if x.strip()]
            names = list(zip(parts, idents if len(idents) == len(parts) else [""] * len(parts)))
        row = []
        for name, ident in names:
            parts = split_authors(name)  # "John Smith and Alan Jones", "Smith et al."
            for part in parts:
                form = f"{part} ({ident})" if ident and len(parts) == 1 else part
                shown.setdefault(form, part)
                row.append(form)
        written.append(row)
    return written, shown


def row_links(documents: pd.DataFrame) -> list[tuple[str, str]]:
    """(short form, full name) of every row that gives both: Scopus "Authors" beside "Author
    full names" ("Hahn W.", "Hahn, Waldemar"), WoS AU (`authors_abbreviated`) beside AF."""
    if "authors_abbreviated" in documents.columns:
        pairs = [("authors_abbreviated", "author_full_names"), ("authors_abbreviated", "authors")]
    else:
        pairs = [("authors", "author_full_names")]
    links: list[tuple[str, str]] = []
    for short_column, full_column in pairs:
        shorts = _cells(documents, short_column)
        commas = comma_lists(shorts)
        for f, a in zip(_cells(documents, full_column), shorts):
            if f and a:
                links += linked_forms(a, f, commas)
    return links


def author_table(documents: pd.DataFrame) -> pd.DataFrame:
    """authors.csv: every author of the listing with their papers and fractionalised papers, as
    bibliometrix's biblioAnalysis counts them (R/biblioAnalysis.R 5.2.1, l.93-104: `Authors`, a
    paper counted once per author; `AuthorsFrac`, each paper giving 1/nAU to each of its nAU
    authors), most papers first, then most fractionalised papers, then the key. One person per
    key (topics.authors), shown as their fullest written form; empty without authors."""
    if find_column(documents, AUTHOR_COLUMNS) is None:
        return pd.DataFrame(columns=AUTHOR_TABLE_COLUMNS)
    written, shown = row_authors(documents)
    key = author_keys((n for v in written for n in v), links=row_links(documents))
    papers: Counter = Counter()
    fractions: defaultdict[str, float] = defaultdict(float)
    forms: dict[str, Counter] = defaultdict(Counter)
    for row in written:
        people = [key[n] for n in row if n in key]
        for name in row:
            if name in key:
                forms[key[name]][shown[name]] += 1
        for person in people:
            fractions[person] += 1 / len(people)
        papers.update(set(people))
    table = pd.DataFrame(
        {
            "name": [max(forms[k].items(), key=lambda kv: (len(kv[0]), kv[1]))[0] for k in papers],
            "papers": [int(papers[k]) for k in papers],
            "papers_fractionalised": [round(fractions[k], 4) for k in papers],
            "key": list(papers),
        },
        columns=AUTHOR_TABLE_COLUMNS[1:],
    )
    table = table.sort_values(["papers", "papers_fractionalised", "key"], ascending=[False, False, True])
    table.insert(0, "rank", range(1, len(table) + 1))
    return table[AUTHOR_TABLE_COLUMNS].reset_index(drop=True)
