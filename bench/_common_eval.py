"""Helpers shared by the quality benchmarks (octis_bbc, arxiv_labels, seeds_stability, grouping).

Every benchmark compares papertopics (``papertopics.pipeline.model_topics``, i.e. exactly the
workflow's reduce -> cluster -> c-TF-IDF) with plain BERTopic on the SAME embeddings in the same
process. "Plain BERTopic" is ``BERTopic()`` with its documented default UMAP and HDBSCAN, the only
change being ``random_state`` on the UMAP so a run is reproducible:

    UMAP(n_neighbors=15, n_components=5, min_dist=0.0, metric="cosine", low_memory=False,
         random_state=seed)
    HDBSCAN(min_cluster_size=min_cluster_size, metric="euclidean", cluster_selection_method="eom",
            prediction_data=True)
    default CountVectorizer, default c-TF-IDF, calculate_probabilities=False (its default)

and ``fit_transform(docs, embeddings=vectors)``.
"""

from __future__ import annotations

import contextlib
import copy
import gzip
import hashlib
import json
import os
import time
from pathlib import Path

import numpy as np
from _pipeline import DATA, REPO, print_table  # (sets papertopics.runtime.environment's environment)

from papertopics.embed.user_cache import cache_root

# The workflow's own per-user vector cache (content-keyed), unless BENCH_EMBED_CACHE says otherwise.
EMBED_CACHE = Path(os.environ.get("BENCH_EMBED_CACHE") or cache_root())
ARXIV = DATA / "arxiv-daily" / "arxiv-daily.jsonl.gz"
NEURIPS = DATA / "neurips2023" / "neurips2023.jsonl.gz"
BBC = DATA / "octis-bbc-news" / "corpus.tsv"

__all__ = [
    "DATA",
    "REPO",
    "print_table",
    "EMBED_CACHE",
    "embed",
    "plain_bertopic",
    "fit_plain",
    "reduce_plain",
    "umap_cache",
    "UNCAPPED",
    "topic_words",
    "load_bbc",
    "load_arxiv_sample",
    "load_proxy",
    "load_neurips",
    "load_seeds",
    "Clock",
    "fmt",
]


# --------------------------------------------------------------------------- data


def load_bbc() -> tuple[list[str], list[str]]:
    """OCTIS BBC News, all 2,225 documents (train+val+test, as the BERTopic paper used them)."""
    texts, labels = [], []
    with BBC.open(encoding="utf-8") as handle:
        for line in handle:
            text, _split, label = line.rstrip("\n").split("\t")
            texts.append(text)
            labels.append(label)
    return texts, labels


