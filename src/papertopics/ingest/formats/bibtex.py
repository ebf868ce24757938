"""BibTeX (Zotero, ACM DL, Scopus, Web of Science, DBLP, OpenReview exports) via bibtexparser 2.

One entry that does not parse is skipped with a warning naming its line; the rest are read.
A listing needs no citation keys, so keys the grammar refuses are not errors: before parsing,
each entry header's key is replaced by a placeholder (`@article{Ribeiro, Jr2022,` from Scopus,
`@article{ ,` from Web of Science, a key used twice) and the key as written comes back as
the record's `id`. `@string` macros and `#` concatenation are resolved; LaTeX in every field
is rendered by papertopics.ingest.text (math kept for clean_text); whitespace, WoS's hard
wraps included, becomes one space.
"""

from __future__ import annotations

import logging
import re
import warnings
from pathlib import Path

from papertopics.errors import ListingError
from papertopics.ingest.formats._common import Format, ListingChoice, Parsed, columns_of, one_line
from papertopics.ingest.text import decode_latex

# An entry header: `@type{` (or `@type(`) then the key up to the comma that ends the line (a
# key may hold commas and spaces, or be empty), or else up to the first comma.
_RE_HEADER = re.compile(
    r"^([ \t]*@[ \t]*([A-Za-z][\w-]*)[ \t]*[{(])([^\n=]*?),(?=[ \t]*$)"
    r"|^([ \t]*@[ \t]*([A-Za-z][\w-]*)[ \t]*[{(])([^\n=,]*),",
    re.M,
)
# a field value that holds the next field: a comma missing between them
_RE_GLUED = re.compile(r"[}\"]\s*\n\s*([A-Za-z][\w-]*)\s*=\s*[{\"]")
_NOT_ENTRIES = frozenset({"string", "preamble", "comment"})
_PLACEHOLDER = "papertopics-key-{}"
# fields whose values are not prose: kept as written
_VERBATIM = frozenset({"url", "doi", "file", "eprint", "pdf", "link", "urldate", "issn", "isbn"})


def read_bibtex(text: str, path: Path) -> Parsed:
    """Columns: id (the key as written), document_type (the entry type), title, authors ("First
    Last" joined with '; '), year, date (`month` with the year, "FEB 2021", where no `date` is
    given), date_generated (Web of Science's `DA`, the day the file was written), doi, url,
    abstract, keywords (Scopus's `author_keywords`, else `keywords`), index_keywords (Scopus's
    `keywords`), then the other fields under their lower-case names."""
    import bibtexparser
    from bibtexparser import middlewares as mw
    from bibtexparser.model import MiddlewareErrorBlock

    text = text.replace("\r\n", "\n").replace("\r", "\n")
    keys: list[str] = []

    def placeholder(m: re.Match) -> str:
        start, kind, key = (m.group(1), m.group(2), m.group(3)) if m.group(1) else m.group(4, 5, 6)
        if kind.lower() in _NOT_ENTRIES:
            return m.group(0)
        keys.append(key.strip())
        return f"{start}{_PLACEHOLDER.format(len(keys) - 1)},"

    text = _RE_HEADER.sub(placeholder, text)
    logger = logging.getLogger("bibtexparser")
    level, logger.level = logger.level, logging.CRITICAL  # its failures become our warnings
    try:
        library = bibtexparser.parse_string(
            text,
            append_middleware=[
                mw.NormalizeFieldKeys(),  # Web of Science writes `Author =`, `Title =`
                mw.SeparateCoAuthors(),  # names as written; _name turns them around
            ],
        )
    except Exception as e:  # the library's own errors are not one type
        raise ListingError(
            f"{path}: not readable as BibTeX ({one_line(str(e) or type(e).__name__)})"
        ) from None
    finally:
        logger.level = level
    entries = list(library.entries)
    skipped: list[str] = []
    for block in library.failed_blocks:
        if isinstance(block, MiddlewareErrorBlock):  # a middleware gave up on it: read as written
            entries.append(block.ignore_error_block)
            continue
        error = block.error
        reason = getattr(error, "abort_reason", None) or str(error) or type(error).__name__
        skipped.append(f"line {block.start_line + 1} ({one_line(reason, 60)})")
    if not entries:
        if skipped:
            raise ListingError(f"{path}: no readable BibTeX entry; {skipped[0]}")
        raise ListingError(f"{path}: no BibTeX entries (no '@article{{...}}' or similar)")
    strings = {s.key.lower(): s.value for s in library.strings}
    records = []
    generated = 0
    for entry in sorted(entries, key=lambda e: e.start_line):
        enclosing = entry.parser_metadata.get("removed_enclosing") or {}
        fields = {
            k.lower(): _value(f.value, strings, k.lower(), enclosing.get(k))
            for k, f in entry.fields_dict.items()
        }
        key = _original_key(entry.key, keys)
        glued = next((m for f in entry.fields_dict.values() if (m := _RE_GLUED.search(str(f.value)))), None)
        if glued:  # `title = {A}` then `abstract = {...}` without a comma: one field swallowed the next
            skipped.append(f"line {entry.start_line + 1} ({key}: no comma before field {glued.group(1)!r})")
            continue
        rec = _record(key, entry.entry_type, fields)
        generated += "date_generated" in rec
        where = f"line {entry.start_line + 1}" + (f" ({key})" if key else "")
        records.append((where, rec))
    if generated:
        warnings.warn(
            ListingChoice(
                f"{path}: DA ({generated} record(s)) is the day Web of Science generated the file, "
                "not a publication date: kept as date_generated; the dates are Year and Month",
                field="date",
            ),
            stacklevel=3,
        )
    return Parsed(columns_of(records), records, skipped=tuple(skipped))


