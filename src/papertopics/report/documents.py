"""Document map: every document a point at its 2-D UMAP position, coloured by topic, named like a map.

What the page needs at once is small and packed: coordinates as base64 Float32 arrays, topic
and chunk ids, one headline per document (for the tooltip), the names and anchors of the topics
and regions. Every document's headline and id sit in `data/headlines.js`, its abstract, metadata
and similar papers in `data/docs-<k>.js` (Brotli, raw bytes in a string; 1,500 consecutive
documents of the corpus per file), which the page loads with `<script>` tags when a document is
opened or a search needs them (`<script>` works on `file://`, `fetch` does not). The data files
depend on the corpus and its neighbours only, not on the topics: the pipeline packs them once per
corpus (rule pack_documents) and every report links them. Text reaches the page only through
`textContent`; Plotly draws no listing text (the tooltip is the page's own).
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import brotli
import numpy as np
import pandas as pd
import plotly.graph_objects as go
from scipy.cluster.hierarchy import fcluster, linkage

from papertopics.artifacts import atomic_write_text
from papertopics.constants import ASSIGNED_CORE, ASSIGNED_NEAREST, REPORT_DATA_VERSION
from papertopics.report.colors import topic_color
from papertopics.report.inputs import (
    ASSIGNMENT_COLUMNS,
    DOCUMENT_COLUMNS,
    normalise_neighbours,
    split_listings,
)
from papertopics.report.pinned import PIN, pinned_topic_ids
from papertopics.report.text import headline, truncate
from papertopics.topics.tree import region_count

# Above this many points the map uses WebGL (scattergl); SVG stays crisper for small corpora.
WEBGL_THRESHOLD = 1000
# Documents per data file: a click loads one file (~0.3 MB of arXiv abstracts).
CHUNK_DOCUMENTS = 1500
CHUNK_FOLDER = "data"
HEADLINES_FILE = "headlines.js"
# What pack_documents writes beside its data folder, so a report can tell whether the data fits it.
MANIFEST_FILE = "documents.json"
# A headline (title or first sentence) is kept to this many characters in data/headlines.js; the
# tooltip shortens it further to report.max_hover_chars, so that setting never repacks the data.
HEADLINE_CHARS = 150
# Brotli at its best (quality 11) keeps 0.76 of gzip's bytes on abstracts (75k arXiv: 36.7 -> 28.4 MB)
# at ~0.5 MB/s per core, paid once per corpus; quality 9 keeps 0.85 at ~10 MB/s. Below
# BROTLI_BEST_FROM documents the report is small and the seconds count for more (NeurIPS 2023:
# 1.48 MB in 9.2 s at 11, 1.61 MB in 0.8 s at 9). A 4 MB window holds a whole file.
BROTLI_BEST_FROM = 20_000
BROTLI_WINDOW = 22


def brotli_quality(n_documents: int) -> int:
    return 11 if n_documents >= BROTLI_BEST_FROM else 9


def document_headlines(documents: pd.DataFrame, max_chars: int = 200) -> list[str]:
    return [headline(title, text, max_chars) for title, text in zip(documents["title"], documents["text"])]


def packed(values: np.ndarray, dtype: str) -> str:
    """A numeric array as base64 of its little-endian bytes (read with a JS typed array)."""
    return base64.b64encode(
        np.ascontiguousarray(values, dtype=np.dtype(dtype).newbyteorder("<")).tobytes()
    ).decode("ascii")


def chunk_rows(n: int, size: int = CHUNK_DOCUMENTS) -> list[range]:
    """The rows of each data file: `size` consecutive documents, so a document's file is row // size."""
    return [range(start, min(start + size, n)) for start in range(0, n, size)]


def topic_anchors(documents: pd.DataFrame, map2d: pd.DataFrame, topics: pd.DataFrame) -> pd.DataFrame:
    """Where each topic's name goes: the median of its (core) points, so a few strays do not pull it."""
    frame = pd.DataFrame(
        {
            "topic": documents["topic"].to_numpy(),
            "x": map2d["x"].to_numpy(dtype=float),
            "y": map2d["y"].to_numpy(dtype=float),
        }
    )
    if "assignment" in documents.columns:
        core = documents["assignment"].isin([ASSIGNED_CORE, ""]).to_numpy()
        has_core = frame[core].groupby("topic").size()
        frame = frame[core | ~frame["topic"].isin(has_core.index).to_numpy()]
    anchors = frame.groupby("topic")[["x", "y"]].median()
    table = topics[topics["topic"] >= 0][["topic", "label", "size"]].copy()
    table = table[table["topic"].isin(anchors.index)]
    table["x"] = anchors.loc[table["topic"], "x"].to_numpy()
    table["y"] = anchors.loc[table["topic"], "y"].to_numpy()
    return table.reset_index(drop=True)


