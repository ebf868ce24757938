"""OpenReview API notes (API 2: `content.title.value`; API 1: `content.title` as a string),
as a list, `{"notes": [...]}`, or JSON Lines.

Columns: id, then each `content` field under its own name (title, abstract, authors,
keywords, venue, primary_area, TL;DR, ...; lists '; '-joined), then number and forum; a top-level
title or abstract (beside `content`, not in it) is read too.
"""

from __future__ import annotations

import re
from pathlib import Path

from papertopics.ingest.formats._common import Format, Parsed, columns_of
from papertopics.ingest.formats.jsons import any_json_records

_RE_SNIFF = re.compile(r'"content"\s*:\s*\{')
_KEPT = ("id", "number", "forum")
_BESIDE = frozenset({"title", "abstract", "text", "summary", "tldr", "keywords", "authors"})


def _note(rec: dict) -> dict:
    content = rec.get("content")
    if not isinstance(content, dict):
        return rec
    out = {k: rec[k] for k in ("id",) if k in rec}
    for key, value in content.items():
        if isinstance(value, dict) and "value" in value:  # API 2
            value = value["value"]
        out[key] = value
    out.update((k, rec[k]) for k in _KEPT if k in rec and k not in out)
    # a record that keeps its abstract or title beside `content`, not in it: read them too
    out.update(
        (k, v)
        for k, v in rec.items()
        if k not in out and k != "content" and isinstance(v, str) and k.casefold() in _BESIDE
    )
    return out


def read_openreview(text: str, path: Path) -> Parsed:
    _, rows = any_json_records(text, path)
    records = [(where, _note(rec)) for where, rec in rows]
    return Parsed(columns_of(records, ("id", "title", "abstract")), records)


FORMATS = (
    Format(
        "openreview",
        read_openreview,
        claims=("json", "jsonl"),
        sniff=lambda head: bool(_RE_SNIFF.search(head)) and ('"forum"' in head or '"invitation' in head),
        label="OpenReview notes",
    ),
)