def arxiv_records() -> list[dict]:
    """Every record of the arXiv listing (id, title, abstract, primary_category, ...)."""
    with gzip.open(ARXIV, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def _stratified(records: list[dict], cats: list[str], per_category: int, seed: int) -> list[dict]:
    """per_category records of each category in `cats`, drawn with `seed`, in a shuffled order."""
    rng = np.random.default_rng(seed)
    picked = []
    for cat in cats:
        idx = [i for i, r in enumerate(records) if r["primary_category"] == cat]
        picked.extend(rng.choice(idx, size=min(per_category, len(idx)), replace=False).tolist())
    return [records[i] for i in rng.permutation(picked)]


def arxiv_sample_records(per_category: int = 1000, n_categories: int = 6, seed: int = 0) -> list[dict]:
    """The arXiv 6k sample's records: per_category from each of the n_categories largest
    primary categories, drawn with a fixed seed, in a fixed shuffled order."""
    from collections import Counter

    records = arxiv_records()
    counts = Counter(r["primary_category"] for r in records)
    return _stratified(records, [c for c, _ in counts.most_common(n_categories)], per_category, seed)


def load_arxiv_sample(per_category: int = 1000, n_categories: int = 6, seed: int = 0):
    """arxiv_sample_records' abstracts cleaned with the pipeline's clean_text (what the workflow
    embeds) and their categories. Returns (texts, categories)."""
    from papertopics.ingest.text import clean_text

    picked = arxiv_sample_records(per_category, n_categories, seed)
    return [clean_text(r["abstract"]) for r in picked], [r["primary_category"] for r in picked]


def load_proxy(per_category: int = 100, min_docs: int = 61, seed: int = 0):
    """Mixed arXiv: up to per_category abstracts from every primary category with >= min_docs
    (18 categories, ~1.6k abstracts): many divisions of unequal size, like conference tracks."""
    from collections import Counter

    from papertopics.ingest.text import clean_text

    records = arxiv_records()
    counts = Counter(r["primary_category"] for r in records)
    cats = sorted(c for c, k in counts.items() if k >= min_docs)
    picked = _stratified(records, cats, per_category, seed)
    return [clean_text(r["abstract"]) for r in picked], [r["primary_category"] for r in picked]


def load_neurips() -> list[str]:
    """The NeurIPS 2023 listing parsed and de-duplicated as the workflow does."""
    from papertopics.ingest.corpus import build_corpus
    from papertopics.ingest.listings import ListingSpec, read_listing

    frame = read_listing(ListingSpec("neurips2023", NEURIPS))
    corpus, _ = build_corpus([frame])
    return corpus["text"].tolist()


def load_seeds() -> list[str]:
    """The 37 seed abstracts (seeds/*.txt), parsed and de-duplicated as the workflow does."""
    from papertopics.ingest.corpus import build_corpus
    from papertopics.ingest.listings import ListingSpec, listing_name, read_listing

    frames = [read_listing(ListingSpec(listing_name(p), p)) for p in sorted((REPO / "seeds").glob("*.txt"))]
    corpus, _ = build_corpus(frames)
    return corpus["text"].tolist()


def embed(texts: list[str]) -> np.ndarray:
    """The pipeline's default embedding (backend auto), cached under EMBED_CACHE."""
    from papertopics.embed import embed_texts

    vectors, stats = embed_texts(texts, cache_dir=EMBED_CACHE)
    if stats["computed"]:
        print(
            f"# embedded {stats['computed']} texts ({stats['backend']} {stats['precision']}, "
            f"{stats['docs_per_s']} docs/s), {stats['reused']} from cache",
            flush=True,
        )
    return vectors


# --------------------------------------------------------------------------- plain BERTopic


def plain_bertopic(seed: int, min_cluster_size: int = 10, **kwargs):
    """BERTopic's defaults, UMAP seeded (see module doc); min_cluster_size is what BERTopic's
    min_topic_size sets (10 by default)."""
    from bertopic import BERTopic
    from hdbscan import HDBSCAN
    from umap import UMAP

    umap_model = UMAP(
        n_neighbors=15, n_components=5, min_dist=0.0, metric="cosine", low_memory=False, random_state=seed
    )
    hdbscan_model = HDBSCAN(
        min_cluster_size=min_cluster_size,
        metric="euclidean",
        cluster_selection_method="eom",
        prediction_data=True,
    )
    return BERTopic(umap_model=umap_model, hdbscan_model=hdbscan_model, **kwargs)


def fit_plain(texts: list[str], vectors: np.ndarray, seed: int, min_cluster_size: int = 10, **kwargs):
    """Plain BERTopic fit on precomputed embeddings -> (model, topics array)."""
    model = plain_bertopic(seed, min_cluster_size, **kwargs)
    topics, _ = model.fit_transform(texts, embeddings=vectors)
    return model, np.asarray(topics)


def reduce_plain(model, texts: list[str], nr_topics: int):
    """A copy of a fitted plain model merged with reduce_topics(docs, nr_topics) -> (model, topics).

    Same result as fitting BERTopic(nr_topics=k) with the same seed: fit_transform runs the same
    _reduce_topics after the same UMAP/HDBSCAN/c-TF-IDF, and plain BERTopic has no
    representation model to re-run; this only avoids refitting UMAP once per k."""
    merged = copy.deepcopy(model)
    merged.reduce_topics(texts, nr_topics=nr_topics)
    return merged, np.asarray(merged.topics_)


# --------------------------------------------------------------------------- papertopics


def _digest(vectors: np.ndarray) -> str:
    return hashlib.sha1(np.ascontiguousarray(vectors).tobytes()).hexdigest()


@contextlib.contextmanager
def umap_cache():
    """Memoise papertopics.pipeline.umap_reduce (keyed by the vectors' bytes and the arguments),
    so model_topics with the same embeddings, UMAP settings and seed but another clustering or
    representation setting re-uses the reduction: same numbers, no refit."""
    import papertopics.pipeline as pipeline

    original = pipeline.umap_reduce
    memo: dict = {}

    def cached(vectors, **kwargs):
        key = (_digest(vectors), tuple(sorted(kwargs.items())))
        if key not in memo:
            memo[key] = original(vectors, **kwargs)
        return memo[key]

    pipeline.umap_reduce = cached
    try:
        yield memo
    finally:
        pipeline.umap_reduce = original


# HDBSCAN without the auto cap (hdbscan.max_cluster_size: 0), for the "before the cap" rows.
UNCAPPED = {"max_cluster_size": 0}


def topic_words(model, topics, top_n: int = 10) -> dict[int, list[str]]:
    """Real topic -> its top_n c-TF-IDF words (BERTopic's empty padding dropped)."""
    out = {}
    for t in sorted(set(np.asarray(topics).tolist()) - {-1}):
        out[t] = [w for w, s in (model.get_topic(t) or [])[:top_n] if w]
    return out


# --------------------------------------------------------------------------- misc


class Clock:
    def __init__(self):
        self.start = time.perf_counter()

    def __call__(self) -> float:
        return time.perf_counter() - self.start


def fmt(value, digits: int = 3) -> str:
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.{digits}f}"
    return str(value)
