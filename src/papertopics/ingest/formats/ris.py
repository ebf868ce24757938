"""RIS (Zotero, Scopus, Web of Science, EndNote, ACM, IEEE exports) via rispy."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from papertopics.errors import ListingError
from papertopics.ingest.columns import TAGS
from papertopics.ingest.formats._common import Format, Parsed, columns_of, line_starts, one_line

# RIS tags rispy maps to two names: the first one found wins (AB over N2, TI over T1, ...)
_RIS_ROLES = TAGS["ris"]
_RIS_TAKEN = frozenset(t for tags in _RIS_ROLES.values() for t in tags)
_RE_RIS_START = re.compile(r"^TY  -", re.M)
_RE_RIS_END = re.compile(r"^ER  -", re.M)
_RE_RIS_SNIFF = re.compile(r"\A\s*TY  - ")  # a `.txt` whose first line opens a RIS record
_RE_TAG_LINE = re.compile(r"^([A-Z][A-Z0-9])  -", re.M)
# tags a record has once: seen twice before an `ER`, two records lost the `ER`/`TY` between them
_ONCE = frozenset({"TI", "T1"})


def read_ris(text: str, path: Path) -> Parsed:
    """RIS records (Zotero, Scopus, Web of Science, EndNote, Mendeley, Embase) via rispy: abstract
    from AB (else N2), title from TI (else T1), authors from AU (else A1), year from PY (else Y1,
    date parts dropped), date from DA (else Y1, as written), journal from JO (else JF, T2, J2),
    doi DO, url UR, id ID; every other tag under rispy's name for it."""
    import rispy

    text = text.replace("\r\n", "\n").replace("\r", "\n")
    offsets = [m.start() for m in _RE_RIS_START.finditer(text)]
    if not offsets:
        raise ListingError(f"{path}: no RIS records (no line starting 'TY  -')")
    starts = line_starts(text, offsets)
    parsed, skipped = [], []
    for k, (offset, line) in enumerate(zip(offsets, starts)):
        chunk = text[offset : offsets[k + 1] if k + 1 < len(offsets) else len(text)]
        if not _RE_RIS_END.search(chunk):
            skipped.append(
                f"line {line} (no 'ER  -' before the " + ("next 'TY  -')" if k + 1 < len(offsets) else "end)")
            )
            continue
        glued, chunk = _glued(chunk, line)
        skipped.extend(glued)
        if not chunk:
            continue
        try:  # one record at a time: one that rispy cannot read loses only itself
            (raw,) = rispy.loads(chunk, skip_unknown_tags=False)
        except Exception as e:  # rispy raises IOError, ValueError, KeyError...
            skipped.append(f"line {line} ({one_line(str(e) or type(e).__name__, 60)})")
            continue
        parsed.append((line, raw))
    if not parsed:
        raise ListingError(f"{path}: no readable RIS record; {skipped[0]}")
    records = []
    for line, raw in parsed:
        rec: dict[str, Any] = {}
        for role, tags in _RIS_ROLES.items():
            value = next((raw[t] for t in tags if raw.get(t)), None)
            if value is not None:
                rec[role] = value.split("/")[0] if role == "year" and isinstance(value, str) else value
        rec.update((k, v) for k, v in raw.items() if k not in _RIS_TAKEN and k not in rec)
        records.append((f"line {line}", rec))
    first = (
        "id",
        "document_type",
        "language",
        "title",
        "authors",
        "year",
        "date",
        "journal",
        "doi",
        "url",
        "abstract",
    )
    return Parsed(columns_of(records, first), records, skipped=tuple(skipped))


def _glued(chunk: str, line: int) -> tuple[list[str], str]:
    """Records run together (no `ER` after one, no `TY` before the next): ("line N (why)" for
    each record lost, the record to read or ""). A tag a record has once given twice loses
    both; tags after the record's `ER` lose the record they open (rispy drops it silently)."""
    end = _RE_RIS_END.search(chunk)
    tags = list(_RE_TAG_LINE.finditer(chunk, 0, end.start()))
    seen: set[str] = set()
    for m in tags:
        tag = m.group(1)
        if tag in _ONCE and tag in seen:
            second = line + chunk.count("\n", 0, m.start())
            why = f"no 'ER  -' after it and no 'TY  -' before the record at line {second}"
            why += f", whose '{tag}' it would take"
            return [f"line {line} ({why})", f"line {second} (no 'TY  -' opens it)"], ""
        seen.add(tag)
    after = _RE_TAG_LINE.search(chunk, end.end())
    if after:  # the next record lost its `TY`: it would be dropped without a word
        second = line + chunk.count("\n", 0, after.start())
        ended = line + chunk.count("\n", 0, end.start())
        return [f"line {second} (no 'TY  -' opens it, after the 'ER  -' of line {ended})"], chunk[: end.end()]
    return [], chunk


FORMATS = (
    Format(
        "ris",
        read_ris,
        extensions=(".ris",),
        claims=("text",),
        sniff=lambda head: bool(_RE_RIS_SNIFF.match(head)),
        label="RIS",
    ),
)
