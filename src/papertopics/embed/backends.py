"""Encoders behind `papertopics.embed.embed_texts`: OpenVINO, torch and the sentence-transformers reference.

Kept apart from the cache logic: a run whose abstracts are all cached loads no model and
imports neither transformers nor openvino (only torch, to ask whether CUDA is there).
Every encoder takes batches of one fixed shape per length bucket (papertopics.embed.encode:
(batch_size, width) token ids and attention mask, short batches filled with the empty text), so
a text's vector does not depend on which other texts share its batch nor on how many they are:
the cache then mixes vectors from different runs without changing a single bit.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import pathlib
import shutil
import tempfile
import threading
import warnings

import numpy as np

from papertopics.embed.spec import ModelSpec
from papertopics.embed.user_cache import versions_digest


class BackendUnavailable(RuntimeError):
    """The backend cannot run on this machine (OpenVINO missing, or its CPU plugin refuses the
    CPU): `embedding.backend: auto` falls back to torch, an explicit choice is a config error."""


class Tokenizer:
    """The model's fast tokenizer, truncating like sentence-transformers (special tokens included)."""

    def __init__(self, path: pathlib.Path, max_seq_length: int):
        self.max_seq_length = max_seq_length
        if (path / "tokenizer.json").exists():
            from tokenizers import Tokenizer as _Fast

            self._fast = _Fast.from_file(str(path / "tokenizer.json"))
            self._fast.no_padding()
            self._fast.enable_truncation(max_length=max_seq_length)
            self._hf = None
        else:  # folders with only vocab.txt: transformers builds the fast tokenizer
            from transformers import AutoTokenizer

            self._fast = None
            self._hf = AutoTokenizer.from_pretrained(str(path))

    @property
    def filler(self) -> list[int]:
        """The empty text's ids ([CLS] [SEP] for BERT): the rows that fill a short batch."""
        return self([""])[0]

    def __call__(self, texts: list[str]) -> list[list[int]]:
        if self._fast is not None:
            return [e.ids for e in self._fast.encode_batch(list(texts))]
        out = self._hf(list(texts), truncation=True, max_length=self.max_seq_length)
        return [list(ids) for ids in out["input_ids"]]


