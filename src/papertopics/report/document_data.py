"""The document map's data files: every document's headline and id in `data/headlines.js` (gzip),
its abstract, metadata and similar papers in `data/docs-<k>.js` (Brotli, raw bytes in a string;
`CHUNK_DOCUMENTS` consecutive documents per file), loaded by the page with `<script>` tags (see
report.documents). Written by report.pack (the pack_documents job) or by render_report."""

from __future__ import annotations

import gzip
import json

import brotli
import numpy as np
import pandas as pd

from papertopics.report.text import HEADLINE_CHARS, headline

# Documents per data file: a click loads one file (~0.3 MB of arXiv abstracts).
CHUNK_DOCUMENTS = 1500
CHUNK_FOLDER = "data"
HEADLINES_FILE = "headlines.js"
# Brotli at its best (quality 11) keeps 0.76 of gzip's bytes on abstracts (75k arXiv: 36.7 -> 28.4 MB)
# at ~0.5 MB/s per core, paid once per corpus; quality 9 keeps 0.85 at ~10 MB/s. Below
# BROTLI_BEST_FROM documents the report is small and the seconds count for more (NeurIPS 2023:
# 1.48 MB in 9.2 s at 11, 1.61 MB in 0.8 s at 9). A 4 MB window holds a whole file.
BROTLI_BEST_FROM = 20_000
BROTLI_WINDOW = 22


def brotli_quality(n_documents: int) -> int:
    return 11 if n_documents >= BROTLI_BEST_FROM else 9


def document_headlines(documents: pd.DataFrame, max_chars: int = HEADLINE_CHARS) -> list[str]:
    return [headline(title, text, max_chars) for title, text in zip(documents["title"], documents["text"])]


def chunk_rows(n: int, size: int = CHUNK_DOCUMENTS) -> list[range]:
    """The rows of each data file: `size` consecutive documents, so a document's file is row // size."""
    return [range(start, min(start + size, n)) for start in range(0, n, size)]


def document_chunks(
    documents: pd.DataFrame,
    extra_columns: list[str],
    neighbours: pd.DataFrame | None = None,
    headlines: list[str] | None = None,
) -> list[dict]:
    """Per data file: its first row, and per row the title, abstract, metadata and similar papers.

    A title equal to the document's headline (data/headlines.js) is sent as null: the page has it.
    """
    row_of = pd.Series(np.arange(len(documents)), index=documents["doc_id"].to_numpy())
    similar: dict[int, list] = {}
    if neighbours is not None and len(neighbours):
        rows = row_of.loc[neighbours["doc_id"]].to_numpy()
        others = row_of.loc[neighbours["neighbour_id"]].to_numpy()
        sims = np.round(neighbours["similarity"].to_numpy(dtype=float), 3)
        for row, other, sim in zip(rows.tolist(), others.tolist(), sims.tolist()):
            similar.setdefault(row, []).append([other, sim])
    columns = [column for column in extra_columns if documents[column].astype(str).str.len().gt(0).any()]
    title, text = documents["title"].tolist(), documents["text"].tolist()
    if headlines is not None:
        title = [None if t == h else t for t, h in zip(title, headlines)]
    extra = {column: documents[column].tolist() for column in columns}
    return [
        {
            "first": rows.start,
            "title": title[rows.start : rows.stop],
            "text": text[rows.start : rows.stop],
            "extra": {column: values[rows.start : rows.stop] for column, values in extra.items()},
            "similar": [similar.get(r, []) for r in rows],
        }
        for rows in chunk_rows(len(documents))
    ]


def headlines_script(headlines: list[str], doc_ids: list[str]) -> bytes:
    """data/headlines.js: every document's headline and id, packed like the chunks but with gzip.

    The map waits for this file: the browser inflates gzip natively, off the main thread, where
    the JS Brotli decoder would block it for ~0.6 s at 75k (7.9 MB of JSON; +0.76 MB with gzip).
    """
    return packed_call(b"papertopicsHeadlines(", {"headline": headlines, "doc_id": doc_ids}, codec="gzip")


def chunk_script(index: int, chunk: dict, quality: int = 11) -> bytes:
    """A data file: one call with the chunk's JSON, Brotli-compressed, as a string of raw bytes.

    The page loads the file with `charset="windows-1252"`, which maps every byte to one character,
    so the compressed bytes travel with 1-2 % escaping instead of base64's 33 %; the script maps
    the characters back to bytes and decompresses them. No listing text is ever code: the literal
    holds compressed bytes only, with `\\`, `"`, line breaks and NUL escaped.
    """
    return packed_call(b"papertopicsChunk(%d," % int(index), chunk, quality=quality)


def packed_call(call: bytes, value, codec: str = "br", quality: int = 11) -> bytes:
    """`call"<Brotli (or gzip) bytes of value's JSON, as windows-1252 characters>");` (see chunk_script)."""
    raw = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8")
    if codec == "gzip":
        data = gzip.compress(raw, compresslevel=6, mtime=0)
    else:
        data = brotli.compress(raw, quality=quality, lgwin=BROTLI_WINDOW)
    for byte, escaped in (
        (b"\\", b"\\\\"),
        (b'"', b'\\"'),
        (b"\n", b"\\n"),
        (b"\r", b"\\r"),
        (b"\x00", b"\\x00"),
    ):
        data = data.replace(byte, escaped)
    return call + b'"' + data + b'");\n'
