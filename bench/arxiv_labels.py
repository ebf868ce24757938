"""Topics against arXiv primary categories: NMI and ARI, papertopics vs plain BERTopic.

    .venv/bin/python bench/arxiv_labels.py [--seeds 42 43 44] [--per-category 1000] [--no-variants]

Data: a stratified sample of 1,000 abstracts from each of the six largest primary categories of
arxiv-daily (cs.CV, cs.CL, cs.AI, cs.IT, cs.LG, cs.GR), drawn with numpy seed 0; abstracts cleaned
with papertopics.ingest.text.clean_text, as the workflow embeds them; default embedding backend.

For each UMAP seed, on the same embeddings:
  papertopics     default_config(random_state=seed) through model_topics (the workflow's path)
  plain BERTopic  BERTopic defaults (bench/_common_eval.py)
each (a) unmerged and (b) merged to 6 real topics. Merging: BERTopic's topic reduction
(AgglomerativeClustering, average linkage on the cosine distance between topic embeddings),
which is what the workflow's topics.nr_topics runs: papertopics gets topics.nr_topics = 7 (BERTopic
counts the outlier group as one of the nr_topics, so 7 = 6 topics + outliers; 6 when no
outliers), plain BERTopic gets reduce_topics(docs, nr_topics=7), the same code after the fit.
We chose this over cutting hierarchical_topics() because it is the merge users get from the
config, and a cut of the c-TF-IDF Ward tree does not always land on exactly 6.

Scores (papertopics.evaluate.agreement.label_agreement): NMI and ARI with the outlier group counted as
one more topic (the headline: a model may not hide hard documents in -1), and the same on the
non-outlier documents only ("kept" columns; flattering for models with many outliers).

--no-variants drops the rows of the investigation in bench/README.md: outliers reassigned to
topics after clustering (papertopics: topics.reduce_outliers: embeddings; plain BERTopic: the same
model.reduce_outliers(docs, topics, strategy="embeddings", embeddings=vectors)).
"""

from __future__ import annotations

import argparse

import numpy as np
from _common_eval import (
    UNCAPPED,
    Clock,
    embed,
    fit_plain,
    fmt,
    load_arxiv_sample,
    print_table,
    reduce_plain,
    umap_cache,
)

N_LABELS = 6


def scores(topics, cats) -> dict:
    from papertopics.evaluate.agreement import label_agreement, n_topics, outlier_share

    topics = np.asarray(topics)
    full = label_agreement(topics, cats)
    kept = label_agreement(topics, cats, exclude_outliers=True)
    kept_topics = topics[topics >= 0]
    largest = float(np.bincount(kept_topics).max() / len(topics)) if len(kept_topics) else 0.0
    return {
        "topics": n_topics(topics),
        "outliers": outlier_share(topics),
        "largest": largest,
        "nmi": full["nmi"],
        "ari": full["ari"],
        "nmi_kept": kept["nmi"],
        "ari_kept": kept["ari"],
    }


def merged_count(topics) -> int:
    return N_LABELS + int((np.asarray(topics) == -1).any())


def plain_runs(add, texts, vectors, seed: int, variants: bool) -> None:
    """Plain BERTopic on the same vectors, as is and merged to the labels' count (and with
    reduce_outliers when `variants`), each handed to `add(model, merge, seed, topics)`."""
    model, topics = fit_plain(texts, vectors, seed)
    add("plain BERTopic", "none", seed, topics)
    _, merged_topics = reduce_plain(model, texts, merged_count(topics))
    add("plain BERTopic", "6 topics", seed, merged_topics)
    if variants:
        name = "plain BERTopic +reduce_outliers=embeddings"
        add(
            name,
            "none",
            seed,
            model.reduce_outliers(texts, topics.tolist(), strategy="embeddings", embeddings=vectors),
        )
        merged_model, merged_topics = reduce_plain(model, texts, merged_count(topics))
        add(
            name,
            "6 topics",
            seed,
            merged_model.reduce_outliers(
                texts, merged_topics.tolist(), strategy="embeddings", embeddings=vectors
            ),
        )


