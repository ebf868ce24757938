"""Topics against human divisions: new defaults vs today's vs plain BERTopic, same embeddings, one run.

    .venv/bin/python bench/grouping.py [--corpora arxiv6k mixed bbc neurips] [LISTING_WITH_label_COLUMN ...]
    .venv/bin/python bench/grouping.py --corpora neurips --stability 5

For each labelled corpus (arXiv 6k stratified: 6 primary categories; arXiv mixed: up to 100
abstracts of each of the 18 primary categories with >= 61, unequal groups like a conference's
tracks; OCTIS BBC News: 5 labels; any listing given on the command line whose table has a
`label` column) prints NMI and ARI
(outliers counted as one more group), topics, outlier share and, for the new defaults, the share
assigned to the nearest topic; NPMI and diversity of the top-10 terms (OCTIS protocol, as
bench/octis_bbc.py) on BBC. NeurIPS 2023 has no labels: topics and shares only.

  new defaults    default_config(random_state=42) through papertopics.pipeline.model_topics
  no merging      the same with hdbscan.merge_similarity null (the defaults before near-twin
                  clusters were merged)
  today           the same with clustering.assign_min_confidence 1.01 (no outlier assignment) and
                  agglomerative.min_cluster_size max(3, N // 10) (the earlier small-corpus rule)
  plain BERTopic  BERTopic's defaults (bench/_common_eval.py)

--stability K: on NeurIPS, K UMAP refits (seeds 43..42+K) re-clustered as assess_stability does,
ARI of the run's topics vs each refit's, for today's and the new defaults on the same refits.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from _common_eval import (
    Clock,
    embed,
    fit_plain,
    fmt,
    load_arxiv_sample,
    load_bbc,
    load_neurips,
    load_proxy,
    print_table,
    umap_cache,
)


def no_merging(seed: int) -> dict:
    from papertopics.pipeline import default_config

    return default_config(random_state=seed, hdbscan={"merge_similarity": None})


def today(n: int, seed: int) -> dict:
    from papertopics.pipeline import default_config

    return default_config(
        random_state=seed,
        clustering={"assign_min_confidence": 1.01},
        agglomerative={"min_cluster_size": max(3, n // 10)},
        hdbscan={"merge_similarity": None},
    )


def load_listing(path: str):
    from pathlib import Path

    from papertopics.ingest.corpus import build_corpus
    from papertopics.ingest.listings import ListingSpec, listing_name, read_listing

    frame = read_listing(ListingSpec(listing_name(Path(path)), Path(path)))
    corpus, _ = build_corpus([frame])
    if "label" not in corpus.columns:
        raise SystemExit(f"{path}: no `label` column")
    return corpus["text"].tolist(), corpus["label"].astype(str).tolist()


def topic_words(model, topics) -> dict[int, list[str]]:
    return {
        t: [w for w, s in (model.get_topic(t) or [])[:10] if w] for t in sorted(set(topics.tolist()) - {-1})
    }


def score(name, corpus, texts, labels, topics, model=None, seconds=None, assignment=None) -> dict:
    from papertopics.evaluate.agreement import label_agreement
    from papertopics.evaluate.coherence import npmi_coherence
    from papertopics.evaluate.diversity import topic_diversity

    topics = np.asarray(topics)
    row = {
        "corpus": corpus,
        "model": name,
        "topics": len(set(topics.tolist()) - {-1}),
        "outliers": fmt(float((topics == -1).mean())),
        "assigned": fmt(float((np.asarray(assignment) == "nearest").mean()))
        if assignment is not None
        else "-",
        "seconds": fmt(seconds, 1) if seconds is not None else "",
    }
    if labels is not None:
        agree = label_agreement(topics, labels)
        row.update(nmi=fmt(agree["nmi"]), ari=fmt(agree["ari"]))
    if corpus == "bbc" and model is not None:
        words = topic_words(model, topics)
        row.update(
            npmi=fmt(npmi_coherence(words, texts, top_n=10, stop_words=[])["mean"]),
            diversity=fmt(topic_diversity(words, 10)),
        )
    return row


def stability_study(texts, vectors, runs: int, seed: int = 42) -> list[dict]:
    from sklearn.metrics import adjusted_rand_score

    import papertopics.pipeline as pipeline
    from papertopics.cluster.assign import assign_nearest
    from papertopics.cluster.clustering import cluster_documents
    from papertopics.params import resolve_hdbscan, resolve_umap
    from papertopics.pipeline import default_config

    n = len(texts)
    config = default_config(random_state=seed)
    umap, hdbscan = resolve_umap(config["umap"], n), resolve_hdbscan(config["hdbscan"], n)
    refits = [pipeline.umap_reduce(vectors, random_state=seed + k, **umap) for k in range(runs + 1)]

    def clusters(merge_similarity):
        settings = {**hdbscan, "merge_similarity": merge_similarity}
        return [
            cluster_documents(vectors, r, method="hdbscan", hdbscan=settings, agglomerative={})[0]
            for r in refits
        ]

    unmerged, merged = clusters(None), clusters(hdbscan["merge_similarity"])
    q = config["clustering"]["assign_min_confidence"]
    rows = []
    for name, labels, assign in (
        ("today (no assignment)", unmerged, False),
        ("no merging", unmerged, True),
        ("new defaults", merged, True),
    ):
        final = [assign_nearest(vectors, lab, min_confidence=q)[0] if assign else lab for lab in labels]
        aris = [adjusted_rand_score(final[0], other) for other in final[1:]]
        rows.append(
            {
                "model": name,
                "refits": runs,
                "ari": fmt(float(np.mean(aris))),
                "per_refit": " ".join(fmt(a) for a in aris),
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("listings", nargs="*", help="listing files with a `label` column")
    parser.add_argument("--corpora", nargs="*", default=["arxiv6k", "mixed", "bbc", "neurips"])
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--stability", type=int, default=0, help="NeurIPS refits for the stability ARI")
    args = parser.parse_args()
    from papertopics.pipeline import default_config, model_topics

    clock = Clock()
    rows = []
    corpora = [(c, None) for c in args.corpora] + [(p, p) for p in args.listings]
    with umap_cache():
        for name, path in corpora:
            if path:
                texts, labels = load_listing(path)
            elif name == "arxiv6k":
                texts, labels = load_arxiv_sample()
            elif name == "mixed":
                texts, labels = load_proxy()
            elif name == "bbc":
                texts, labels = load_bbc()
            else:
                texts, labels = load_neurips(), None
            vectors = embed(texts)
            n = len(texts)
            if args.stability and name == "neurips":
                stab = stability_study(texts, vectors, args.stability, args.seed)
                print(f"\nstability on NeurIPS 2023 ({n} abstracts), ARI of the run vs each UMAP refit")
                print_table(stab, ["model", "refits", "ari", "per_refit"])
                print(flush=True)
            # the new defaults and the earlier ones show how many outliers joined a topic
            for row_name, config, assigning in (
                ("new defaults", default_config(random_state=args.seed), True),
                ("no merging", no_merging(args.seed), True),
                ("today", today(n, args.seed), False),
            ):
                start = time.perf_counter()
                run = model_topics(texts, vectors, config)
                seconds = time.perf_counter() - start
                assignment = run.assignment if assigning else None
                rows.append(score(row_name, name, texts, labels, run.topics, run.model, seconds, assignment))
            start = time.perf_counter()
            model, topics = fit_plain(texts, vectors, args.seed)
            rows.append(
                score("plain BERTopic", name, texts, labels, topics, model, time.perf_counter() - start)
            )
            print(f"# {name}: {n} documents ({clock():.0f} s)", flush=True)
            print_table(
                rows[-4:],
                [
                    "corpus",
                    "model",
                    "topics",
                    "outliers",
                    "assigned",
                    "nmi",
                    "ari",
                    "npmi",
                    "diversity",
                    "seconds",
                ],
            )
    print(
        f"\nall corpora, random_state {args.seed} (seconds: in-process on cached embeddings, loaded machine;"
        " today's UMAP is reused from the new defaults' run)"
    )
    print_table(
        rows,
        ["corpus", "model", "topics", "outliers", "assigned", "nmi", "ari", "npmi", "diversity", "seconds"],
    )
    print(f"\nwall {clock():.0f} s")


if __name__ == "__main__":
    main()
