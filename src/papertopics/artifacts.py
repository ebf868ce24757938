"""Reading and writing the tables and JSON files stages hand each other.

Every write goes through a temporary name and a rename, so a killed job never leaves a file
Snakemake would take as complete; scripts read a stage's table here instead of importing the
stage's module.
"""

from __future__ import annotations

import json
import os
import pathlib
import shutil

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from papertopics.errors import StaleResultError


def read_json(path) -> dict:
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def write_json(path, data) -> None:
    """Indented, sorted keys (diffs between runs stay readable), written atomically."""
    atomic_write_text(pathlib.Path(path), json.dumps(data, indent=2, sort_keys=True))


def vectors_of(column, dim: int) -> np.ndarray:
    flat = column.combine_chunks().flatten() if isinstance(column, pa.ChunkedArray) else column.flatten()
    return flat.to_numpy(zero_copy_only=False).astype(np.float32, copy=False).reshape(-1, dim)


def vector_table(keys: list[str], vectors: np.ndarray, key_name: str = "key") -> pa.Table:
    vectors = np.ascontiguousarray(vectors, dtype=np.float32)
    dim = vectors.shape[1]
    values = pa.array(vectors.reshape(-1), type=pa.float32())
    return pa.table(
        {
            key_name: pa.array(list(keys), pa.string()),
            "vector": pa.FixedSizeListArray.from_arrays(values, dim),
        }
    )


def atomic_write_table(path: pathlib.Path, table: pa.Table) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        pq.write_table(table, tmp)
        with open(tmp, "rb") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def atomic_write_text(path: pathlib.Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def atomic_copy(source, target: pathlib.Path) -> pathlib.Path:
    """Copy through a temporary name (plotly.min.js: a full disk leaves no 1.7 of 4.8 MB)."""
    target = pathlib.Path(target)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        shutil.copyfile(source, tmp)
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return target


def save_embeddings(path, doc_ids: list[str], vectors: np.ndarray) -> None:
    """The embeddings table of docs/design.md: doc_id + vector (fixed_size_list<float32>), written
    atomically so a killed job never leaves a file Snakemake would take as complete."""
    vectors = np.asarray(vectors, dtype=np.float32)
    doc_ids = [str(d) for d in doc_ids]
    if vectors.ndim != 2 or vectors.shape[0] != len(doc_ids):
        raise ValueError(f"{len(doc_ids)} doc_ids but vectors of shape {vectors.shape}")
    atomic_write_table(pathlib.Path(path), vector_table(doc_ids, vectors, key_name="doc_id"))


def load_embeddings(path) -> tuple[list[str], np.ndarray]:
    """(doc_ids, float32 vectors (n, dim)) from a table written by save_embeddings."""
    table = pq.read_table(path)
    missing = {"doc_id", "vector"} - set(table.column_names)
    if missing:
        raise ValueError(f"{path}: missing column(s) {', '.join(sorted(missing))}")
    vtype = table.schema.field("vector").type
    if pa.types.is_fixed_size_list(vtype):
        dim = vtype.list_size
    else:
        lengths = set(pc.list_value_length(table.column("vector")).to_pylist())
        if len(lengths) > 1:
            raise ValueError(f"{path}: vectors have different lengths {sorted(lengths)}")
        dim = lengths.pop() if lengths else 0
    vectors = vectors_of(table.column("vector"), dim) if table.num_rows else np.zeros((0, dim), np.float32)
    return table.column("doc_id").to_pylist(), np.ascontiguousarray(vectors)


def gather_shards(paths, settings: dict | None = None) -> tuple[list[str], np.ndarray, dict]:
    """Embedding shards (ordered by their number) -> doc_ids, vectors and summed stats; each
    shard's stats sit beside it as <n>.json. settings: the embedding settings every shard must
    have been made with (as its stats record them); a shard made with others is refused."""
    shards = sorted(paths, key=lambda path: int(pathlib.Path(path).stem))
    doc_ids, blocks, stats = [], [], {"computed": 0, "reused": 0, "seconds": 0.0}
    for path in shards:
        ids, vectors = load_embeddings(path)
        doc_ids += ids
        blocks.append(vectors)
        shard_stats = read_json(pathlib.Path(path).with_suffix(".json"))
        made_with = shard_stats.get("settings") or {}
        if settings is not None and made_with != settings:
            differ = "; ".join(
                f"{key}: {made_with.get(key, 'unknown')!r}, not {value!r}"
                for key, value in settings.items()
                if made_with.get(key, "unknown") != value
            )
            raise StaleResultError(
                f"{path} holds vectors made with other embedding settings ({differ}); "
                f"delete {pathlib.Path(path).parent} and rerun"
            )
        for key in ("computed", "reused", "seconds"):
            stats[key] += shard_stats.get(key, 0)
        for key in ("backend", "precision", "device"):
            stats.setdefault(key, shard_stats.get(key))
    stats["shards"] = len(shards)
    if len(set(doc_ids)) != len(doc_ids):  # shards cut by another rule (a script edited mid-run)
        raise ValueError(
            f"embedding shards overlap ({len(doc_ids) - len(set(doc_ids))} documents in two shards); "
            "rerun with --forcerun embed_shard"
        )
    return doc_ids, np.concatenate(blocks), stats
