"""The content-keyed vector cache: append-only chunk files, merged into packs under a lock.

Layout and guarantees: see the package docstring (papertopics.embed).
"""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
import time

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from papertopics.artifacts import atomic_write_table, atomic_write_text, vector_table, vectors_of
from papertopics.embed.user_cache import library_versions

COMPACT_ABOVE = 64  # chunk files in one vector folder before they are merged into a pack
CACHE_FORMAT = 1


def vector_dir(
    cache_dir, model_id, path, max_seq_length, backend, precision, device, batches
) -> pathlib.Path:
    """The folder of the vectors made with these settings. `batches` names the batch shapes
    (papertopics.embed.encode.batch_scheme): a vector's bits depend on them."""
    device_type = device.split(":")[0]
    meta = {
        "format": CACHE_FORMAT,
        "model_id": model_id,
        "max_seq_length": max_seq_length,
        "backend": backend,
        "precision": precision,
        "device": device_type,
        # An upgrade of a library that computes, converts or tokenizes starts a new cache.
        "libraries": library_versions(),
        # Exact-length batches of varying size (before issue 42) made vectors that depended on
        # their batch-mates on some CPUs: a new batch scheme starts a new cache.
        "batches": batches,
    }
    digest = hashlib.sha256(json.dumps(meta, sort_keys=True).encode()).hexdigest()[:16]
    folder = cache_dir / "vectors" / f"{backend}-{precision}-{device_type}-seq{max_seq_length}-{digest}"
    if not (folder / "meta.json").exists():
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write_text(folder / "meta.json", json.dumps({**meta, "model_path": str(path)}, indent=1))
    return folder


def _vector_files(folder: pathlib.Path) -> list[pathlib.Path]:
    return sorted(p for p in folder.glob("*.parquet") if p.name.startswith(("chunk-", "pack-")))


def read_cached(folder: pathlib.Path, wanted: set[str], dim: int, log) -> dict[str, np.ndarray]:
    """Vectors for the wanted keys from all chunk/pack files. A file merged away by another
    process while we read makes us list again (its vectors are in the new pack)."""
    if not wanted:
        return {}
    value_set = pa.array(sorted(wanted), pa.string())
    found: dict[str, np.ndarray] = {}
    for _attempt in range(3):
        vanished = False
        for file in _vector_files(folder):
            try:
                table = pq.read_table(file)
            except FileNotFoundError:
                vanished = True
                continue
            except (OSError, pa.ArrowInvalid) as exc:
                log.warning("embedding cache: ignoring unreadable %s (%s)", file, exc)
                continue
            if table.schema.field("vector").type.list_size != dim:
                log.warning("embedding cache: ignoring %s (vectors are not %d-d)", file, dim)
                continue
            table = table.filter(pc.is_in(table.column("key"), value_set=value_set))
            if table.num_rows:
                vecs = vectors_of(table.column("vector"), dim)
                found.update(zip(table.column("key").to_pylist(), vecs))
        if not vanished:
            break
    return found


class ChunkWriter:
    """Append-only chunk files, each complete or absent (temp file + fsync + rename)."""

    def __init__(self, folder: pathlib.Path, dim: int, flush_docs: int, flush_seconds: float):
        self.folder, self.dim = folder, dim
        self.flush_docs, self.flush_seconds = max(1, int(flush_docs)), float(flush_seconds)
        self.keys: list[str] = []
        self.vecs: list[np.ndarray] = []
        self.last = time.monotonic()
        self.count = 0

    def add(self, keys: list[str], vecs: np.ndarray) -> None:
        self.keys += keys
        self.vecs.append(np.asarray(vecs, dtype=np.float32))
        if len(self.keys) >= self.flush_docs or time.monotonic() - self.last >= self.flush_seconds:
            self.flush()

    def flush(self) -> None:
        self.last = time.monotonic()
        if not self.keys:
            return
        name = f"chunk-{time.time_ns()}-{os.getpid()}-{self.count:05d}.parquet"
        atomic_write_table(self.folder / name, vector_table(self.keys, np.concatenate(self.vecs)))
        self.count += 1
        self.keys, self.vecs = [], []


def compact(folder: pathlib.Path, log) -> None:
    """Merge chunk files into one pack once there are many, under a lock so that only one
    process merges; files are deleted only after the pack holding their vectors exists."""
    files = _vector_files(folder)
    if len(files) <= COMPACT_ABOVE:
        return
    try:
        import fcntl
    except ImportError:  # not POSIX: leave the chunks, they still work
        return
    with open(folder / ".compact.lock", "w") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return
        files = _vector_files(folder)
        tables, merged = [], []
        for file in files:
            try:
                tables.append(pq.read_table(file))
                merged.append(file)
            except (OSError, pa.ArrowInvalid):
                continue
        if not tables:
            return
        table = pa.concat_tables(tables)
        keys = table.column("key").to_pylist()
        keep = sorted({k: i for i, k in reversed(list(enumerate(keys)))}.values())
        table = table.take(pa.array(keep, pa.int64()))
        atomic_write_table(folder / f"pack-{time.time_ns()}-{os.getpid()}.parquet", table)
        for file in merged:
            file.unlink(missing_ok=True)
        _remove_stale_temp_files(folder)
        log.info("embedding cache: merged %d files into one pack (%d vectors)", len(merged), table.num_rows)


def _remove_stale_temp_files(folder: pathlib.Path, max_age_seconds: float = 3600) -> None:
    """Delete temp files left by killed writers. A parallel shard may rename or delete one
    between listing and stat(): that file is gone already, which is all we wanted."""
    for stale in folder.glob(".*.tmp"):
        try:
            if time.time() - stale.stat().st_mtime > max_age_seconds:
                stale.unlink(missing_ok=True)
        except FileNotFoundError:
            continue
