"""embed_texts: abstracts -> L2-normalised float32 vectors, computing only what the cache lacks."""

from __future__ import annotations

import functools
import hashlib
import logging
import math
import pathlib
import time

import numpy as np

from papertopics.embed import backends as eb
from papertopics.embed import cache
from papertopics.embed.model import (
    DEFAULT_MODEL,
    model_identity,
    model_spec,
    resolve_backend,
    resolve_model_path,
)
from papertopics.embed.user_cache import cache_errors
from papertopics.errors import ConfigError

PROGRESS_SECONDS = 5.0
# Batches are padded to the next multiple of this many tokens (papertopics.embed.encode.bucket_width).
BUCKET_TOKENS = 32
# Texts shorter than BUCKET_TOKENS (candidate names, pinned phrases, titles: 2-8 tokens) are
# padded to the next multiple of this many instead, and their passes hold SHORT_BATCH_TOKENS
# tokens on every backend: a 5-token name padded to 32 in passes of 64 rows spent 5x its own
# work on padding (issue 67: 10,000 names took a third of a NeurIPS 2023 run on an AVX2 CPU).
# Abstracts (>= 32 tokens) keep their widths and rows, so their cached vectors stay valid.
SHORT_BUCKET_TOKENS = 8
SHORT_BATCH_TOKENS = 2048
# Tokens per forward pass (rows x width) where a backend runs best with fewer rows than
# embedding.batch_size: OpenVINO's per-row speed at width 256 was the same with 8 rows as with 32
# (Sapphire Rapids, bf16 and fp32, shared machine; bench/embed_throughput.py, issue 53), and a
# short batch of a length bucket is filled with at most 7 empty rows instead of 31. torch runs
# slower below 32 rows, so it keeps embedding.batch_size.
BATCH_TOKENS = {"openvino": 2048}

_LOG = logging.getLogger("papertopics.embedding")
_ENCODERS: dict[tuple, tuple[eb.Encoder, eb.Tokenizer]] = {}


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
    cache_vectors: bool = True,
) -> tuple[np.ndarray, dict]:
    """Vectors (n, dim) float32, L2-normalised, in input order, and stats.

    stats: computed (distinct texts run through the model), reused (the rest: cache hits and
    repeats within `texts`; computed + reused == len(texts)), backend/precision/device as resolved,
    seconds (whole call), docs_per_s (computed / encode time, model loading excluded), and
    load_seconds, encode_seconds, threads, batch_size, max_seq_length, model, model_id.
    A cache_dir that cannot be written is a ConfigError naming it (user_cache.cache_errors).
    cache_vectors=False: cache_dir keeps only the converted model, not these vectors (short
    texts of one corpus, such as candidate names, which no other corpus asks for).
    """
    with cache_errors(pathlib.Path(cache_dir) if cache_dir is not None else None):
        return _embed_texts(
            texts,
            model=model,
            backend=backend,
            precision=precision,
            batch_size=batch_size,
            max_seq_length=max_seq_length,
            device=device,
            threads=threads,
            cache_dir=cache_dir,
            log=log,
            cache_flush_docs=cache_flush_docs,
            cache_flush_seconds=cache_flush_seconds,
            cache_vectors=cache_vectors,
        )


def _embed_texts(
    texts,
    *,
    model,
    backend,
    precision,
    batch_size,
    max_seq_length,
    device,
    threads,
    cache_dir,
    log,
    cache_flush_docs,
    cache_flush_seconds,
    cache_vectors=True,
):
    t_start = time.perf_counter()
    log = log or _LOG
    texts = _checked(texts, batch_size, max_seq_length, threads)
    path = resolve_model_path(model)
    spec = model_spec(path)
    if max_seq_length > spec.max_positions:
        raise ConfigError(
            f"embedding.max_seq_length: {max_seq_length} exceeds the model's {spec.max_positions} positions"
        )
    requested = (backend, precision, device)
    backend, precision, device, notes = resolve_backend(backend, precision, device, spec)
    for note in notes:
        log.warning(note)
    keys = [hashlib.sha256(t.encode("utf-8")).hexdigest() for t in texts]
    first: dict[str, int] = {}
    for i, key in enumerate(keys):
        first.setdefault(key, i)
    run = _Run(path, spec, max_seq_length, threads, batch_size, cache_dir, first, log)
    run.vector_root = cache_dir if cache_vectors else None
    run.flush = (cache_flush_docs, cache_flush_seconds)
    run.settle(backend, precision, device)
    log.info(
        "embedding %d texts: %d from cache, %d to compute (%s %s on %s, batch %d, seq %d, threads %s)",
        len(texts),
        len(texts) - len(run.todo),
        len(run.todo),
        run.backend,
        run.precision,
        run.device,
        batch_size,
        max_seq_length,
        threads or "default",
    )
    load_seconds = encode_seconds = 0.0
    if run.todo:
        t_load = time.perf_counter()
        encoder, tokenizer = run.load(requested)
        load_seconds = time.perf_counter() - t_load
    if run.todo:
        t_enc = time.perf_counter()
        run.compute([texts[first[k]] for k in run.todo], encoder, tokenizer)
        encode_seconds = time.perf_counter() - t_enc
    vectors = np.empty((len(texts), spec.dim), dtype=np.float32)
    for i, key in enumerate(keys):
        vectors[i] = run.found[key]
    return vectors, _stats(run, len(texts), time.perf_counter() - t_start, load_seconds, encode_seconds)


