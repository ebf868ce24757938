"""The listing formats: one module per format family, each a list of `Format`s, one registry.

A new format is one module here (a reader returning `Parsed`, and its `Format` with
extensions, aliases and, when its extension is shared, a content test) and one name in
`_MODULES`. Modules import only the standard library at the top: the Snakefile reads this
registry on every start; the libraries that parse (bibtexparser, rispy, pandas) load when a
file of theirs is read.
"""

from __future__ import annotations

import importlib
import re

from papertopics.ingest.formats._common import Format, ListingChoice, ListingWarning, Parsed

__all__ = [
    "FORMATS",
    "REGISTRY",
    "Format",
    "ListingChoice",
    "ListingWarning",
    "Parsed",
    "by_extension",
    "guess_note",
    "lookup",
    "sniffed",
]

# one line per module, in the order of the README's table
_MODULES = (
    "text",
    "delimited",
    "jsons",
    "bibtex",
    "ris",
    "endnote",
    "wos",
    "medline",
    "openalex",
    "openreview",
    "excel",
    "parquet",
)

REGISTRY: dict[str, Format] = {}
for _module in _MODULES:
    for _fmt in importlib.import_module(f"{__name__}.{_module}").FORMATS:
        REGISTRY[_fmt.name] = _fmt
FORMATS = tuple(REGISTRY)
_ALIASES = {alias: f.name for f in REGISTRY.values() for alias in f.aliases}
_EXTENSIONS = {ext: f.name for f in REGISTRY.values() for ext in f.extensions}


def lookup(name: str) -> Format | None:
    """The format named `name` or one of its aliases ('bib', '.bib', 'BibTeX'), else None."""
    key = str(name).strip().lower().lstrip(".")
    return REGISTRY.get(_ALIASES.get(key, key))


def by_extension(ext: str) -> Format | None:
    """The format of a file extension ('.bib'; '' is the text format), else None."""
    name = _EXTENSIONS.get(ext.lower())
    return REGISTRY[name] if name else None


def sniffed(fmt: Format, head: str) -> tuple[Format, str]:
    """The format that claims a file of format `fmt` by its content (`head`: its first 64 KiB
    of text), else `fmt`; with the note to warn with when the claim is a guess ("" if sure).
    A sure claim (WoS plain text's `FN` line) wins over a guess (a table of tab-separated names)."""
    guess: tuple[Format, str] | None = None
    for other in REGISTRY.values():
        if fmt.name in other.claims and other.sniff is not None:
            claim = other.sniff(head)
            if claim is True:
                return other, ""
            if claim and guess is None:
                guess = (other, str(claim))
    return guess or (fmt, "")


def guess_note(fmt: Format, by_name: Format, head: str) -> str:
    """What a file was taken for when its content claims another format than its name says:
    `read as Web of Science plain text (line 1 starts 'FN '); set format: text to read it as one
    abstract per paragraph` (`head`: its first 64 KiB of text)."""
    lines = head.split("\n")
    number, line = next(((k, x) for k, x in enumerate(lines, 1) if x.strip()), (1, ""))
    start = re.match(r"\s*(?:[A-Z][A-Z0-9]{1,3}(?: *- ?|[ \t])|\S{1,12})", line)
    shown = start.group(0).lstrip().replace("\t", "<TAB>") if start else line[:12]
    return (
        f"read as {fmt.label or fmt.name} (line {number} starts {shown!r}); "
        f"set format: {by_name.name} to read it as {by_name.label or by_name.name}"
    )
