"""What the parse stage records for the report's data page (report.provenance), beside the
listing's rows (the parsed table's attrs, kept in its parquet file): the listing's column per
canonical column (`column_sources`), and what became of the records as rows {field, what: read |
repaired | skipped, count, why} (`record_notes`). A reader's other choices are added as notes the
same way; build_corpus carries both into corpus_stats.json."""

from __future__ import annotations

from papertopics.ingest.columns import TAGS

# the format names whose readers take columns.TAGS' tags under another key
_TAG_TABLES = {"pubmed": "medline"}


def column_sources(fmt: str, text_col, title_col, id_col, extras) -> dict[str, str]:
    """{canonical column: the listing's column it was read from}. A tagged format's reader names
    its fields canonically: their tags are columns.TAGS' ("AF, else AU")."""
    tags = TAGS.get(_TAG_TABLES.get(fmt, fmt), {})
    texts = text_col if isinstance(text_col, list) else [text_col] if text_col else []
    found = {"text": ", else ".join(map(str, texts)), "title": title_col, "id": id_col, **dict(extras)}
    out = {}
    for name, col in found.items():
        if not col:
            continue
        canonical = "abstract" if name == "text" else name
        if isinstance(col, list):  # a field two columns spell (ingest.plan.first_filled)
            out[name] = ", else ".join(map(str, col))
        else:
            out[name] = (
                ", else ".join(tags[canonical]) if col == canonical and canonical in tags else str(col)
            )
    return out


def _note(field: str, what: str, count: int, why: str) -> dict:
    return {"field": field, "what": what, "count": int(count), "why": why}


def record_notes(
    lost: dict[str, list], truncated: list, notices: list, fell_back: dict, text_cols, max_chars
):
    """The abstracts' notes: records skipped by cause, abstracts cut or cleaned, abstracts read
    from the next text column."""
    notes = [_note("abstract", "skipped", len(where), cause) for cause, where in lost.items() if where]
    if truncated:
        notes.append(_note("abstract", "repaired", len(truncated), f"cut to max_chars={max_chars}"))
    if n := sum(bool(x) for x in notices):
        notes.append(_note("abstract", "repaired", n, "publisher's copyright line moved to `copyright`"))
    notes += [
        _note("abstract", "read", count, f"from {col!r}: the record has no {text_cols[0]!r}")
        for col, count in fell_back.items()
    ]
    return notes


# a reader's choice (formats.ListingChoice: its `field`) -> the data page's field
_CHOICE_FIELDS = {
    "year": "year", "date": "year", "keywords": "keywords", "index_keywords": "index keywords",
    "cited_by": "citations", "authors": "authors", "columns": "columns",
}  # fmt: skip


def choice_notes(choices) -> list[dict]:
    """The choices a reader or the dates made among columns or values ({field, line}, each
    already one line of the run) as the data page's notes: what "chosen", no count, why the line."""
    return [
        {
            "field": _CHOICE_FIELDS.get(c["field"], c["field"]),
            "what": "chosen",
            "count": None,
            "why": c["line"],
        }
        for c in choices
    ]
