"""NPMI coherence and topic diversity on OCTIS BBC News, with the BERTopic paper's protocol.

    .venv/bin/python bench/octis_bbc.py [--seeds 42 43 44] [--ks 10 20 30 40 50] [--no-paper]

Protocol (Grootendorst 2022, Table 1; MaartenGr/BERTopic_evaluation): all 2,225 preprocessed
documents, embedded with all-MiniLM-L6-v2 (here the pipeline's default backend of it); topics
merged down to nr_topics = 10, 20, 30, 40, 50 (BERTopic counts the outlier group as one of
them); 3 runs per k; each run scored by NPMI (OCTIS c_npmi = gensim: top-10 words of every real
topic, 10-token sliding windows over the corpus itself) and topic diversity (unique share of
the top-10 words); the figure is the mean over all 15 runs. The paper reports 0.170 / 0.802 for
BERTopic with MiniLM.

Models, all on the same embeddings in the same process, seeds 42, 43, 44:
  papertopics 1-gram  default_config() with vectorizer.ngram_range [1, 1] (the paper's BERTopic
                      used unigrams) and topics.nr_topics = k: model_topics, as the workflow runs
  papertopics 1+2     the shipped default (ngram_range [1, 2]), same otherwise
  plain BERTopic      BERTopic defaults (min_cluster_size 10, see bench/_common_eval.py), merged
                      with reduce_topics(docs, nr_topics=k)
  paper BERTopic      the same with min_topic_size=5, the paper's own setting for BBC News
                      (results/Basic/BBC News/bertopic_mini_*.json in BERTopic_evaluation)

NPMI is computed with stop_words=[] because the OCTIS corpus is already stop-word-free: the
windows are then exactly OCTIS's. The paper swapped a top word missing from the corpus for the
corpus's first word; gensim 4 / papertopics drop it instead; with unigrams from this corpus no
word is missing (the "missing" column says so).

BERTopic's merge cannot add topics: where a model found fewer clusters than k (papertopics finds
~30 on BBC), the k = 40 and 50 rows score its unmerged topics; "topics" shows the real counts.
"""

from __future__ import annotations

import argparse

import numpy as np
from _common_eval import (
    Clock,
    embed,
    fit_plain,
    fmt,
    load_bbc,
    print_table,
    reduce_plain,
    topic_words,
    umap_cache,
)

PAPER = {"npmi": 0.170, "diversity": 0.802}


def score(model, topics, texts) -> dict:
    from papertopics.evaluate.agreement import outlier_share
    from papertopics.evaluate.coherence import npmi_coherence
    from papertopics.evaluate.diversity import topic_diversity

    words = topic_words(model, topics, 10)
    npmi = npmi_coherence(words, texts, top_n=10, stop_words=[])
    return {
        "npmi": npmi["mean"],
        "diversity": topic_diversity(words, 10),
        "n_topics": len(words),
        "outliers": outlier_share(topics),
        "missing": sum(len(v) for v in npmi["missing_terms"].values()),
    }


def table(models, ks, results, unmerged, largest) -> list[dict]:
    """One row per model and nr_topics (means over seeds), a mean row per model, the paper's row."""
    rows = []
    for name in models:
        for k in ks:
            runs = results[name][k]
            rows.append(
                {
                    "model": name,
                    "nr_topics": k,
                    "topics": "/".join(str(r["n_topics"]) for r in runs),
                    "outliers": fmt(float(np.mean([r["outliers"] for r in runs]))),
                    "npmi": fmt(float(np.mean([r["npmi"] for r in runs]))),
                    "diversity": fmt(float(np.mean([r["diversity"] for r in runs]))),
                    "missing": sum(r["missing"] for r in runs),
                }
            )
        every = [r for k in ks for r in results[name][k]]
        rows.append(
            {
                "model": name,
                "nr_topics": "mean",
                "topics": f"unmerged {'/'.join(map(str, unmerged[name]))}, largest "
                f"{'/'.join(fmt(x, 2) for x in largest[name])}",
                "outliers": fmt(float(np.mean([r["outliers"] for r in every]))),
                "npmi": fmt(float(np.mean([r["npmi"] for r in every]))),
                "diversity": fmt(float(np.mean([r["diversity"] for r in every]))),
                "missing": sum(r["missing"] for r in every),
            }
        )
    rows.append(
        {
            "model": "BERTopic paper (MiniLM)",
            "nr_topics": "mean",
            "topics": "",
            "outliers": "",
            "npmi": fmt(PAPER["npmi"]),
            "diversity": fmt(PAPER["diversity"]),
            "missing": "",
        }
    )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, nargs="+", default=[42, 43, 44])
    parser.add_argument("--ks", type=int, nargs="+", default=[10, 20, 30, 40, 50])
    parser.add_argument("--no-paper", action="store_true", help="skip the min_topic_size=5 reference")
    args = parser.parse_args()
    clock = Clock()

    from papertopics.pipeline import default_config, model_topics

    texts, _labels = load_bbc()
    vectors = embed(texts)
    print(f"# {len(texts)} documents embedded/loaded in {clock():.1f} s", flush=True)

    results: dict[str, dict[int, list[dict]]] = {}
    models = ["papertopics 1-gram", "papertopics 1+2", "plain BERTopic"]
    if not args.no_paper:
        models.append("paper BERTopic (min_topic_size=5)")
    for name in models:
        results[name] = {k: [] for k in args.ks}
    unmerged: dict[str, list[int]] = {name: [] for name in models}
    largest: dict[str, list[float]] = {name: [] for name in models}

    def note(name: str, labels) -> None:
        labels = np.asarray(labels)
        unmerged[name].append(len(set(labels.tolist()) - {-1}))
        largest[name].append(float(np.bincount(labels[labels >= 0]).max() / len(labels)))

    with umap_cache():
        for seed in args.seeds:
            for name, ngram in (("papertopics 1-gram", [1, 1]), ("papertopics 1+2", [1, 2])):
                base = model_topics(
                    texts, vectors, default_config(random_state=seed, vectorizer={"ngram_range": ngram})
                )
                note(name, base.labels)
                for k in args.ks:
                    run = model_topics(
                        texts,
                        vectors,
                        default_config(
                            random_state=seed, vectorizer={"ngram_range": ngram}, topics={"nr_topics": k}
                        ),
                    )
                    results[name][k].append(score(run.model, run.topics, texts))
            print(
                f"# seed {seed}: papertopics done ({clock():.0f} s; clusters {base.resolved['hdbscan']})",
                flush=True,
            )
            plain = [("plain BERTopic", 10)]
            if not args.no_paper:
                plain.append(("paper BERTopic (min_topic_size=5)", 5))
            for name, size in plain:
                model, topics = fit_plain(texts, vectors, seed, min_cluster_size=size)
                note(name, topics)
                for k in args.ks:
                    merged, merged_topics = reduce_plain(model, texts, k)
                    results[name][k].append(score(merged, merged_topics, texts))
            print(f"# seed {seed}: plain done ({clock():.0f} s)", flush=True)

    rows = table(models, args.ks, results, unmerged, largest)
    print(
        f"\nOCTIS BBC News, {len(texts)} docs, seeds {args.seeds}; topics = real topics per seed; "
        f"npmi/diversity = mean over seeds (mean rows: over all k and seeds;\n"
        f"unmerged = real topics before merging, largest = share of documents in the largest one)"
    )
    print_table(rows, ["model", "nr_topics", "topics", "outliers", "npmi", "diversity", "missing"])
    print(f"\nwall {clock():.0f} s")


if __name__ == "__main__":
    main()
