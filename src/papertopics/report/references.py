"""results/topics/papers_by_topic.ris and .bib: every analysed paper as its listing gave it (title,
authors, year, venue, DOI, abstract, keywords, url, language), tagged with its topic, for a
reference manager (docs/report.md, "Back to the reference manager").

The topic is a keyword, `topic: <name>` (RIS `KW  - topic: <name>`, BibTeX `keywords`): Zotero
makes each keyword a tag, EndNote a keyword, Mendeley a tag, so importing the file files each
paper under its topic. Both files are written by the field's libraries (rispy's RisWriter,
bibtexparser's writer) and read back by them in tests/test_references.py.

Choices: a paper's RIS type from its document type (rispy's reference types: JOUR, CONF, CHAP,
BOOK; JOUR otherwise), its BibTeX entry type from the same (article, inproceedings, incollection,
book); a BibTeX key is the listing's own id where it is a usable key and unique, else the
paper's doc_id; a BibTeX value loses its braces (a brace left unbalanced would swallow the
entries after it); commas and semicolons in a topic's name become " /" in its tag, since
reference managers split BibTeX keywords on them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from papertopics.artifacts import atomic_write_text

__all__ = ["TOPIC_TAG", "reference_records", "topic_tag", "write_bibtex", "write_references_job", "write_ris"]

TOPIC_TAG = "topic: {name}"
_RIS_TYPES = {  # a document type's word (WoS, Scopus, BibTeX, PubMed) -> RIS type
    "article": "JOUR", "review": "JOUR", "journal article": "JOUR", "jour": "JOUR", "letter": "JOUR",
    "editorial": "JOUR", "proceedings paper": "CONF", "conference paper": "CONF", "inproceedings": "CONF",
    "conference review": "CONF", "conf": "CONF", "cpaper": "CONF", "ieee conferences": "CONF",
    "book chapter": "CHAP", "incollection": "CHAP", "chap": "CHAP", "inbook": "CHAP",
    "book": "BOOK",
}  # fmt: skip
_BIBTEX_TYPES = {"JOUR": "article", "CONF": "inproceedings", "CHAP": "incollection", "BOOK": "book"}
_RE_KEY = re.compile(r"^[A-Za-z0-9_:.\-]+$")
_FIELDS = ("title", "authors", "year", "journal", "doi", "abstract", "keywords", "url", "language")


def topic_tag(name: str) -> str:
    """The keyword a paper of topic `name` gets: `topic: <name>`, without , or ; in it."""
    clean = re.sub(r"\s*[,;]\s*", " / ", " ".join(str(name).split()))
    return TOPIC_TAG.format(name=clean)


def _text(value) -> str:
    return " ".join(str(value or "").split())


def _list(value) -> list[str]:
    return [p.strip() for p in str(value or "").split(";") if p.strip()]


def _ris_type(document_type: str) -> str:
    for part in _list(document_type):
        if part.casefold() in _RIS_TYPES:
            return _RIS_TYPES[part.casefold()]
    return "JOUR"


def reference_records(corpus: pd.DataFrame, documents: pd.DataFrame) -> list[dict]:
    """One record per analysed paper, in corpus order: the listing's fields under the canonical
    names (ingest/columns.py) and `topic_tag`. `documents` is document_topics.csv (doc_id,
    topic_label)."""
    labels = documents.set_index("doc_id")["topic_label"].astype(str)
    papers = corpus[corpus["doc_id"].isin(labels.index)]
    year = papers["published"].astype(str).str[:4] if "published" in papers else papers.get("year")
    records = []
    for k, (_, row) in enumerate(papers.iterrows()):
        rec = {
            "doc_id": row["doc_id"],
            "id": _text(row.get("id", "")),
            "topic_tag": topic_tag(labels[row["doc_id"]]),
        }
        rec["type"] = _ris_type(row.get("document_type", ""))
        rec["title"] = _text(row.get("title", ""))
        rec["authors"] = _list(row.get("authors", ""))
        rec["year"] = _text(year.iloc[k]) if year is not None else ""
        rec["journal"] = _text(row.get("journal", "") or row.get("venue", ""))
        rec["doi"] = _text(row.get("doi", ""))
        rec["abstract"] = _text(row.get("text_raw", ""))
        rec["keywords"] = _list(row.get("keywords", ""))
        rec["url"] = _text(row.get("url", "")).split(";")[0].strip()
        rec["language"] = _text(row.get("language", ""))
        records.append(rec)
    return records


def write_ris(path: str | Path, records: list[dict]) -> None:
    """RIS by rispy's writer, without its numbered header lines (`1.` before each `TY`)."""
    import rispy
    from rispy.writer import RisWriter

    class _Writer(RisWriter):
        def set_header(self, count):
            return ""

    entries = []
    for rec in records:
        entry = {"type_of_reference": rec["type"]}
        for key, tag in (("title", "title"), ("year", "year"), ("doi", "doi"), ("abstract", "abstract"),
                         ("language", "language")):  # fmt: skip
            if rec[key]:
                entry[tag] = rec[key]
        if rec["journal"]:
            entry["journal_name" if rec["type"] == "JOUR" else "secondary_title"] = rec["journal"]
        if rec["authors"]:
            entry["authors"] = rec["authors"]
        if rec["url"]:
            entry["urls"] = [rec["url"]]
        if rec["id"]:
            entry["id"] = rec["id"]
        entry["keywords"] = [*rec["keywords"], rec["topic_tag"]]
        entries.append(entry)
    atomic_write_text(Path(path), rispy.dumps(entries, implementation=_Writer))


def _keys(records: list[dict]) -> list[str]:
    ids = [rec["id"] for rec in records]
    seen = pd.Series(ids).value_counts()
    return [i if i and _RE_KEY.match(i) and seen[i] == 1 else rec["doc_id"] for i, rec in zip(ids, records)]


def _braceless(value: str) -> str:
    return value.replace("{", "").replace("}", "")


def write_bibtex(path: str | Path, records: list[dict]) -> None:
    """BibTeX by bibtexparser's writer: authors joined with `and`, keywords with `, `."""
    import bibtexparser
    from bibtexparser.model import Entry, Field

    library = bibtexparser.Library()
    for key, rec in zip(_keys(records), records):
        fields = {
            "title": rec["title"],
            "author": " and ".join(rec["authors"]),
            "year": rec["year"],
            "journal" if rec["type"] == "JOUR" else "booktitle": rec["journal"],
            "doi": rec["doi"],
            "url": rec["url"],
            "language": rec["language"],
            "abstract": rec["abstract"],
            "keywords": ", ".join([*(k.replace(",", " /") for k in rec["keywords"]), rec["topic_tag"]]),
        }
        entry_fields = [Field(name, _braceless(value)) for name, value in fields.items() if value]
        library.add(Entry(_BIBTEX_TYPES.get(rec["type"], "article"), key, entry_fields))
    atomic_write_text(Path(path), bibtexparser.write_string(library))


def write_references_job(job, log) -> None:
    """Rule write_references (papertopics.runtime.inprocess.run_job: a light job in Snakemake's
    process, no Python start of its own). Inputs: results/corpus/corpus.parquet (the papers as read),
    results/topics/document_topics.csv (each paper's topic). Outputs: papers_by_topic.ris, .bib."""
    records = reference_records(
        pd.read_parquet(job.input.corpus),
        pd.read_csv(job.input.documents, dtype=str, keep_default_na=False, na_values=[]),
    )
    write_ris(job.output.ris, records)
    write_bibtex(job.output.bib, records)
    log.info("%s, %s: %d papers tagged with their topic", job.output.ris, job.output.bib, len(records))