def topic_regions(topics: pd.DataFrame, anchors: pd.DataFrame) -> tuple[dict[int, int], pd.DataFrame]:
    """{topic: region} and one row per region (region, label, x, y, size).

    From topics.csv's `region`/`region_label` (the hierarchy's cut) when present; otherwise
    regions are derived from the topics' positions on the map (Ward linkage of the anchors into
    as many regions as the names stage cuts, topics.tree.region_count, each named after its largest
    topic); a handful of topics are their own regions.
    """
    anchors = anchors.sort_values("topic").reset_index(drop=True)
    if anchors.empty:
        return {}, pd.DataFrame(columns=["region", "label", "x", "y", "size"])
    table = topics.set_index("topic")
    given = "region" in topics.columns and "region_label" in topics.columns
    if given:
        region = pd.to_numeric(table.loc[anchors["topic"], "region"], errors="coerce")
        given = region.notna().all()
    if given:
        region_of = dict(zip(anchors["topic"].astype(int), region.astype(int)))
        names = {
            int(r): str(label)
            for r, label in zip(
                pd.to_numeric(topics["region"], errors="coerce").fillna(-1),
                topics["region_label"].fillna("").astype(str),
            )
        }
    elif region_count(len(anchors)) >= len(anchors):
        region_of = {int(t): i for i, t in enumerate(anchors["topic"])}
        names = {}
    else:
        k = region_count(len(anchors))
        points = anchors[["x", "y"]].to_numpy(dtype=float)
        cut = fcluster(linkage(points, method="ward"), t=k, criterion="maxclust")
        region_of = dict(zip(anchors["topic"].astype(int), (cut - 1).astype(int)))
        names = {}
    rows = []
    frame = anchors.assign(region=anchors["topic"].map(region_of))
    for region, members in frame.groupby("region"):
        members = members.sort_values("size", ascending=False)
        weights = members["size"].to_numpy(dtype=float) + 1e-9
        label = names.get(int(region)) or (
            truncate(members["label"].iloc[0], 34)
            + (f" & {len(members) - 1} more" if len(members) > 1 else "")
        )
        # the label sits on the region's own documents: at the anchor (a median of a topic's
        # points) nearest the region's centre, never in the gap between its topics
        cx, cy = np.average(members["x"], weights=weights), np.average(members["y"], weights=weights)
        nearest = int(np.argmin((members["x"].to_numpy() - cx) ** 2 + (members["y"].to_numpy() - cy) ** 2))
        rows.append(
            {
                "region": int(region),
                "label": label,
                "size": int(members["size"].sum()),
                "x": float(members["x"].iloc[nearest]),
                "y": float(members["y"].iloc[nearest]),
            }
        )
    return region_of, pd.DataFrame(rows)


def visualize_documents(
    documents: pd.DataFrame, map2d: pd.DataFrame, topics: pd.DataFrame, *, height: int = 720, **_ignored
) -> go.Figure:
    """One empty trace per topic (outliers first, grey, underneath) plus a 'search matches' trace.

    The page script fills the coordinates from the packed arrays of `document_payload`.
    """
    webgl = len(documents) > WEBGL_THRESHOLD
    kind = go.Scattergl if webgl else go.Scatter
    marker_size = 5 if len(documents) > 20000 else 6 if webgl else 10
    present = set(documents["topic"].astype(int))
    order = [t for t in topics["topic"].astype(int) if t < 0] + [
        t for t in topics["topic"].astype(int) if t >= 0
    ]
    figure = go.Figure()
    for topic in order:
        if topic not in present:
            continue
        outlier = topic < 0
        figure.add_trace(
            kind(
                x=[],
                y=[],
                customdata=[],
                hoverinfo="none",
                mode="markers",
                name=f"topic {topic}",
                showlegend=False,
                meta={"topic": int(topic)},
                marker={
                    "size": marker_size - 1 if outlier else marker_size,
                    "color": topic_color(topic),
                    "opacity": 0.5 if outlier else 0.85,
                    "line": {"width": 0 if webgl else 0.5, "color": "#ffffff"},
                },
            )
        )
    figure.add_trace(
        kind(
            x=[],
            y=[],
            customdata=[],
            hoverinfo="none",
            mode="markers",
            name="search matches",
            meta={"topic": None, "role": "matches"},
            showlegend=False,
            marker={
                "size": marker_size + 6,
                "color": "rgba(0,0,0,0)",
                "line": {"width": 2, "color": "#111111"},
            },
        )
    )
    figure.update_layout(
        template="plotly_white",
        height=height,
        margin={"l": 6, "r": 6, "t": 6, "b": 6},
        xaxis={"visible": False},
        yaxis={"visible": False, "scaleanchor": "x", "scaleratio": 1},
        showlegend=False,
        dragmode="pan",
        uirevision="keep",
    )
    return figure


