"""Find listing files from the config and parse each into the parsed-listing table.

A listing is one file of abstracts: the seed text format (header line, then one abstract per
blank-line-separated paragraph), CSV, TSV, JSON or JSONL, each optionally gzipped. Every
problem a user can fix raises ListingError with one line naming the file and the line,
record or field; problems that lose only one record warn (ListingWarning) and go on.
The formats, the bad-input table and the cleaning rules are in docs/listings.md.
"""

from __future__ import annotations

import codecs
import csv
import glob
import gzip
import hashlib
import io
import json
import re
import unicodedata
import warnings
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

if TYPE_CHECKING:  # pandas and pyarrow load lazily: the Snakefile imports this module on every start
    import pandas as pd

from papertopics.clean import clean_text
from papertopics.errors import ConfigError, ListingError

__all__ = [
    "FORMATS",
    "ListingSpec",
    "ListingWarning",
    "doc_id_for",
    "listing_name",
    "read_listing",
    "resolve_listings",
]

FORMATS = ("text", "csv", "tsv", "json", "jsonl")
_FORMAT_ALIASES = {"txt": "text", "md": "text", "markdown": "text", "ndjson": "jsonl"}
_EXT_FORMAT = {".txt": "text", ".md": "text", ".markdown": "text", "": "text",
               ".csv": "csv", ".tsv": "tsv", ".tab": "tsv", ".json": "json",
               ".jsonl": "jsonl", ".ndjson": "jsonl"}
# auto-detected source columns, in order of preference (matched case-insensitively)
TEXT_COLUMNS = ("abstract", "text", "summary")
TITLE_COLUMNS = ("title",)
ID_COLUMNS = ("id", "uid")
BASE_COLUMNS = ("doc_id", "listing", "title", "text_raw", "text")
_RESERVED = frozenset(BASE_COLUMNS) | {"listings", "id"}
_ENTRY_KEYS = frozenset({"path", "name", "format", "columns"})
# header rule for the text format: see _is_header
HEADER_MAX_CHARS = 120
_SENTENCE_END = tuple(".!?。！？…")


class ListingWarning(UserWarning):
    """A listing was read, but something in it was skipped, truncated or guessed."""


@dataclass(frozen=True)
class ListingSpec:
    """One listing file and how to read it (format None: from the extension)."""

    name: str
    path: Path
    format: str | None = None
    columns: dict[str, str] = field(default_factory=dict, hash=False)


# --- resolving config entries ---------------------------------------------------------------


def listing_name(path: str | Path) -> str:
    """File name without listing extensions: 'a/neurips.jsonl.gz' -> 'neurips'."""
    name = Path(path).name
    if name.lower().endswith(".gz"):
        name = name[:-3]
    stem, dot, ext = name.rpartition(".")
    if dot and stem and "." + ext.lower() in _EXT_FORMAT:
        name = stem
    return name


def _entry_error(i: int, msg: str) -> ConfigError:
    return ConfigError(f"listings[{i}]: {msg}")