def _record(key: str, kind: str, fields: dict[str, str]) -> dict[str, str]:
    """One entry's fields under the canonical names (read_bibtex's docstring)."""
    rec = {"id": key, "document_type": kind}
    if "author_keywords" in fields:  # Scopus: the authors' own; its `keywords`, the index terms
        if "keywords" in fields:
            rec["index_keywords"] = fields.pop("keywords")
        rec["keywords"] = fields.pop("author_keywords")
    if "da" in fields:  # Web of Science's DA: the day the file was generated
        rec["date_generated"] = fields.pop("da")
    if "month" in fields and "date" not in fields:  # `Month = {FEB}`: the date, with the year
        month, year = fields["month"].strip(), fields.get("year", "").strip()
        numbered = month.isdigit() and year.isdigit()  # `month = 2`
        rec["date"] = f"{year}-{int(month):02d}" if numbered else " ".join(x for x in (month, year) if x)
    for name in ("title", "author", "year", "doi", "url", "abstract"):
        if name in fields:
            rec["authors" if name == "author" else name] = fields.pop(name)
    rec.update((k, v) for k, v in fields.items() if k not in rec)
    return rec


def _original_key(key: str, keys: list[str]) -> str:
    prefix = _PLACEHOLDER.format("")
    if key.startswith(prefix) and key[len(prefix) :].isdigit():
        return keys[int(key[len(prefix) :])]
    return key


def _value(value, strings: dict[str, str], name: str, enclosing: str | None) -> str:
    if isinstance(value, list):  # authors, editors: one decoded name each, "First Last"
        names = ([_value(p, strings, name, "{") for p in _split_top(str(x), ",")] for x in value)
        return "; ".join(v for v in map(_name, names) if v)
    value = str(value)
    if enclosing in ("no-enclosing", None):  # None: an entry the middleware did not finish
        value = _concatenate(value, strings)
    if name in _VERBATIM:  # WoS writes DOI = {{10.1016/...}}
        return value.replace("{", "").replace("}", "").strip()
    return " ".join(decode_latex(value).split())


def _name(parts: list[str]) -> str:
    """BibTeX's "Last, First" and "Last, Jr, First" (split at commas outside braces, each part
    decoded) as "First Last Jr". Not bibtexparser's SplitNameParts: it reads the `~` of
    `Jo\\~{a}o` as a space."""
    parts = [p.strip() for p in parts]
    if len(parts) == 2 and all(parts):
        return f"{parts[1]} {parts[0]}"
    if len(parts) >= 3 and parts[0] and parts[-1]:
        return " ".join(p for p in (", ".join(parts[2:]), parts[0], parts[1]) if p)
    return ", ".join(p for p in parts if p)


def _split_top(value: str, sep: str = "#") -> list[str]:
    """`"Part A: " # {...}`: the parts joined by `sep` outside braces and quotes."""
    parts, depth, quoted, start, escaped = [], 0, False, 0, False
    for i, ch in enumerate(value):
        if escaped or ch == "\\":  # `\"o`, `\#`: an accent or escape, not a delimiter
            escaped = not escaped
            continue
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        elif ch == '"' and depth == 0:
            quoted = not quoted
        elif ch == sep and depth == 0 and not quoted:
            parts.append(value[start:i])
            start = i + 1
    return [*parts, value[start:]]


def _concatenate(value: str, strings: dict[str, str]) -> str:
    """A value bibtexparser left as written: `#` parts joined, each without its braces or
    quotes, `@string` macros replaced."""
    out = []
    for part in _split_top(value):
        part = part.strip()
        if len(part) >= 2 and (part[0], part[-1]) in (("{", "}"), ('"', '"')):
            out.append(part[1:-1])
        elif part.lower() in strings:
            out.append(strings[part.lower()])
        else:
            out.append(part)  # a number, or a macro defined nowhere: as written
    return "".join(out)


FORMATS = (Format("bibtex", read_bibtex, extensions=(".bib", ".bibtex"), aliases=("bib",)),)
