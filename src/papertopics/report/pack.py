"""The pack_documents job: the document map's data files for a corpus, written once and linked by
every report of it (report.document_data holds their format), with a manifest that says which
documents, in which order, they hold."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pandas as pd

from papertopics.artifacts import atomic_write_text
from papertopics.constants import REPORT_DATA_VERSION
from papertopics.report.document_data import (
    CHUNK_FOLDER,
    HEADLINES_FILE,
    brotli_quality,
    chunk_script,
    document_chunks,
    document_headlines,
    headlines_script,
)
from papertopics.report.inputs import ASSIGNMENT_COLUMNS, DOCUMENT_COLUMNS, ReportInputs, normalise_neighbours
from papertopics.report.text import HEADLINE_CHARS

log = logging.getLogger(__name__)

# What pack_documents writes beside its data folder, so a report can tell whether the data fits it.
MANIFEST_FILE = "documents.json"


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


def write_document_chunks(
    inputs: ReportInputs, out_dir: Path, packed: str | Path | None = None
) -> list[Path]:
    """data/: every document's headline and id, and its abstract, metadata and similar papers.

    `packed` is pack_documents' folder (data/ and documents.json): when it holds these documents
    as this report would write them, its files are hard-linked (a re-cluster does not compress
    100 MB of abstracts again); otherwise they are written here.
    """
    folder = out_dir / CHUNK_FOLDER
    if packed is not None and packed_data_fits(packed, inputs.documents, inputs.extra_columns):
        files = sorted(
            path for path in (Path(packed) / CHUNK_FOLDER).iterdir() if not path.name.startswith(".")
        )
        return link_folder(files, folder, flat=True)
    if packed is not None:
        log.warning("%s does not hold this report's documents: packing them again", packed)
    # (write_document_data empties the folder: files of a previous, bigger report must not linger)
    return write_document_data(inputs.documents, inputs.extra_columns, inputs.neighbours, folder)


def link_folder(files, folder: str | Path, *, flat: bool = False) -> list[Path]:
    """The files again in `folder`, as hard links (a copy where links are impossible).

    Snakemake's `--report report.zip` embeds a directory with every file beside its index,
    which is what the pages need (they load plotly.min.js and each other from beside them).
    Unless `flat`, the document map's data files keep their sub-folder (data/docs-<k>.js).
    """
    folder = Path(folder)
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    linked = []
    for source in files:
        source = Path(source)
        in_data = not flat and source.parent.name == CHUNK_FOLDER
        target = folder / (f"{CHUNK_FOLDER}/{source.name}" if in_data else source.name)
        linked.append(link_file(source, target))
    return linked


def link_file(source: str | Path, target: str | Path) -> Path:
    """`source` again at `target`, a hard link (a copy where links are impossible)."""
    target = Path(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.link(source, target)
    except OSError:
        shutil.copyfile(source, target)
    return target
