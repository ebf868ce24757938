"""PubMed's MEDLINE format (`.nbib`, `.medline`, "Save > PubMed format" as `.txt`): records
separated by blank lines, `TAG - value` lines with the tag padded to four characters
(`PMID- `, `TI  - `, `AB  - `), continuation lines indented six spaces. A small reader: rispy's
parsers expect an end tag, which MEDLINE has none of.

Columns: id (PMID), document_type (PT), language (LA), title (TI, else the book title BTI),
authors (FAU, the full names, else AU), year (from DP), date (DP as written), doi (the LID or
AID marked `[doi]`), journal (JT), keywords (OT), index_keywords (MH, the MeSH headings),
abstract (AB), then every other tag under its own name; tags given several times are
'; '-joined (AB, the abstract's paragraphs, with a blank line). Every record ends with its
source line (SO): a last record without one is a cut file's, skipped with a warning.
"""

from __future__ import annotations

import re
from pathlib import Path

from papertopics.errors import ListingError
from papertopics.ingest.columns import TAGS
from papertopics.ingest.formats._common import Format, Parsed, columns_of

_RE_TAG = re.compile(r"^([A-Z][A-Z0-9]{0,3}) *- (.*)$")
_RE_SNIFF = re.compile(r"^PMID- ?\d", re.M)
_ROLES = TAGS["medline"]


def read_medline(text: str, path: Path) -> Parsed:
    records = []
    tags: dict[str, list[str]] = {}
    start = 0
    last = None
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    for lineno, line in enumerate([*lines, ""], 1):
        m = _RE_TAG.match(line)
        if m:
            if m.group(1) == "PMID" and tags:  # a record that follows without a blank line
                records.append((f"line {start}", _record(tags)))
                tags = {}
            if not tags:
                start = lineno
            last = m.group(1)
            tags.setdefault(last, []).append(m.group(2).strip())
        elif line.startswith("      ") and line.strip() and last in tags:
            tags[last][-1] += " " + line.strip()
        elif not line.strip() and tags:
            records.append((f"line {start}", _record(tags)))
            tags, last = {}, None
    if not records:
        raise ListingError(f"{path}: no MEDLINE records (no 'PMID- ' line)")
    skipped = []
    ends = [rec.get("so") is not None or rec.get("source") is not None for _, rec in records]
    if len(records) > 1 and all(ends[:-1]) and not ends[-1]:
        # every record ends with its source line (SO); the last lacks it: the file was cut
        skipped.append(
            f"{records[-1][0]} (the last record has no 'SO' line, which ends every other: the file is cut)"
        )
        records.pop()
    return Parsed(columns_of(records, tuple(_ROLES)), records, skipped=tuple(skipped))


def _record(tags: dict[str, list[str]]) -> dict:
    rec: dict[str, object] = {}
    taken: set[str] = set()
    for out, candidates in _ROLES.items():
        taken.update(candidates)
        for tag in candidates:
            values = tags.get(tag)
            if not values:
                continue
            if out == "doi":
                dois = [v.removesuffix("[doi]").strip() for v in values if v.endswith("[doi]")]
                if not dois:
                    continue
                values = dois[:1]
            elif out == "year":
                m = re.match(r"\d{4}", values[0])
                values = [m.group(0)] if m else values[:1]
            if out == "abstract":  # an abstract in several AB lines (paragraphs): all of it
                values = ["\n\n".join(values)]
            rec[out] = values[0] if len(values) == 1 or out == "title" else values
            break
    if tags.get("DP"):
        rec["date"] = tags["DP"][0]
    rec.update((t.lower(), v[0] if len(v) == 1 else v) for t, v in tags.items() if t not in taken)
    return rec


FORMATS = (
    Format(
        "medline",
        read_medline,
        extensions=(".nbib", ".medline"),
        aliases=("pubmed", "nbib"),
        claims=("text",),
        sniff=lambda head: bool(_RE_SNIFF.search(head)),
        label="PubMed MEDLINE",
    ),
)
