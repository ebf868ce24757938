"""Whole abstracts instead of their first 256 tokens (issue 10 idea): about half of arXiv and
NeurIPS abstracts are longer than MiniLM's 256-token window.

Variants, same corpora and seeds (42-46), the default grouping on each:
  256      today: the first 254 word pieces (the model's window; the rest is cut)
  chunked  the abstract cut into ceil(n / 254) equal token windows, each embedded, their mean
           weighted by tokens (renormalised)
  512      max_seq_length 512 (MiniLM has 512 positions but was trained on short inputs)
  128, 192 shorter windows: the opening of an abstract only (and 2x / 1.3x cheaper to embed)

    PYTHONPATH=bench .venv/bin/python bench/grouping_ideas/long_abstracts.py \
        [--variants 256 chunked 512 128 192] [corpora...]
"""

from __future__ import annotations

import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import numpy as np  # noqa: E402
from common import OUT, clustered, load, umap_args  # noqa: E402

from papertopics.embed import embed_texts  # noqa: E402
from papertopics.evaluate.metrics import label_agreement  # noqa: E402
from papertopics.params import resolve_hdbscan  # noqa: E402
from papertopics.pipeline import default_config  # noqa: E402
from papertopics.reduce.reduction import umap_reduce  # noqa: E402

SEEDS = (42, 43, 44, 45, 46)
WINDOW = 254  # word pieces per window: 256 minus [CLS] and [SEP]
CACHE = pathlib.Path("/tmp/bench-embed-cache")


def tokenizer():
    """The embedding model's own word pieces, uncut (the model folder the pipeline resolves)."""
    from tokenizers import Tokenizer

    from papertopics.embed.model import DEFAULT_MODEL, resolve_model_path

    tok = Tokenizer.from_file(str(resolve_model_path(DEFAULT_MODEL) / "tokenizer.json"))
    tok.no_truncation()
    tok.no_padding()
    return tok


def chunks(text: str, tok) -> list[tuple[str, int]]:
    """(window text, word pieces) for equal windows of at most WINDOW word pieces."""
    enc = tok.encode(text, add_special_tokens=False)
    n = len(enc.ids)
    if n <= WINDOW:
        return [(text, max(n, 1))]
    k = -(-n // WINDOW)
    bounds = np.linspace(0, n, k + 1).round().astype(int)
    return [(text[enc.offsets[a][0] : enc.offsets[b - 1][1]], b - a) for a, b in zip(bounds[:-1], bounds[1:])]


def chunked_vectors(texts: list[str]) -> np.ndarray:
    tok = tokenizer()
    parts = [chunks(t, tok) for t in texts]
    flat = [c for p in parts for c, _ in p]
    vectors, stats = embed_texts(flat, cache_dir=CACHE)
    print(f"#   chunks: {len(flat)} for {len(texts)} texts, computed {stats['computed']}", flush=True)
    out, i = np.empty((len(texts), vectors.shape[1]), np.float32), 0
    for row, p in enumerate(parts):
        w = np.array([n for _, n in p], np.float32)
        v = (vectors[i : i + len(p)] * w[:, None]).sum(0)
        out[row] = v / np.linalg.norm(v)
        i += len(p)
    return out


def variant_vectors(name: str, texts: list[str], default: np.ndarray) -> np.ndarray:
    if name == "256":
        return default
    if name == "chunked":
        return chunked_vectors(texts)
    return embed_texts(texts, cache_dir=CACHE, max_seq_length=int(name))[0]


def reduced(corpus: str, name: str, seed: int, vectors: np.ndarray) -> np.ndarray:
    path = OUT / f"umap_{corpus}_s{seed}_{name}.npy"
    if not path.exists():
        np.save(path, umap_reduce(vectors, random_state=seed, **umap_args(len(vectors))))
    return np.load(path)


def main(corpora, variants) -> None:
    for corpus in corpora:
        texts, labels, default = load(corpus)
        hd = resolve_hdbscan(default_config()["hdbscan"], len(texts))
        scores = {}
        for name in ("256", *[v for v in variants if v != "256"]):
            t = time.perf_counter()
            vectors = variant_vectors(name, texts, default)
            print(f"# {corpus} {name}: vectors in {time.perf_counter() - t:.0f} s", flush=True)
            for seed in SEEDS:
                topics = clustered(reduced(corpus, name, seed, vectors), vectors, hd)[1]
                a = label_agreement(topics, labels)
                scores[name, seed] = (a["nmi"], a["ari"], int(topics.max() + 1), float((topics < 0).mean()))
            rows = [scores[name, s] for s in SEEDS]
            line = (
                f"{corpus} {name:8s} NMI {np.mean([r[0] for r in rows]):.3f} "
                f"[{min(r[0] for r in rows):.3f}-{max(r[0] for r in rows):.3f}] "
                f"ARI {np.mean([r[1] for r in rows]):.3f} topics {[r[2] for r in rows]} "
                f"outliers {np.mean([r[3] for r in rows]):.3f}"
            )
            if name != "256":
                d = [scores[name, s][0] - scores["256", s][0] for s in SEEDS]
                line += f"  paired NMI vs 256 {np.mean(d):+.3f} [{min(d):+.3f}, {max(d):+.3f}]"
            print(line, flush=True)


if __name__ == "__main__":
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("corpora", nargs="*", default=["proxy", "arxiv6k", "bbc"])
    ap.add_argument("--variants", nargs="+", default=["256", "chunked", "512"])
    args = ap.parse_args()
    main(args.corpora, args.variants)