def document_payload(
    documents: pd.DataFrame,
    map2d: pd.DataFrame,
    topics: pd.DataFrame,
    listings: list[str],
    display_names: dict[str, str] | None = None,
    *,
    has_neighbours: bool = False,
    max_hover_chars: int = HEADLINE_CHARS,
) -> dict:
    """What the page needs at once (no abstracts): packed arrays and the names on the map."""
    display_names = display_names or {}
    index = {name: i for i, name in enumerate(listings)}
    topic_array = documents["topic"].to_numpy(dtype=np.int64)
    nearest = (
        (documents["assignment"].to_numpy() == ASSIGNED_NEAREST)
        if "assignment" in documents.columns
        else None
    )
    anchors = topic_anchors(documents, map2d, topics)
    region_of, regions = topic_regions(topics, anchors)
    pins = set(pinned_topic_ids(topics))  # topics.pinned: marked on the map
    topic_list = [
        {
            "topic": int(row.topic),
            "label": (PIN if int(row.topic) in pins else "") + str(row.label),
            "size": int(row.size),
            "color": topic_color(int(row.topic)),
            "region": int(region_of.get(int(row.topic), -1)),
            "x": round(float(row.x), 4),
            "y": round(float(row.y), 4),
        }
        for row in anchors.itertuples()
    ]
    outliers = topics[topics["topic"] < 0]
    topic_list += [
        {
            "topic": int(t),
            "label": str(label),
            "size": int(s),
            "color": topic_color(int(t)),
            "region": -1,
            "x": None,
            "y": None,
        }
        for t, label, s in zip(outliers["topic"], outliers["label"], outliers["size"])
        if int(s) > 0
    ]
    return {
        "n": len(documents),
        # the headlines and ids (tooltips, lists, the first search) are packed in a data file
        "headline_file": f"{CHUNK_FOLDER}/{HEADLINES_FILE}",
        "hover_chars": int(max_hover_chars),  # the tooltip shortens a headline to this
        "topic": topic_array.tolist(),
        "x": packed(map2d["x"].to_numpy(dtype=float), "f4"),
        "y": packed(map2d["y"].to_numpy(dtype=float), "f4"),
        "nearest": packed(nearest, "u1") if nearest is not None and nearest.any() else None,
        "chunk_documents": CHUNK_DOCUMENTS,  # document r is in data/docs-<r // chunk_documents>.js
        "n_chunks": len(chunk_rows(len(documents))),
        "chunk_folder": CHUNK_FOLDER,
        "listings": [
            [index[name] for name in split_listings(cell) if name in index] for cell in documents["listings"]
        ],
        "listing_names": [display_names.get(name, name) for name in listings],
        "topics": topic_list,
        "regions": regions.round(4).to_dict("records"),
        "topic_labels": {str(int(t)): label for t, label in zip(topics["topic"], topics["label"])},
        "topic_colors": {str(int(t)): topic_color(int(t)) for t in topics["topic"]},
        "has_neighbours": bool(has_neighbours),
    }