def resolve_listings(entries: list, base_dir: Path) -> list[ListingSpec]:
    """Expand config `listings` entries (path, glob or mapping) into one spec per file."""
    base_dir = Path(base_dir)
    if isinstance(entries, (str, dict)):
        entries = [entries]
    specs: list[ListingSpec] = []
    seen: dict[str, Path] = {}
    for i, entry in enumerate(entries or []):
        if isinstance(entry, (str, Path)):
            pattern, name, fmt, columns = str(entry), None, None, {}
        elif isinstance(entry, dict):
            unknown = set(entry) - _ENTRY_KEYS
            if unknown:
                raise _entry_error(i, f"unknown key(s) {', '.join(sorted(map(str, unknown)))};"
                                      f" allowed: path, name, format, columns")
            if not isinstance(entry.get("path"), (str, Path)) or not str(entry["path"]):
                raise _entry_error(i, "a mapping needs 'path' (a file or glob)")
            pattern = str(entry["path"])
            name = entry.get("name")
            fmt = entry.get("format")
            columns = entry.get("columns") or {}
            if name is not None and (not isinstance(name, str) or not name.strip()):
                raise _entry_error(i, "'name' must be a non-empty string")
            if fmt is not None:
                fmt = _normalise_format(fmt, lambda m: _entry_error(i, m))
            if not isinstance(columns, dict) or not all(
                isinstance(k, str) and isinstance(v, str) and v for k, v in columns.items()
            ):
                raise _entry_error(i, "'columns' must map output names to source column names,"
                                      " e.g. {text: abstract, title: title}")
        else:
            raise _entry_error(i, f"expected a path, glob or mapping, got {type(entry).__name__}")
        paths = _expand(pattern, base_dir)
        if not paths:
            where = "" if Path(pattern).expanduser().is_absolute() else f" (relative to {base_dir})"
            raise ListingError(f"{pattern}: matches no file{where}")
        if name is not None and len(paths) > 1:
            raise ListingError(f"{pattern}: 'name: {name}' given but the pattern matches "
                               f"{len(paths)} files; drop 'name' or list them one by one")
        for path in paths:
            spec_name = name.strip() if name is not None else listing_name(path)
            if not spec_name or ";" in spec_name or "/" in spec_name or "\\" in spec_name:
                raise ListingError(f"{path}: listing name {spec_name!r} must be non-empty and "
                                   f"contain no ';', '/' or '\\'")
            if spec_name in seen:
                raise ListingError(f"{path}: listing name {spec_name!r} is also used by "
                                   f"{seen[spec_name]}; give one of them a 'name'")
            seen[spec_name] = path
            specs.append(ListingSpec(spec_name, path, fmt, dict(columns)))
    return specs


def _expand(pattern: str, base_dir: Path) -> list[Path]:
    full = Path(pattern).expanduser()
    rel = not full.is_absolute()
    if not glob.has_magic(pattern):
        path = base_dir / full if rel else full
        return [path] if path.is_file() else []
    root = str(base_dir) if rel else None
    matches = sorted(glob.glob(pattern, root_dir=root, recursive=True))
    paths = [base_dir / m if rel else Path(m) for m in matches]
    return [p for p in paths if p.is_file()]


def _normalise_format(fmt: Any, error) -> str:
    key = str(fmt).strip().lower().lstrip(".")
    key = _FORMAT_ALIASES.get(key, key)
    if key not in FORMATS:
        raise error(f"unknown format {fmt!r}; use one of {', '.join(FORMATS)}")
    return key


def format_for(path: Path) -> str:
    """Format from the extension (after an optional .gz)."""
    name = Path(path).name.lower()
    if name.endswith(".gz"):
        name = name[:-3]
    ext = Path(name).suffix
    fmt = _EXT_FORMAT.get(ext)
    if fmt is None:
        # names such as 'listing.2026' have no listing extension: the text format
        if not re.fullmatch(r"\.[a-z][a-z0-9]*", ext):
            return "text"
        raise ListingError(f"{path}: unknown extension {ext!r}; set 'format' in the listing "
                           f"entry (one of {', '.join(FORMATS)})")
    return fmt


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


# --- bytes -> str ---------------------------------------------------------------------------

_RE_HIGH_BYTES = re.compile(rb"[\x80-\xff]+")
_RE_CJK = re.compile(r"[\u3000-\u303f\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]")


def _read_bytes(path: Path) -> bytes:
    try:
        data = Path(path).read_bytes()
    except FileNotFoundError:
        raise ListingError(f"{path}: file not found") from None
    except IsADirectoryError:
        raise ListingError(f"{path}: is a directory, not a listing file") from None
    except OSError as e:
        raise ListingError(f"{path}: cannot read ({e.strerror or e})") from None
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as e:
            raise ListingError(f"{path}: not a valid gzip file ({_one_line(str(e))})") from None
    return data


def _decode(data: bytes, path: Path) -> str:
    """UTF-8 (BOM optional), UTF-16/32 with BOM, GB18030 with a warning; else fail."""
    for bom, codec in ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
                       (codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"),
                       (codecs.BOM_UTF16_BE, "utf-16")):
        if data.startswith(bom):
            try:
                return data.decode(codec)
            except UnicodeDecodeError as e:
                shown = codec.upper().replace("-SIG", "")
                raise ListingError(f"{path}: invalid {shown} at byte offset {e.start}"
                                   f" ({e.reason})") from None
    nul = data.find(b"\x00")
    if nul >= 0:
        raise ListingError(f"{path}: binary file (NUL byte at offset {nul}); a listing is "
                           f"text: UTF-8, or UTF-16 with a byte-order mark")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        err = e
    try:
        text = data.decode("gb18030")
    except UnicodeDecodeError:
        text = None
    if text is not None and _looks_gb18030(data, text):
        warnings.warn(f"{path}: not UTF-8; decoded as GB18030 (save it as UTF-8 to "
                      f"silence this)", ListingWarning, stacklevel=4)
        return text
    line = data.count(b"\n", 0, err.start) + 1
    raise ListingError(f"{path}: not UTF-8: byte 0x{data[err.start]:02x} at offset {err.start}"
                       f" (line {line}); save the file as UTF-8")