def report(rows: list[dict], n_texts: int) -> None:
    """Per-seed rows, each model's means, and the NMI gain over plain BERTopic."""
    keys = ["topics", "outliers", "largest", "nmi", "ari", "nmi_kept", "ari_kept"]
    table = []
    for r in rows:
        table.append({**r, **{k: fmt(r[k]) for k in keys}})
    for model, merge in dict.fromkeys((r["model"], r["merge"]) for r in rows):
        group = [r for r in rows if r["model"] == model and r["merge"] == merge]
        table.append(
            {
                "model": model,
                "merge": merge,
                "seed": "mean",
                **{k: fmt(float(np.mean([g[k] for g in group])), 1 if k == "topics" else 3) for k in keys},
            }
        )
    print(
        f"\narXiv {n_texts} abstracts, 6 primary categories; largest = share of documents in the "
        f"largest topic; NMI/ARI count outliers as a topic; *_kept: non-outlier documents only"
    )
    print_table(table, ["model", "merge", "seed", *keys])
    means = {(r["model"], r["merge"]): r for r in table if r["seed"] == "mean"}
    for (model, merge), row in means.items():
        if not model.startswith("papertopics"):
            continue
        plain = means[
            (
                "plain BERTopic +reduce_outliers=embeddings"
                if "reduce_outliers" in model
                else "plain BERTopic",
                merge,
            )
        ]
        gain = float(row["nmi"]) - float(plain["nmi"])
        flag = "  DEGENERATE: one topic holds > half the documents" if float(row["largest"]) > 0.5 else ""
        print(f"NMI gain, {model} vs {plain['model']}, merge={merge}: {gain:+.3f} (goal >= +0.05){flag}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[42, 43, 44])
    parser.add_argument("--per-category", type=int, default=1000)
    parser.add_argument("--no-variants", action="store_true")
    args = parser.parse_args()
    clock = Clock()

    from papertopics.pipeline import default_config, model_topics

    texts, cats = load_arxiv_sample(per_category=args.per_category)
    vectors = embed(texts)
    counts = {c: cats.count(c) for c in dict.fromkeys(sorted(cats))}
    print(f"# {len(texts)} abstracts {counts}; loaded+embedded in {clock():.1f} s", flush=True)

    rows = []

    def add(model: str, merge: str, seed: int, topics) -> None:
        rows.append({"model": model, "merge": merge, "seed": seed, **scores(topics, cats)})

    with umap_cache():
        for seed in args.seeds:
            base = default_config(random_state=seed)
            ours = model_topics(texts, vectors, base)
            add("papertopics", "none", seed, ours.topics)
            k = merged_count(ours.topics)
            merged = model_topics(texts, vectors, default_config(random_state=seed, topics={"nr_topics": k}))
            add("papertopics", "6 topics", seed, merged.topics)
            print(f"# seed {seed}: papertopics {ours.resolved['hdbscan']} ({clock():.0f} s)", flush=True)
            if not args.no_variants:
                run = model_topics(
                    texts,
                    vectors,
                    default_config(random_state=seed, topics={"reduce_outliers": "embeddings"}),
                )
                add("papertopics +reduce_outliers=embeddings", "none", seed, run.topics)
                run = model_topics(
                    texts,
                    vectors,
                    default_config(
                        random_state=seed,
                        topics={"reduce_outliers": "embeddings", "nr_topics": merged_count(run.labels)},
                    ),
                )
                add("papertopics +reduce_outliers=embeddings", "6 topics", seed, run.topics)
                for name, hdbscan in (("papertopics without the cap (max_cluster_size 0)", UNCAPPED),):
                    run = model_topics(texts, vectors, default_config(random_state=seed, hdbscan=hdbscan))
                    add(name, "none", seed, run.topics)
                    run = model_topics(
                        texts,
                        vectors,
                        default_config(
                            random_state=seed, hdbscan=hdbscan, topics={"nr_topics": merged_count(run.labels)}
                        ),
                    )
                    add(name, "6 topics", seed, run.topics)
                print(f"# seed {seed}: variants ({clock():.0f} s)", flush=True)
            plain_runs(add, texts, vectors, seed, variants=not args.no_variants)
            print(f"# seed {seed}: plain BERTopic ({clock():.0f} s)", flush=True)

    report(rows, len(texts))
    print(f"\nwall {clock():.0f} s")


if __name__ == "__main__":
    main()
