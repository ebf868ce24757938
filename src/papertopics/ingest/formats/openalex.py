"""OpenAlex works (the API's `{"meta": ..., "results": [...]}`, a list of works, or JSON Lines
of works): the abstract is rebuilt from `abstract_inverted_index` ({word: [positions]}).

Columns: id (the OpenAlex URL), doi, title, authors (display names, '; '-joined), year,
venue (the primary location's source), document_type (type), language, index_keywords (the
`keywords` OpenAlex assigns from the text: not the authors', so never `keywords`), cited_by
(count), abstract. The other fields (references, concepts, locations, ...) are not carried: they are large and
nested.
"""

from __future__ import annotations

from pathlib import Path

from papertopics.errors import ListingError
from papertopics.ingest.formats._common import Format, Parsed, columns_of
from papertopics.ingest.formats.jsons import any_json_records


def abstract_from_index(index) -> str:
    """{"Deep": [0], "learning": [1, 5], ...} -> "Deep learning ... learning"."""
    if not isinstance(index, dict):
        return ""
    words: dict[int, str] = {}
    for word, positions in index.items():
        for p in positions if isinstance(positions, list) else ():
            if isinstance(p, int) and 0 <= p < 100_000:
                words[p] = str(word)
    return " ".join(words[p] for p in sorted(words))


def _get(obj, *keys):
    for key in keys:
        obj = obj.get(key) if isinstance(obj, dict) else None
    return obj


def _work(rec: dict) -> dict:
    authors = [_get(a, "author", "display_name") for a in rec.get("authorships") or () if isinstance(a, dict)]
    keywords = [_get(k, "display_name") for k in rec.get("keywords") or () if isinstance(k, dict)]
    out = {
        "id": rec.get("id"),
        "doi": rec.get("doi"),
        "title": rec.get("title") or rec.get("display_name"),
        "authors": [a for a in authors if a],
        "year": rec.get("publication_year"),
        "venue": _get(rec, "primary_location", "source", "display_name"),
        "document_type": rec.get("type"),
        "language": rec.get("language"),
        "index_keywords": [k for k in keywords if k],
        "cited_by": rec.get("cited_by_count"),
        "abstract": rec.get("abstract") or abstract_from_index(rec.get("abstract_inverted_index")),
    }
    return {k: v for k, v in out.items() if v not in (None, [], "")}


def read_openalex(text: str, path: Path) -> Parsed:
    _, rows = any_json_records(text, path)
    records = [(where, _work(rec)) for where, rec in rows]
    if not any(rec for _, rec in records):
        raise ListingError(f"{path}: no OpenAlex works (no title or abstract_inverted_index)")
    return Parsed(columns_of(records, ("id", "doi", "title", "authors", "year", "abstract")), records)


FORMATS = (
    Format(
        "openalex",
        read_openalex,
        claims=("json", "jsonl"),
        sniff=lambda head: '"abstract_inverted_index"' in head,
        label="OpenAlex works",
    ),
)
