"""Web of Science exports: plain text (`savedrecs.txt`, `.ciw`: `PT J` ... `ER` records of
two-letter tags, continuation lines indented three spaces) via rispy's WokParser, and
tab-delimited (a header of the same tags, one record per line, no quoting).

Columns: id (UT), document_type (DT), language (LA), title (TI), authors (AF, the full names,
else AU; '; '-joined), year (PY), doi (DI), journal (SO), keywords (DE), index_keywords (ID,
Keywords Plus), cited_by (TC: Core Collection times cited, as bibliometrix reads it; Z9 stays
total_times_cited_count), affiliations (C1, one address per line, '; '-joined),
corresponding_address (RP), cited_references (CR), authors_abbreviated (AU), abstract (AB), then
every other tag under
rispy's name for it (`wos_categories`, ...). The TAB variant (`PT<TAB>J`, values of a
multi-value field on the lines below an empty tag line, nothing indented) is read as plain text.
"""

from __future__ import annotations

import csv
import re
from pathlib import Path

from papertopics.errors import ListingError
from papertopics.ingest.columns import TAGS
from papertopics.ingest.formats._common import Format, Parsed, columns_of, line_starts
from papertopics.ingest.formats.delimited import read_delimited

_ROLES = TAGS["wos"]  # output column: WoS tags, the first present wins
_FIRST = tuple(_ROLES)
_RE_PLAIN = re.compile(r"\A\ufeff?(?:FN |VR |PT [A-Z]\b|(?:FN|VR)\t|PT\t[A-Z][ \t]*\r?\n)")
# the TAB variant: `TAG<TAB>value`, a multi-value field opening with an empty tag line, its
# values and continuation lines not indented
_RE_TAB_TAG = re.compile(r"^([A-Z][A-Z0-9])\t(.*)$", re.M)
_RE_RECORD = re.compile(r"^PT(?: |$)", re.M)  # a PT line without a value starts a record too
_RE_TAB_HEADER = re.compile(r"\A\ufeff?PT\t(?:[A-Z][A-Z0-9]\t)*(?:TI|AB)\t")


def _list_tags() -> list[str]:
    """rispy's list tags, and C1: one address per line (rispy would join them with spaces)."""
    from rispy.config import WOK_LIST_TYPE_TAGS

    return [*WOK_LIST_TYPE_TAGS, "C1"]


def _mapping() -> dict[str, str]:
    from rispy.config import WOK_TAG_KEY_MAPPING

    return dict(WOK_TAG_KEY_MAPPING)


def _record(tags: dict[str, object], names: dict[str, str]) -> dict:
    rec = {}
    taken = set()
    for out, candidates in _ROLES.items():
        for tag in candidates:
            value = tags.get(tag)
            if value not in (None, "", []):
                rec[out] = value
                break
        taken.update(candidates)
    rec.update((names.get(t, t), v) for t, v in tags.items() if t not in taken and t not in ("ER", "EF"))
    return rec


def read_wos(text: str, path: Path) -> Parsed:
    from rispy.parser import WokParser

    text = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    tabbed = bool(_RE_TAB_TAG.match(text))
    if tabbed:
        text = _untab(text)
    mapping = _mapping()
    list_tags = _list_tags()
    by_name = {v: k for k, v in mapping.items()}
    offsets = [m.start() for m in _RE_RECORD.finditer(text)]
    if not offsets:
        raise ListingError(f"{path}: no Web of Science records (no line starting 'PT ')")
    records, skipped = [], []
    for k, line in enumerate(line_starts(text, offsets)):
        chunk = text[offsets[k] : offsets[k + 1] if k + 1 < len(offsets) else len(text)]
        if not re.search(r"^ER\b", chunk, re.M):
            skipped.append(
                f"line {line} (no 'ER' before the " + ("next 'PT'" if k + 1 < len(offsets) else "end") + ")"
            )
            continue
        (raw,) = WokParser(mapping=mapping, list_tags=list_tags, skip_unknown_tags=True).parse(chunk) or ({},)
        tags = {by_name.get(name, name): _tidy(value) if tabbed else value for name, value in raw.items()}
        records.append((f"line {line}", _record(tags, mapping)))
    if not records:
        raise ListingError(f"{path}: no readable Web of Science record; {skipped[0]}")
    return Parsed(columns_of(records, _FIRST), records, skipped=tuple(skipped))


def _untab(text: str) -> str:
    """The TAB variant as plain text: `TAG value`, and every line without a tag a continuation
    line (the values below an empty tag line too); line numbers kept."""
    out: list[str] = []
    for line in text.split("\n"):
        m = _RE_TAB_TAG.match(line)
        if m:
            out.append(f"{m.group(1)} {m.group(2).strip()}")
        elif not line.strip() or line.strip() in ("ER", "EF"):
            out.append(line.strip())
        else:
            out.append("   " + line.strip())
    return "\n".join(out)


def _tidy(value: object) -> object:
    """A value of the TAB variant: an empty tag line's empty first value and spaces gone."""
    if isinstance(value, list):
        return [v.strip() for v in value if isinstance(v, str) and v.strip()]
    return value.strip() if isinstance(value, str) else value


def read_wos_tab(text: str, path: Path) -> Parsed:
    columns, rows, *_ = read_delimited(text.lstrip("\ufeff"), path, "\t", quoting=csv.QUOTE_NONE)
    mapping = _mapping()
    records = [(where, _record(row, mapping)) for where, row in rows]
    return Parsed(columns_of(records, _FIRST), records)


FORMATS = (
    Format(
        "wos",
        read_wos,
        extensions=(".ciw",),
        aliases=("webofscience", "web-of-science", "isi", "wok"),
        claims=("text", "tsv"),
        sniff=lambda head: bool(_RE_PLAIN.match(head)),
        label="Web of Science plain text",
    ),
    Format(
        "wos-tab",
        read_wos_tab,
        aliases=("wos-tsv", "wos_tab"),
        claims=("text", "tsv", "csv"),
        sniff=lambda head: bool(_RE_TAB_HEADER.match(head)),
        label="Web of Science tab-delimited",
    ),
)