class _Run:
    """One call's settings and its progress: which vectors the cache holds, which to compute."""

    def __init__(self, path, spec, max_seq_length, threads, batch_size, cache_dir, first, log):
        self.path, self.spec, self.max_seq_length, self.threads = path, spec, max_seq_length, threads
        self.batch_size, self.cache_dir, self.vector_root = batch_size, cache_dir, cache_dir
        self.flush = (256, 5.0)
        self.first, self.log = first, log
        self.model_id = model_identity(path, cache_dir) if cache_dir is not None else None

    def settle(self, backend: str, precision: str, device: str) -> None:
        """Take these settings: the cache is keyed by them, so read what it holds for them."""
        self.backend, self.precision, self.device = backend, precision, device
        self.vec_dir, self.found = None, {}
        if self.vector_root is not None:
            self.vec_dir = cache.vector_dir(
                pathlib.Path(self.vector_root),
                self.model_id,
                self.path,
                self.max_seq_length,
                backend,
                precision,
                device,
                batch_scheme(self.batch_size, backend),
            )
            self.found = cache.read_cached(self.vec_dir, set(self.first), self.spec.dim, self.log)
        self.todo = [k for k in self.first if k not in self.found]

    def encoder(self):
        return _get_encoder(
            self.path,
            self.spec,
            self.backend,
            self.precision,
            self.max_seq_length,
            self.device,
            self.threads,
            self.cache_dir,
            self.model_id,
        )

    def load(self, requested: tuple[str, str, str]):
        """(encoder, tokenizer); where `auto` picked OpenVINO and it cannot run here, torch's
        (whose vectors have their own cache folder, which may hold them already: then none)."""
        try:
            return self.encoder()
        except eb.BackendUnavailable as exc:
            if requested[0] != "auto":
                raise ConfigError(
                    f"embedding.backend: {self.backend} cannot run here: {exc}; use torch or auto"
                ) from None
            backend, precision, device, _ = resolve_backend("torch", requested[1], requested[2], self.spec)
            self.log.warning("embedding: %s; using torch %s instead", exc, precision)
            self.settle(backend, precision, device)
            return self.encoder() if self.todo else (None, None)

    def compute(self, texts: list[str], encoder, tokenizer) -> None:
        writer = cache.ChunkWriter(self.vec_dir, self.spec.dim, *self.flush) if self.vec_dir else None
        rows = functools.partial(batch_rows, batch_size=self.batch_size, backend=self.backend)
        self.found.update(_encode(self.todo, texts, encoder, tokenizer, rows, writer, self.log))
        if self.vec_dir is not None:
            cache.compact(self.vec_dir, self.log)


def _stats(run: _Run, n: int, seconds: float, load_seconds: float, encode_seconds: float) -> dict:
    stats = {
        "computed": len(run.todo),
        "reused": n - len(run.todo),
        "backend": run.backend,
        "precision": run.precision,
        "device": run.device,
        "seconds": round(seconds, 3),
        "docs_per_s": round(len(run.todo) / encode_seconds, 2) if encode_seconds > 0 else 0.0,
        "load_seconds": round(load_seconds, 3),
        "encode_seconds": round(encode_seconds, 3),
        "threads": run.threads,
        "batch_size": run.batch_size,
        "max_seq_length": run.max_seq_length,
        "model": str(run.path),
        "model_id": run.model_id,
    }
    if stats["computed"]:
        run.log.info(
            "embedding: %d computed, %d reused in %.1f s (%.1f abstracts/s while encoding)",
            stats["computed"],
            stats["reused"],
            seconds,
            stats["docs_per_s"],
        )
    return stats