class Encoder:
    """Turns batches of token ids into L2-normalised float32 vectors."""

    backend = "?"
    # Every backend gets batches of one fixed shape per length bucket: (batch_size, width), the
    # rows right-padded to the bucket's width under a zero attention mask and short batches
    # filled with filler rows. CPU kernels pick their blocking (and so their rounding) by the
    # shape of the whole batch: padded batches of varying shape moved a vector by ~1e-7 (fp32)
    # to ~6e-4 (bf16) with its batch-mates (issue 27), and exact-length batches of varying size
    # still did on Sapphire Rapids (torch fp32 1.5e-7, bf16 1.1e-3) and under emulated bf16
    # (issue 42). With one shape per bucket, a text's bits depend on its own tokens only, so
    # the shared cache cannot make topics depend on which other corpora filled it.

    def __init__(self, spec: ModelSpec, precision: str, device: str, threads: int | None):
        self.spec, self.precision, self.device, self.threads = spec, precision, device, threads
        self.lock = threading.Lock()

    def encode(self, input_ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """(rows, dim) float32 vectors for (rows, width) int64 token ids and attention mask."""
        raise NotImplementedError

    def apply_threads(self) -> None:
        """torch's thread count is per process; set it per call so a shard job keeps its share."""
        if self.threads:
            import torch

            torch.set_num_threads(self.threads)


def _pool_module(hf_model, pooling: tuple[str, ...]):
    """hf model + sentence-transformers pooling + L2 normalisation as one torch module."""
    import torch

    class PoolNormalize(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.model = hf_model

        def forward(self, input_ids, attention_mask):
            hidden = self.model(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
            hidden = hidden.float()
            mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
            counts = mask.sum(1).clamp(min=1e-9)
            parts = []
            for mode in pooling:
                if mode == "cls_token":
                    parts.append(hidden[:, 0])
                elif mode == "max_tokens":
                    parts.append(hidden.masked_fill(mask == 0, torch.finfo(hidden.dtype).min).amax(1))
                elif mode == "mean_tokens":
                    parts.append((hidden * mask).sum(1) / counts)
                elif mode == "mean_sqrt_len_tokens":
                    parts.append((hidden * mask).sum(1) / counts.sqrt())
            vec = torch.cat(parts, dim=1) if len(parts) > 1 else parts[0]
            return torch.nn.functional.normalize(vec, p=2, dim=1)

    return PoolNormalize().eval()


@contextlib.contextmanager
def _quiet_transformers():
    """No progress bar and no config chatter (e.g. an unrecognised `loss_type`) in the stage log."""
    from transformers.utils import logging as hf_logging

    verbosity, bar = hf_logging.get_verbosity(), hf_logging.is_progress_bar_enabled()
    hf_logging.set_verbosity_error()
    hf_logging.disable_progress_bar()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            yield
    finally:
        hf_logging.set_verbosity(verbosity)
        if bar:
            hf_logging.enable_progress_bar()


def _load_hf_model(path: pathlib.Path):
    """transformers' AutoModel from a local folder (never the hub)."""
    from transformers import AutoModel

    with _quiet_transformers():
        return AutoModel.from_pretrained(str(path), local_files_only=True).eval()


class TorchEncoder(Encoder):
    """transformers model in fp32, bf16 weights (CPU with native bf16) or fp16/bf16 on CUDA."""

    backend = "torch"

    def __init__(self, spec, precision, device, threads):
        super().__init__(spec, precision, device, threads)
        import torch

        self.apply_threads()
        dtype = {"fp32": torch.float32, "bf16": torch.bfloat16, "fp16": torch.float16}[precision]
        self.module = _pool_module(_load_hf_model(spec.path), spec.pooling)
        self.module.model.to(device=device, dtype=dtype)
        self._torch = torch

    def encode(self, input_ids, mask):
        torch = self._torch
        self.apply_threads()
        with torch.inference_mode():
            out = self.module(
                torch.from_numpy(input_ids).to(self.device), torch.from_numpy(mask).to(self.device)
            )
        return out.float().cpu().numpy()


class SentenceTransformersEncoder(Encoder):
    """The reference: plain `SentenceTransformer(folder).encode`, fp32, the model's full module list."""

    backend = "sentence-transformers"

    def __init__(self, spec, precision, device, threads):
        super().__init__(spec, precision, device, threads)
        from sentence_transformers import SentenceTransformer

        self.apply_threads()
        with _quiet_transformers():
            self.model = SentenceTransformer(str(spec.path), device=device, local_files_only=True)

    def set_max_seq_length(self, n: int) -> None:
        self.model.max_seq_length = n

    def encode(self, input_ids, mask):
        """The model's own modules (sentence-transformers' forward), on our fixed-shape batch
        rather than `encode`'s, which pads each batch to its longest text."""
        import torch

        self.apply_threads()
        features = {"input_ids": torch.from_numpy(input_ids), "attention_mask": torch.from_numpy(mask)}
        features = {k: v.to(self.model.device) for k, v in features.items()}
        with torch.inference_mode():
            vecs = self.model(features)["sentence_embedding"].float()
            vecs = torch.nn.functional.normalize(vecs, p=2, dim=1)
        return vecs.cpu().numpy()


class OpenVINOEncoder(Encoder):
    """OpenVINO CPU inference of the torch model converted once (no optimum): pooling and
    normalisation are inside the graph; the IR is cached under `ir_root` so later runs skip torch."""

    backend = "openvino"

    def __init__(self, spec, precision, device, threads, *, ir_root: pathlib.Path | None, model_id: str):
        super().__init__(spec, precision, device, threads)
        try:
            import openvino as ov

            core = ov.Core()
            devices = core.available_devices
        except Exception as exc:  # ImportError, a missing shared library, a plugin error
            raise BackendUnavailable(f"OpenVINO does not load ({_last_line(exc)})") from exc
        if "CPU" not in devices:
            raise BackendUnavailable(f"OpenVINO offers no CPU device here (devices: {devices or 'none'})")
        model = ir_model(spec, model_id, ir_root, threads)
        config = {
            "INFERENCE_PRECISION_HINT": {"bf16": "bf16", "fp32": "f32"}[precision],
            # Pinning makes parallel shard jobs fight for the same cores on a shared machine.
            "ENABLE_CPU_PINNING": False,
        }
        if threads:
            config["INFERENCE_NUM_THREADS"] = int(threads)
        try:
            self.compiled = core.compile_model(model, "CPU", config)
        except RuntimeError as exc:
            raise BackendUnavailable(f"OpenVINO's CPU plugin refuses this CPU ({_last_line(exc)})") from exc
        self.request = self.compiled.create_infer_request()

    def encode(self, input_ids, mask):
        with self.lock:
            self.request.infer({"input_ids": input_ids, "attention_mask": mask})
            return np.array(self.request.get_output_tensor(0).data, dtype=np.float32, copy=True)


def _last_line(exc: BaseException) -> str:
    lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
    return lines[-1] if lines else type(exc).__name__


_IR_MODELS: dict[str, object] = {}  # model id -> ov.Model read back from IR, shared by encoders


def _ov_tag() -> str:
    import openvino as ov

    return "ov" + ov.__version__.split("-", 1)[0]


def ir_path(ir_root: pathlib.Path, model_id: str) -> pathlib.Path:
    """Folder of the cached IR: per model content, OpenVINO version and the versions of the
    libraries the conversion traces through (torch, transformers, ...)."""
    return ir_root / f"{model_id[:16]}-{_ov_tag()}-{versions_digest()}"


def ir_model(spec: ModelSpec, model_id: str, ir_root: pathlib.Path | None, threads: int | None):
    """The OpenVINO model, from the cached IR, this process's earlier conversion or a new one.
    Always read back from an IR file, so a fresh conversion and a cached IR compile the same graph."""
    import openvino as ov

    core = ov.Core()
    ir_dir = ir_path(ir_root, model_id) if ir_root is not None else None
    if ir_dir is not None and (ir_dir / "model.xml").exists():
        return core.read_model(str(ir_dir / "model.xml"))
    model = _IR_MODELS.get(model_id)
    if model is None:
        model = _convert(spec, threads)
        if ir_dir is None:
            ir_dir = pathlib.Path(tempfile.mkdtemp(prefix="papertopics-ov-")) / "ir"
            atexit.register(shutil.rmtree, ir_dir.parent, ignore_errors=True)
    if ir_dir is not None:
        _save_ir(model, ir_dir)
        model = core.read_model(str(ir_dir / "model.xml"))
    _IR_MODELS[model_id] = model
    return model


def _convert(spec: ModelSpec, threads: int | None):
    """torch module (transformer + pooling + normalise) -> ov.Model, dynamic batch and length."""
    import openvino as ov
    import torch

    if threads:
        torch.set_num_threads(threads)
    module = _pool_module(_load_hf_model(spec.path), spec.pooling)
    # A padded example row keeps the attention-mask path in the traced graph.
    example = {
        "input_ids": torch.tensor([[101, 2000, 2001, 2002, 102], [101, 2003, 102, 0, 0]]),
        "attention_mask": torch.tensor([[1, 1, 1, 1, 1], [1, 1, 1, 0, 0]]),
    }
    with _quiet_transformers(), torch.no_grad():
        ov_model = ov.convert_model(module, example_input=example)
    for name, port in zip(("input_ids", "attention_mask"), ov_model.inputs):
        port.get_tensor().set_names({name})
    ov_model.reshape({name: ov.PartialShape([-1, -1]) for name in ("input_ids", "attention_mask")})
    return ov_model


def _save_ir(model, ir_dir: pathlib.Path) -> None:
    """Written to a sibling temp folder and renamed into place, so concurrent shard jobs or a
    kill never leave half an IR behind. fp32 weights: precision is chosen at compile time."""
    import openvino as ov

    ir_dir.parent.mkdir(parents=True, exist_ok=True)
    tmp = pathlib.Path(tempfile.mkdtemp(prefix=f".{ir_dir.name}.", dir=ir_dir.parent))
    try:
        ov.save_model(model, str(tmp / "model.xml"), compress_to_fp16=False)
        try:
            os.replace(tmp, ir_dir)
        except OSError:  # another process finished first; its IR is the same
            if not (ir_dir / "model.xml").exists():
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
