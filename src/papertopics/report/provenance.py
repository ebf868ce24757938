"""The table behind the report's "Data" page (report.data_page) and the workbook's `data` sheet:
for each field the report uses, which
column of which listing it came from, the share of papers that have it, and the values read,
repaired, skipped or merged with the reason, as bibliometrix's completeness table lists its
fields (`missingData`: the tags' share of missing values).

What it shows comes from corpus_stats.json: each listing's `columns` (canonical column -> the
listing's column, recorded by the parse stage, ingest.listings) and `notes` ({field, what, count,
why}: a reader's or the corpus' one lines, as rows), and the corpus' own `notes` (the merge of
one paper's records, ingest.corpus). A reader that makes a new choice adds a note; a new field is
one entry in FIELDS.
"""

from __future__ import annotations

import pandas as pd

# the fields the report uses -> the canonical columns that hold them, the first present per row
FIELDS: dict[str, tuple[str, ...]] = {
    "title": ("title",),
    "abstract": ("text",),
    "year": ("year",),
    "authors": ("author_full_names", "authors"),
    "venue": ("journal", "venue", "session"),
    "keywords": ("keywords",),
    "index keywords": ("index_keywords",),
    "citations": ("cited_by",),
    "document type": ("document_type", "type"),
    "DOI": ("doi",),
    "affiliations": ("author_address", "affiliations", "Affiliations", "Author Affiliations"),
    "references": ("cited_references", "references", "References"),
}
DATA_COLUMNS = ["field", "listing", "column", "papers", "share", "what", "count", "why"]
ALL_LISTINGS = "all listings"


def _has(documents: pd.DataFrame, column: str) -> pd.Series:
    if column not in documents.columns:
        return pd.Series(False, index=documents.index)
    return documents[column].fillna("").astype(str).str.strip().ne("")


def data_rows(documents: pd.DataFrame, stats: dict) -> list[dict]:
    """One row per field and listing (the listing's column, papers with a value, their share),
    then one per note ({field, what, count, why}) of the listings and the corpus."""
    listings = stats.get("listings") or {}
    names = list(listings) or list(
        dict.fromkeys(n for c in documents["listings"] for n in str(c).split(";") if n)
    )
    member = {name: documents["listings"].map(lambda c, n=name: n in str(c).split(";")) for name in names}
    rows: list[dict] = []
    for field, candidates in FIELDS.items():
        for name in names:
            papers = documents[member[name]]
            present = [c for c in candidates if _has(papers, c).any()]
            sources = (listings.get(name) or {}).get("columns") or {}
            column = ", else ".join(str(sources.get(c, c)) for c in present)
            has = pd.Series(False, index=papers.index)
            for c in present:
                has |= _has(papers, c)
            n = int(has.sum())
            share = round(n / len(papers), 4) if len(papers) else 0.0
            rows.append(
                {"field": field, "listing": name, "column": column or "none", "papers": n, "share": share,
                 "what": "", "count": "", "why": ""}
            )  # fmt: skip
        for name in names:
            for note in (listings.get(name) or {}).get("notes") or []:
                if note.get("field") == field:
                    rows.append(_note(field, name, note))
        for note in stats.get("notes") or []:
            if note.get("field") == field:
                rows.append(_note(field, ALL_LISTINGS, note))
    for name in names:  # choices about no one field (a listing's columns): after the fields
        rows += [
            _note(n["field"], name, n)
            for n in (listings.get(name) or {}).get("notes") or []
            if n.get("field") not in FIELDS
        ]
    rows += [
        _note(n["field"], ALL_LISTINGS, n) for n in stats.get("notes") or [] if n.get("field") not in FIELDS
    ]
    return rows


def _note(field: str, listing: str, note: dict) -> dict:
    return {
        "field": field, "listing": listing, "column": "", "papers": "", "share": "",
        "what": str(note.get("what", "")), "count": "" if note.get("count") is None else int(note["count"]),
        "why": str(note.get("why", "")),
    }  # fmt: skip


def data_table(documents: pd.DataFrame, stats: dict) -> pd.DataFrame:
    """The workbook's `data` sheet: data_rows as a table, numbers typed."""
    table = pd.DataFrame(data_rows(documents, stats), columns=DATA_COLUMNS)
    for column in ("papers", "share", "count"):
        table[column] = pd.to_numeric(table[column].replace("", None), errors="coerce")
    return table
