"""A listing file's bytes (gunzipped), its text (UTF-8, UTF-16/32 with a BOM, GB18030), and the
hash of its content that reruns parse_listing (`listing_fingerprint`)."""

from __future__ import annotations

import codecs
import gzip
import hashlib
import json
import os
import re
import warnings
import zlib
from pathlib import Path

from papertopics.errors import ListingError
from papertopics.ingest.formats._common import ListingWarning, one_line
from papertopics.ingest.text import CJK_PUNCTUATION, HAN

__all__ = ["decode", "listing_fingerprint", "read_bytes"]


_RE_HIGH_BYTES = re.compile(rb"[\x80-\xff]+")
_RE_CHINESE = re.compile(f"[{CJK_PUNCTUATION}{HAN}]")


def read_bytes(path: Path) -> bytes:
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
            raise ListingError(f"{path}: not a valid gzip file ({one_line(str(e))})") from None
    return data


def decode(data: bytes, path: Path) -> str:
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