def _looks_gb18030(data: bytes, text: str) -> bool:
    """Chinese text in GB18030: mostly CJK, high bytes in pairs (cp1252 has them alone)."""
    runs = _RE_HIGH_BYTES.findall(data)
    if not runs or sum(1 for r in runs if len(r) == 1) > 0.2 * len(runs):
        return False
    non_ascii = sum(1 for ch in text if ord(ch) > 127)
    return len(_RE_CJK.findall(text)) * 2 >= non_ascii


def _one_line(s: str, limit: int = 80) -> str:
    s = " ".join(str(s).split())
    return s if len(s) <= limit else s[: limit - 3] + "..."


# --- records --------------------------------------------------------------------------------


def _value(v: Any) -> str:
    """Metadata value as text: lists joined with '; ', objects and nested lists as JSON."""
    if v is None:
        return ""
    if isinstance(v, str):
        return v
    if isinstance(v, (list, tuple)):
        return "; ".join(s for s in map(_scalar, v) if s)
    return _scalar(v)


def _scalar(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, str):
        return v
    if isinstance(v, (dict, list, tuple)):
        try:
            return json.dumps(v, ensure_ascii=False)
        except (RecursionError, ValueError):
            return ""
    if isinstance(v, float) and v != v:  # NaN
        return ""
    return str(v)


_RE_LONE_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def _fix_surrogates(rec: dict) -> dict:
    """JSON may escape half a UTF-16 pair ("\\ud800"); such text cannot be stored."""
    return {k.encode("utf-8", "replace").decode("utf-8") if isinstance(k, str) else k:
            v.encode("utf-8", "replace").decode("utf-8") if isinstance(v, str) else
            [x.encode("utf-8", "replace").decode("utf-8") if isinstance(x, str) else x
             for x in v] if isinstance(v, list) else v
            for k, v in rec.items()}