def _checked(texts, batch_size: int, max_seq_length: int, threads: int | None) -> list[str]:
    """The texts as a list, once the settings and every text are known to be usable."""
    _check_int("embedding.batch_size", batch_size, 1)
    _check_int("embedding.max_seq_length", max_seq_length, 1)
    if threads is not None:
        _check_int("embedding.threads", threads, 1)
    texts = list(texts)
    for i, text in enumerate(texts):
        if not isinstance(text, str):
            raise TypeError(f"texts[{i}] is {type(text).__name__}, expected str")
    return texts


def _encode(keys: list[str], texts: list[str], encoder, tokenizer, rows, writer, log) -> dict:
    """key -> vector for texts not in the cache; each batch goes to the cache writer as it is done."""
    found: dict[str, np.ndarray] = {}
    ids = tokenizer(texts)
    filler = tokenizer.filler
    progress = _Progress(log, len(keys))
    try:
        for width, batch in _plan_batches(ids, rows, tokenizer.max_seq_length):
            input_ids, mask = _fixed_shape([ids[j] for j in batch], width, _n(rows, width), filler)
            vecs = encoder.encode(input_ids, mask)[: len(batch)]
            batch_keys = [keys[j] for j in batch]
            found.update(zip(batch_keys, vecs))
            if writer is not None:
                writer.add(batch_keys, vecs)
            progress.update(len(batch))
    finally:
        if writer is not None:
            writer.flush()  # also on Ctrl-C or an error: keep what was computed
    return found


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


def batch_rows(width: int, batch_size: int, backend: str) -> int:
    """Rows of every forward pass at this width: `batch_size`, or fewer where the backend has a
    token budget per pass (BATCH_TOKENS). A function of the settings and the width only."""
    if width < BUCKET_TOKENS:  # short texts: a fixed token budget per pass, whatever the backend
        return max(batch_size, SHORT_BATCH_TOKENS // width)
    budget = BATCH_TOKENS.get(backend)
    return max(1, min(batch_size, budget // width)) if budget else batch_size


def batch_scheme(batch_size: int, backend: str | None = None) -> str:
    """The batch shapes, as the vector cache records them: vectors made with others differ."""
    budget = BATCH_TOKENS.get(backend)
    rows = f"{batch_size} rows" + (f", at most {budget} tokens" if budget else "")
    return (
        f"fixed-shape: {rows}, widths in steps of {BUCKET_TOKENS} tokens; below {BUCKET_TOKENS}, "
        f"steps of {SHORT_BUCKET_TOKENS} in passes of {SHORT_BATCH_TOKENS} tokens"
    )


def bucket_width(length: int, max_seq_length: int) -> int:
    """The padded width of a text of `length` tokens: the next multiple of BUCKET_TOKENS (of
    SHORT_BUCKET_TOKENS below BUCKET_TOKENS), at most max_seq_length. A text's width depends on
    its own length only."""
    step = SHORT_BUCKET_TOKENS if length < BUCKET_TOKENS else BUCKET_TOKENS
    return min(max_seq_length, -(-length // step) * step)


def _plan_batches(ids: list[list[int]], rows, max_seq_length: int) -> list[tuple[int, list[int]]]:
    """(width, row indices) per batch, widest first (the ETA errs on the long side). Texts share
    a batch only with texts of their own length bucket; every batch is then run at the full
    shape (rows[width], width) (papertopics.embed.encode._fixed_shape), so every forward pass of
    a bucket has one shape whatever the corpus, and a vector never depends on its batch-mates,
    their number, or how many batches the corpus made. `rows`: an int or a function of the width."""
    by_width: dict[int, list[int]] = {}
    for j, row in enumerate(ids):
        by_width.setdefault(bucket_width(len(row), max_seq_length), []).append(j)
    batches = []
    for width in sorted(by_width, reverse=True):
        group, n = by_width[width], _n(rows, width)
        batches += [(width, group[s : s + n]) for s in range(0, len(group), n)]
    return batches


def _n(rows, width: int) -> int:
    return rows if isinstance(rows, int) else rows(width)


def _fixed_shape(rows: list[list[int]], width: int, batch_size: int, filler: list[int]):
    """(input_ids, attention_mask), both (batch_size, width) int64: the rows right-padded with
    masked zeros, then filler rows (the model's empty text, its vector discarded) up to batch_size."""
    input_ids = np.zeros((batch_size, width), dtype=np.int64)
    mask = np.zeros((batch_size, width), dtype=np.int64)
    for r, row in enumerate(rows + [filler] * (batch_size - len(rows))):
        input_ids[r, : len(row)] = row
        mask[r, : len(row)] = 1
    return input_ids, mask


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
            self.log.info(
                "embedding: %d/%d computed (%.1f abstracts/s, ETA %.0f s)", self.done, self.total, rate, eta
            )
