"""The corpora of bench/names_regions.py, clustered once and cached (`prepare`: the seeds,
NeurIPS 2023, arXiv 6k, their text-only variants), and the fit_topics stage on them (`fit`,
`time_fit`)."""

from __future__ import annotations

import json
import pickle
from pathlib import Path

import _common_eval as ce  # bench/ is on sys.path when a bench script runs
import _names
import numpy as np
import pandas as pd

# --runs: a folder holding finished runs base-seeds/ and base-neurips/ whose clusters to reuse
RUNS: Path | None = None


def prepare(name: str, cache: Path) -> dict:
    """corpus, vectors, clusters, assignment, confidence (+ categories) of one corpus, cached."""
    path = cache / f"{name}.pkl"
    if path.exists():
        return pickle.loads(path.read_bytes())
    from papertopics.ingest.corpus import build_corpus
    from papertopics.ingest.listings import ListingSpec, listing_name, read_listing

    run = RUNS / f"base-{name}" / "results" if RUNS else None
    if name != "arxiv" and run is not None and run.exists():  # finished runs: their clusters
        from papertopics.artifacts import load_embeddings

        clusters = pd.read_parquet(run / "cluster" / "clusters.parquet")
        data = {
            "corpus": pd.read_parquet(run / "corpus" / "corpus.parquet"),
            "vectors": load_embeddings(run / "embed" / "embeddings.parquet")[1],
            "clusters": clusters["cluster"].to_numpy(),
            "assignment": clusters["assignment"].to_numpy(),
            "confidence": clusters["confidence"].to_numpy(),
            "cats": None,
        }
        path.write_bytes(pickle.dumps(data))
        return data
    cats = None
    if name == "seeds":
        frames = [
            read_listing(ListingSpec(listing_name(p), p)) for p in sorted((ce.REPO / "seeds").glob("*.txt"))
        ]
    elif name == "neurips":
        frames = [read_listing(ListingSpec("neurips2023", ce.NEURIPS))]
    elif name == "arxiv-cl":  # one field: 2,500 cs.CL abstracts as a text listing, like an ACL listing
        records = [r for r in ce.arxiv_records() if r["primary_category"] == "cs.CL"]
        picked = [records[i] for i in np.random.default_rng(0).choice(len(records), 2500, replace=False)]
        texts = [" ".join(r["abstract"].split()) for r in picked]
        corpus = _names.text_listing("arxiv-cl", "arXiv cs.CL", texts)
        title_of = dict(zip(texts, (r["title"] for r in picked)))
    elif name == "neurips-text":  # abstracts only, as a text listing (the seeds' format) has them
        import gzip

        records = [json.loads(line) for line in gzip.open(ce.NEURIPS, "rt", encoding="utf-8")]
        corpus = _names.text_listing("neurips2023", "NeurIPS 2023", [r["abstract"] for r in records])
        title_of = {" ".join(r["abstract"].split()): r["title"] for r in records}
    else:  # arXiv 6k: bench/_common_eval.load_arxiv_sample's sample, written as a JSONL listing
        picked = ce.arxiv_sample_records()
        listing = cache / "arxiv6k.jsonl"
        with listing.open("w", encoding="utf-8") as handle:
            for r in picked:
                handle.write(
                    json.dumps({"title": r["title"], "abstract": r["abstract"], "id": r["id"]}) + "\n"
                )
        frames = [read_listing(ListingSpec("arxiv6k", listing))]
        cats = {r["id"]: r["primary_category"] for r in picked}
    if name not in ("arxiv-cl", "neurips-text"):
        corpus, _ = build_corpus(frames)
    titles = None
    if name in ("neurips-text", "arxiv-cl"):  # for the stand-ins only: the names never see them
        titles = [title_of.get(" ".join(str(t).split()), "") for t in corpus["text_raw"]]
    if cats is not None:
        cats = [cats.get(str(i), "") for i in corpus["id"]]  # the listing's own id column
    data = {**_names.clustered(corpus), "cats": cats, "titles": titles}
    path.write_bytes(pickle.dumps(data))
    return data


def name_index(data: dict):
    """The corpus's NameIndex as rule index_phrases builds it, once per prepared corpus."""
    from papertopics.topics.names.phrases import NameIndex

    if "index" not in data:
        corpus = data["corpus"]
        data["index"] = NameIndex.build(corpus["text_raw"].tolist(), corpus["title"].fillna("").tolist())
    return data["index"]


def phrase_vectors(data: dict) -> dict:
    """The corpus's candidate names embedded as rule embed_phrases does (the bench's cache)."""
    if "phrases" not in data:
        phrases = name_index(data).nameable()
        data["phrases"] = dict(zip(phrases, ce.embed(phrases)))
    return data["phrases"]


def fit(data: dict, index=None, terms=None):
    """fit_topic_tables as the fit_topics rule runs it, on a corpus of names_regions (its cached
    name index and phrase vectors)."""
    index = index if index is not None else name_index(data)
    return _names.fit(data, data["corpus"], index=index, vectors=phrase_vectors(data), terms=terms)


def time_fit(name: str, data: dict, repeats: int) -> None:
    """fit_topic_tables as the fit_topics rule runs it (name index and term counts given, as the
    index_phrases and count_terms rules make them): best of `repeats`, same process."""
    import time

    from papertopics.pipeline import default_config
    from papertopics.topics.terms import count_terms

    corpus = data["corpus"]
    index = name_index(data)
    from papertopics.topics.names.score import static_features

    static_features(index)  # what NameIndex.save computes before fit_topics loads it
    terms = count_terms(corpus["text"].tolist(), default_config()["vectorizer"])
    seconds = []
    for _ in range(repeats):
        start = time.perf_counter()
        fit(data, index=index, terms=terms)
        seconds.append(time.perf_counter() - start)
    print(
        f"{name}: fit_topic_tables best of {repeats}: {min(seconds):.2f} s (all: "
        + ", ".join(f"{x:.2f}" for x in seconds)
        + ")"
    )