def _text_records(text: str, path: Path) -> tuple[list[tuple[str, dict]], str]:
    """Paragraphs of the seed format -> ([(where, {'text': raw})], header)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\u2029", "\n\n")
    text = text.replace("\u2028", "\n").replace("\x0c", "\n")
    paragraphs: list[tuple[int, list[str]]] = []
    current: list[str] = []
    start = 0
    for lineno, line in enumerate(text.split("\n"), 1):
        if line.strip():
            if not current:
                start = lineno
            current.append(line)
        elif current:
            paragraphs.append((start, current))
            current = []
    if current:
        paragraphs.append((start, current))
    if not paragraphs:
        raise ListingError(f"{path}: empty file (no text)")
    header = ""
    if _is_header(paragraphs[0][1]):
        header = paragraphs[0][1][0].strip().lstrip("#").strip()
        paragraphs = paragraphs[1:]
        if not paragraphs:
            raise ListingError(f"{path}: header {_one_line(header, 40)!r} but no abstracts "
                               f"(one abstract per blank-line-separated paragraph)")
    records = []
    for start, lines in paragraphs:
        if len(lines) == 1 and lines[0].lstrip().startswith("#"):
            continue  # a markdown section heading, not an abstract
        records.append((f"line {start}", {"text": "\n".join(lines).strip()}))
    if not records:
        raise ListingError(f"{path}: no abstracts, only headings")
    return records, header


def _is_header(lines: list[str]) -> bool:
    """The first paragraph is a header if it is one short line without a sentence end."""
    if len(lines) != 1:
        return False
    line = lines[0].strip()
    if line.startswith("#"):
        return True
    return len(line) <= HEADER_MAX_CHARS and not line.endswith(_SENTENCE_END)


def _csv_records(text: str, path: Path, delimiter: str) -> tuple[list[str], list]:
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.strip():
        raise ListingError(f"{path}: empty file")
    csv.field_size_limit(max(csv.field_size_limit(), 1 << 30))
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter, strict=True)
    header: list[str] | None = None
    records: list[tuple[str, dict]] = []
    line = 1
    try:
        for row in reader:
            where = f"line {line}"
            line = reader.line_num + 1
            if not row or all(not c.strip() for c in row):
                continue
            if header is None:
                header = [c.strip() for c in row]
                continue
            if len(row) != len(header):
                raise ListingError(f"{path}: {where}: {len(row)} fields, the header has "
                                   f"{len(header)} (a stray delimiter or quote?)")
            records.append((where, dict(zip(header, row))))
    except csv.Error as e:
        raise ListingError(f"{path}: line {reader.line_num}: malformed "
                           f"{'TSV' if delimiter == chr(9) else 'CSV'} ({e})") from None
    if header is None:
        raise ListingError(f"{path}: empty file")
    if not records:
        raise ListingError(f"{path}: header row but no records")
    return header, records


def _jsonl_records(text: str, path: Path) -> tuple[list[str], list]:
    records: list[tuple[str, dict]] = []
    keys: dict[str, None] = {}
    loads = json.loads
    for lineno, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            rec = loads(line)
        except (json.JSONDecodeError, RecursionError) as e:
            msg = e.msg if isinstance(e, json.JSONDecodeError) else "nested too deeply"
            raise ListingError(f"{path}: line {lineno}: invalid JSON ({msg})") from None
        if not isinstance(rec, dict):
            raise ListingError(f"{path}: line {lineno}: expected a JSON object, got "
                               f"{_json_type(rec)}")
        if len(keys) < 1000:
            for k in rec:
                keys[k] = None
        records.append((f"line {lineno}", rec))
    if not records:
        raise ListingError(f"{path}: empty file (no JSON lines)")
    return list(keys), records


def _json_records(text: str, path: Path) -> tuple[list[str], list]:
    if not text.strip():
        raise ListingError(f"{path}: empty file")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise ListingError(f"{path}: line {e.lineno}: invalid JSON ({e.msg})") from None
    except RecursionError:
        raise ListingError(f"{path}: invalid JSON (nested too deeply)") from None
    if isinstance(data, dict) and len(data) == 1 and isinstance(next(iter(data.values())), list):
        data = next(iter(data.values()))  # {"papers": [...]}
    if not isinstance(data, list):
        raise ListingError(f"{path}: expected a list of records (or {{\"papers\": [...]}}), "
                           f"got {_json_type(data)}")
    if not data:
        raise ListingError(f"{path}: no records (empty list)")
    keys: dict[str, None] = {}
    records = []
    for i, rec in enumerate(data, 1):
        if not isinstance(rec, dict):
            raise ListingError(f"{path}: record {i}: expected a JSON object, got "
                               f"{_json_type(rec)}")
        for k in rec:
            keys[k] = None
        records.append((f"record {i}", rec))
    return list(keys), records


def _json_type(v: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean",
            type(None): "null"}.get(type(v), "a number")


# --- columns --------------------------------------------------------------------------------


def _find(columns: list[str], wanted: str) -> str | None:
    if wanted in columns:
        return wanted
    low = wanted.strip().casefold()
    return next((c for c in columns if str(c).strip().casefold() == low), None)


def _plan_columns(found: list[str], mapping: dict[str, str], path: Path):
    """-> (text_col, title_col, id_col, [(out_name, src_col)]) for the source columns."""
    roles: dict[str, str | None] = {}
    extras: list[tuple[str, str]] = []
    shown = ", ".join(map(str, found[:30])) + (" ..." if len(found) > 30 else "")
    for out, src in mapping.items():
        col = _find(found, src)
        if col is None:
            raise ListingError(f"{path}: column {src!r} (columns.{out}) not found; columns "
                               f"found: {shown}")
        if out in ("text", "abstract"):
            roles["text"] = col
        elif out in ("title", "id"):
            roles[out] = col
        else:
            extras.append((out, col))
    for role, candidates in (("text", TEXT_COLUMNS), ("title", TITLE_COLUMNS),
                             ("id", ID_COLUMNS)):
        if role not in roles:
            roles[role] = next((c for c in map(lambda w: _find(found, w), candidates) if c),
                               None)
    if roles["text"] is None:
        raise ListingError(f"{path}: no text column (looked for {', '.join(TEXT_COLUMNS)}); "
                           f"columns found: {shown or '(none)'}; set 'columns: {{text: ...}}'")
    used = {c for c in roles.values() if c} | {c for _, c in extras}
    taken = {o for o, _ in extras}
    for col in found:
        if col in used:
            continue
        out = str(col).strip() or "column"
        if out in _RESERVED or out in taken:
            out = f"src_{out}"
        while out in _RESERVED or out in taken:
            out += "_"
        taken.add(out)
        extras.append((out, col))
    return roles["text"], roles["title"], roles["id"], extras


# --- public ---------------------------------------------------------------------------------


def read_listing(spec: ListingSpec, *, max_chars: int = 100_000) -> pd.DataFrame:
    """Parse one listing into the parsed-listing table (see docs/design.md)."""
    path = spec.path
    fmt = (_normalise_format(spec.format, lambda m: ListingError(f"{path}: {m}"))
           if spec.format else format_for(path))
    data = _read_bytes(path)
    if not data.strip():
        raise ListingError(f"{path}: empty file")
    text = _decode(data, path)
    header_title = ""
    if fmt == "text":
        records, header_title = _text_records(text, path)
        text_col, title_col, id_col, extras = None, None, None, []
    else:
        if fmt in ("csv", "tsv"):
            columns, records = _csv_records(text, path, "," if fmt == "csv" else "\t")
        elif fmt == "jsonl":
            columns, records = _jsonl_records(text.lstrip("\ufeff"), path)
        else:
            columns, records = _json_records(text.lstrip("\ufeff"), path)
        if _RE_LONE_SURROGATE_ESCAPE.search(text):
            columns = [c.encode("utf-8", "replace").decode("utf-8") for c in columns]
            records = [(where, _fix_surrogates(rec)) for where, rec in records]
        text_col, title_col, id_col, extras = _plan_columns(columns, spec.columns, path)
    return _frame(spec, records, text_col, title_col, id_col, extras, max_chars, header_title)


def _frame(spec, records, text_col, title_col, id_col, extras, max_chars, header_title):
    path = spec.path
    out: dict[str, list[str]] = {c: [] for c in BASE_COLUMNS}
    if id_col is not None:
        out["id"] = []
    for name, _ in extras:
        out[name] = []
    empty: list[str] = []
    truncated: list[str] = []
    for where, rec in records:
        raw = _value(rec.get(text_col if text_col is not None else "text")).strip()
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
        out["title"].append(" ".join(_value(rec.get(title_col)).split()) if title_col else "")
        if id_col is not None:
            out["id"].append(_value(rec.get(id_col)).strip())
        for name, col in extras:
            out[name].append(_value(rec.get(col)))
    n = len(out["doc_id"])
    if n == 0:
        field_ = "text" if text_col is None else repr(text_col)
        if len(records) == 1:
            raise ListingError(f"{path}: no abstracts: the only record ({records[0][0]}) has "
                               f"an empty {field_}")
        raise ListingError(f"{path}: no abstracts: all {len(records)} records have an empty "
                           f"{field_}")
    if empty:
        warnings.warn(f"{path}: skipped {len(empty)} record(s) with an empty abstract: "
                      f"{_listing_of(empty)}", ListingWarning, stacklevel=3)
    if truncated:
        warnings.warn(f"{path}: truncated {len(truncated)} abstract(s) to max_chars="
                      f"{max_chars:,}: {_listing_of(truncated)}", ListingWarning, stacklevel=3)
    out["listing"] = [spec.name] * n
    import pyarrow as pa

    # via Arrow: three times faster than pd.DataFrame(out, dtype=str), same "str" dtype
    df = pa.table({k: pa.array(v, type=pa.large_string()) for k, v in out.items()}).to_pandas()
    df.attrs["listing_title"] = header_title
    return df


def _listing_of(items: Iterable[str], limit: int = 5) -> str:
    items = list(items)
    shown = ", ".join(items[:limit])
    return shown + (f" and {len(items) - limit} more" if len(items) > limit else "")