def topic_download_payload(documents: pd.DataFrame, topics: pd.DataFrame) -> dict:
    """What the overview's "download these papers (CSV)" buttons need: every document's topic,
    packed, and where the data files are; the titles, abstracts and metadata are read from the
    document map's data files (loaded by <script>, so it works offline) when a button is pressed."""
    topic = documents["topic"].to_numpy(dtype=np.int64)
    small = not len(topic) or (topic.min() >= -(2**15) and topic.max() < 2**15)
    return {
        "n": len(documents),
        "topic": packed(topic, "i2" if small else "i4"),
        "topic_bytes": 2 if small else 4,
        "labels": {str(int(t)): str(label) for t, label in zip(topics["topic"], topics["label"])},
        "headline_file": f"{CHUNK_FOLDER}/{HEADLINES_FILE}",
        "chunk_documents": CHUNK_DOCUMENTS,
        "n_chunks": len(chunk_rows(len(documents))),
        "chunk_folder": CHUNK_FOLDER,
    }


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


def data_key(documents: pd.DataFrame, extra_columns: list[str]) -> str:
    """What the data files depend on besides the texts: their format, the documents' order, the columns."""
    digest = hashlib.sha256()
    parts = [str(REPORT_DATA_VERSION), str(HEADLINE_CHARS), *extra_columns, ""]
    for part in [*parts, *documents["doc_id"].astype(str)]:
        digest.update(part.encode("utf-8") + b"\n")
    return digest.hexdigest()


def write_document_data(
    documents: pd.DataFrame,
    extra_columns: list[str],
    neighbours: pd.DataFrame | None,
    folder: str | Path,
    *,
    manifest: str | Path | None = None,
    threads: int = 1,
) -> list[Path]:
    """headlines.js and docs-<k>.js into `folder` (emptied first), then the manifest if asked.

    Brotli releases the GIL, so `threads` files compress side by side. The manifest
    (pack_documents' documents.json) is written last: a pack without one is incomplete.
    """
    folder = Path(folder)
    if manifest is not None:
        Path(manifest).unlink(missing_ok=True)
    if folder.exists():
        for stale in folder.iterdir():  # files of a previous, bigger corpus must not linger
            stale.unlink()
    folder.mkdir(parents=True, exist_ok=True)
    headlines = document_headlines(documents, HEADLINE_CHARS)
    quality = brotli_quality(len(documents))
    chunks = document_chunks(documents, extra_columns, neighbours, headlines)
    jobs = [(folder / HEADLINES_FILE, lambda: headlines_script(headlines, documents["doc_id"].tolist()))]
    jobs += [
        (folder / f"docs-{index}.js", lambda index=index, chunk=chunk: chunk_script(index, chunk, quality))
        for index, chunk in enumerate(chunks)
    ]

    def write(job) -> Path:
        path, build = job
        path.write_bytes(build())
        return path

    with ThreadPoolExecutor(max(1, threads)) as pool:
        written = list(pool.map(write, jobs))
    if manifest is None:
        return written
    atomic_write_text(
        Path(manifest),
        json.dumps(
            {
                "format": REPORT_DATA_VERSION,
                "key": data_key(documents, extra_columns),
                "documents": len(documents),
                "files": len(written),
            }
        ),
    )
    return written


def packed_data_fits(packed: str | Path, documents: pd.DataFrame, extra_columns: list[str]) -> bool:
    """Whether pack_documents' folder holds this report's documents, in its order, as it would write them."""
    manifest = Path(packed) / MANIFEST_FILE
    if not manifest.exists():
        return False
    written = json.loads(manifest.read_text(encoding="utf-8"))
    return written.get("key") == data_key(documents, extra_columns)


def pack_documents(
    readable: pd.DataFrame,
    neighbours: pd.DataFrame | None,
    out_dir: str | Path,
    threads: int = 1,
) -> list[Path]:
    """pack_documents: the report's data files for a corpus (topics.reading_table), before any topic.

    They are what render_report would write for document_topics.csv (same order, same columns read
    as text), so every report of the corpus links them instead of compressing the abstracts again.
    """
    documents = readable.copy()
    for column in documents.columns:
        documents[column] = documents[column].fillna("").astype(str)
    extra = [c for c in documents.columns if c not in DOCUMENT_COLUMNS and c not in ASSIGNMENT_COLUMNS]
    if neighbours is not None:
        neighbours = normalise_neighbours(neighbours, documents)
    out_dir = Path(out_dir)
    return write_document_data(
        documents,
        extra,
        neighbours,
        out_dir / CHUNK_FOLDER,
        manifest=out_dir / MANIFEST_FILE,
        threads=threads,
    )
