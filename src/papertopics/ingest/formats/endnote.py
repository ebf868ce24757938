"""EndNote XML (File > Export > XML, `.xml`): `<xml><records><record>...`, each value wrapped in
`<style face=... font=... size=...>` elements, the whole library often on a few lines.

Read with the standard library's XML parser, made safe as defusedxml makes it: a file that
declares a DOCTYPE or an ENTITY is refused before parsing (no entity expansion, no external
resources). Columns: id (rec-number), document_type (ref-type's name), title, authors ('; '-joined),
year, date (pub-dates), journal (secondary-title, else periodical's full-title), keywords
('; '-joined), doi (electronic-resource-num), url, abstract, then every other field of the
record under its tag name (`pages`, `volume`, ...; `label`, the user's reading status, as
`endnote_label`).
"""

from __future__ import annotations

import re
from pathlib import Path

from papertopics.errors import ListingError
from papertopics.ingest.columns import TAGS
from papertopics.ingest.formats._common import Format, Parsed, columns_of, one_line

_RE_UNSAFE = re.compile(r"<!\s*(?:DOCTYPE|ENTITY)", re.I)
_RE_PUBMED = re.compile(r"<!DOCTYPE\s+PubmedArticleSet|<PubmedArticleSet[\s>]")
_RE_DECLARATION = re.compile(r"\A\s*<\?xml[^>]*\?>")
_RE_SNIFF = re.compile(r"\A\s*(?:<\?xml[^>]*\?>\s*)?<xml>\s*<records>\s*<record>")
# output column: paths in a record, the first with text wins ("/"-joined lists for several)
_FIELDS = TAGS["endnote"]
_SEVERAL = frozenset({"authors", "keywords", "url"})
# EndNote's `label` is the user's own note ("Printed;Read"), not a subject label to score
# topics against (the `label` column, evaluate/metrics.py): carried as `endnote_label`
_RENAMED = {"label": "endnote_label"}
_TAKEN = frozenset(p.split("/")[0] for paths in _FIELDS.values() for p in paths) | {
    "ref-type",
    "database",
    "source-app",
    "foreign-keys",
}


def _text(element) -> str:
    return " ".join("".join(element.itertext()).split())


def _record(element) -> dict:
    rec: dict[str, object] = {}
    ref_type = element.find("ref-type")
    if ref_type is not None:
        rec["document_type"] = ref_type.get("name") or _text(ref_type)
    for out, paths in _FIELDS.items():
        for path in paths:
            values = [v for v in (_text(e) for e in element.findall(path)) if v]
            if values:
                rec[out] = values if out in _SEVERAL and len(values) > 1 else values[0]
                break
    for child in element:
        name = _RENAMED.get(child.tag, child.tag)
        if child.tag not in _TAKEN and name not in rec and _text(child):
            rec[name] = _text(child)
    return rec


def read_endnote(text: str, path: Path) -> Parsed:
    import xml.etree.ElementTree as ET

    if _RE_PUBMED.search(text[:4096]):
        raise ListingError(
            f"{path}: this is PubMed XML (PubmedArticleSet), which is not read; in PubMed choose "
            f"Save > Format: PubMed and list that file (MEDLINE text, .txt or .nbib) instead"
        )
    if _RE_UNSAFE.search(text):
        raise ListingError(
            f"{path}: the XML declares a DOCTYPE or ENTITY; refused (entities are not expanded)"
        )
    try:
        root = ET.fromstring(_RE_DECLARATION.sub("", text))  # decoded already: its encoding is moot
    except ET.ParseError as e:
        raise ListingError(
            f"{path}: line {e.position[0]}: not well-formed XML ({one_line(str(e), 60)})"
        ) from None
    elements = root.findall("records/record") if root.tag == "xml" else root.findall(".//record")
    if not elements:
        raise ListingError(f"{path}: no EndNote records (no <xml><records><record>)")
    records = [(f"record {k}", _record(e)) for k, e in enumerate(elements, 1)]
    return Parsed(
        columns_of(records, ("id", "document_type", "title", "authors", "year", "journal", "abstract")),
        records,
    )


FORMATS = (
    Format(
        "endnote-xml",
        read_endnote,
        extensions=(".xml",),
        aliases=("endnote", "endnotexml"),
        claims=("text",),
        sniff=lambda head: bool(_RE_SNIFF.match(head)),
        label="EndNote XML",
    ),
)
