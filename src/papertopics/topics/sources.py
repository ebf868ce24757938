"""Who and where, per topic: each topic's top venues and authors (topic_sources.csv), with
counts and their share of the topic's papers.

Venues are the listing's `journal` (exports), else `venue` or `session` (conference listings).
Authors are split on ";" (every export's separator) and folded by surname and first initial, as
exports write one person several ways: "Smith, J.", "Smith, John", "J. Smith" and "Smith J."
are one author, shown as the fullest form written.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict

import pandas as pd

# the venue column: the first of these a listing has (matched case-insensitively)
VENUE_COLUMNS = ("journal", "venue", "source title", "conference name", "session")
AUTHOR_COLUMNS = ("authors", "author full names", "author")
# venues and authors kept per topic
TOP_SOURCES = 5

SOURCE_COLUMNS = ["topic", "field", "name", "count", "share"]
_INITIALS = re.compile(r"^(?:[A-Z]\.?-?){1,3}$")
_SCOPUS_ID = re.compile(r"\s*\(\d+\)\s*$")


def find_column(documents: pd.DataFrame, names: tuple[str, ...]) -> str | None:
    """The first of `names` the table has with a value in some row (any capitals)."""
    by_name = {str(c).strip().lower(): c for c in documents.columns}
    for name in names:
        column = by_name.get(name)
        if column is not None and documents[column].fillna("").astype(str).str.strip().ne("").any():
            return column
    return None


def author_key(name: str) -> str:
    """ "smith j" for "Smith, John", "Smith, J.", "J. Smith", "Smith J." and "SMITH J"."""
    name = _SCOPUS_ID.sub("", name).strip()
    if "," in name:
        surname, given = (part.strip() for part in name.split(",", 1))
    else:
        parts = name.split()
        if len(parts) > 1 and _INITIALS.match(parts[-1]):  # "Smith J.", "Hahn W."
            surname, given = " ".join(parts[:-1]), parts[-1]
        elif len(parts) > 1:  # "J. Smith", "John Smith"
            surname, given = parts[-1], " ".join(parts[:-1])
        else:
            surname, given = name, ""
    initial = next((c for c in given if c.isalpha()), "")
    return f"{surname.lower()} {initial.lower()}".strip()


def split_authors(cell: str) -> list[str]:
    return [_SCOPUS_ID.sub("", part).strip() for part in str(cell).split(";") if part.strip()]


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
        names = [split_authors(cell) for cell in documents[author].fillna("")]
        rows += _top(topic_of, names, [[author_key(n) for n in v] for v in names], "author")
    return pd.DataFrame(rows, columns=SOURCE_COLUMNS)
