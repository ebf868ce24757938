"""Topic names before (top c-TF-IDF terms) and after (papertopics.topics.names.phrases), side by side.

Same embeddings, same clusters, same c-TF-IDF model: only the naming differs. Proxies:
- title share: topics whose name occurs (plural/singular folded; its acronym counts) in at
  least a fifth of its members' titles (NeurIPS 2023, arXiv 6k; before: the label's first term);
- category agreement (arXiv 6k): the name's MiniLM vector is nearer to the name of the topic's
  dominant primary category than to the other five category names;
- distinct: share of topics whose name no other topic has; words: mean words per name.

    PYTHONPATH=src .venv/bin/python bench/names.py [--rows 20]
"""

from __future__ import annotations

import argparse
import gzip
import json
import pickle
import re
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import _common_eval as ce  # noqa: E402

DATA = Path("/work/shared/data") if not ce.DATA.exists() else ce.DATA
CATEGORY_NAMES = {
    "cs.CV": "computer vision and pattern recognition",
    "cs.CL": "computation and language",
    "cs.AI": "artificial intelligence",
    "cs.IT": "information theory",
    "cs.LG": "machine learning",
    "cs.GR": "graphics",
}


def load(name: str):
    """(raw texts, cleaned texts, titles, categories or None)."""
    from papertopics.ingest.corpus import build_corpus
    from papertopics.ingest.listings import ListingSpec, listing_name, read_listing

    if name == "seeds":
        frames = [
            read_listing(ListingSpec(listing_name(p), p)) for p in sorted((ce.REPO / "seeds").glob("*.txt"))
        ]
    elif name == "neurips":
        frames = [read_listing(ListingSpec("neurips2023", DATA / "neurips2023" / "neurips2023.jsonl.gz"))]
    else:
        return load_arxiv()
    corpus, _ = build_corpus(frames)
    return corpus["text_raw"].tolist(), corpus["text"].tolist(), corpus["title"].fillna("").tolist(), None


def load_arxiv(per_category: int = 1000, n_categories: int = 6, seed: int = 0):
    """bench/_common_eval.load_arxiv_sample's exact sample, with raw abstracts and titles."""
    from papertopics.ingest.clean import clean_text

    records = []
    with gzip.open(DATA / "arxiv-daily" / "arxiv-daily.jsonl.gz", "rt", encoding="utf-8") as handle:
        for line in handle:
            r = json.loads(line)
            records.append((r["primary_category"], r["abstract"], r.get("title", "")))
    top = [cat for cat, _ in Counter(c for c, _, _ in records).most_common(n_categories)]
    rng = np.random.default_rng(seed)
    picked = []
    for cat in top:
        idx = [i for i, (c, _, _) in enumerate(records) if c == cat]
        picked.extend(rng.choice(idx, size=min(per_category, len(idx)), replace=False).tolist())
    picked = rng.permutation(picked)
    raw = [records[i][1] for i in picked]
    return raw, [clean_text(t) for t in raw], [records[i][2] for i in picked], [records[i][0] for i in picked]


def _fold(text: str) -> str:
    from papertopics.topics.names.phrases import singular

    return " " + " ".join(singular(w) for w in re.findall(r"[\w\-]+", text.lower())) + " "


def title_share(names: dict[int, str], assigned: np.ndarray, titles: list[str], first_term: bool) -> float:
    folded = [_fold(t) for t in titles]
    hits = 0
    topics = [t for t in names if t != -1]
    for t in topics:
        name = names[t].split(",")[0] if first_term else names[t]
        m = re.match(r"(.*?)\s*\(([^)]*)\)$", name)
        forms = [m.group(1), m.group(2)] if m else [name]
        forms = [_fold(f) for f in forms if f.strip()]
        members = np.flatnonzero(assigned == t)
        share = np.mean([any(f in folded[i] for f in forms) for i in members])
        hits += share >= 0.2
    return hits / max(len(topics), 1)


def category_agreement(names: dict[int, str], assigned: np.ndarray, cats: list[str]) -> float:
    topics = [t for t in names if t != -1]
    labels = list(CATEGORY_NAMES)
    vectors = ce.embed([names[t] for t in topics] + [CATEGORY_NAMES[c] for c in labels])
    vectors = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    names_v, cat_v = vectors[: len(topics)], vectors[len(topics) :]
    cats = np.asarray(cats)
    agree = 0
    for k, t in enumerate(topics):
        dominant = Counter(cats[assigned == t]).most_common(1)[0][0]
        agree += labels[int(np.argmax(cat_v @ names_v[k]))] == dominant
    return agree / max(len(topics), 1)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rows", type=int, default=20)
    parser.add_argument("--corpora", default="seeds,neurips,arxiv")
    parser.add_argument(
        "--reuse", action="store_true", help="reuse the clusters of the last run (naming only)"
    )
    args = parser.parse_args()

    from papertopics.pipeline import default_config, model_topics
    from papertopics.topics.names.phrases import NameIndex, name_topics
    from papertopics.topics.representation import top_terms, topic_labels

    config = default_config()
    summary = []
    for corpus in args.corpora.split(","):
        raw, clean, titles, cats = load(corpus)
        cache = Path(f"/tmp/names-bench-{corpus}.pkl")
        if args.reuse and cache.exists():
            assigned, before, terms = pickle.loads(cache.read_bytes())
        else:
            vectors = ce.embed(clean)
            run = model_topics(clean, vectors, config)
            assigned = run.topics
            before = topic_labels(
                run.model,
                assigned,
                config["representation"]["label_terms"],
                config["representation"]["top_n_words"],
            )
            terms = {
                t: top_terms(run.model, t, config["representation"]["top_n_words"]) for t in before if t != -1
            }
            cache.write_bytes(pickle.dumps((assigned, before, terms)))
        start = time.perf_counter()
        index = NameIndex.build(raw, titles if corpus != "seeds" else None)
        after = name_topics(index, assigned, fallback=before, keywords=terms).names
        seconds = time.perf_counter() - start
        topics = [t for t in sorted(after) if t != -1]
        row = {
            "corpus": corpus,
            "docs": len(clean),
            "topics": len(topics),
            "naming_s": round(seconds, 2),
            "distinct_before": len({before[t] for t in topics}) / len(topics),
            "distinct_after": len({after[t].lower() for t in topics}) / len(topics),
            "words_after": np.mean([len(after[t].split()) for t in topics]),
        }
        if corpus != "seeds":
            row["title_before"] = title_share(before, assigned, titles, True)
            row["title_after"] = title_share(after, assigned, titles, False)
        if cats is not None:
            row["category_before"] = category_agreement(before, assigned, cats)
            row["category_after"] = category_agreement(after, assigned, cats)
        summary.append(row)
        print(f"\n## {corpus}: {len(topics)} topics; names took {seconds:.2f} s", flush=True)
        sizes = Counter(assigned.tolist())
        shown = sorted(topics, key=lambda t: -sizes[t])[: args.rows] if corpus != "seeds" else topics
        print("| topic | size | before | after | top terms |\n|---|---|---|---|---|")
        for t in shown:
            print(f"| {t} | {sizes[t]} | {before[t]} | {after[t]} | {', '.join(terms[t][:6])} |")
    print("\n## proxies")
    keys = sorted(
        {k for row in summary for k in row},
        key=lambda k: list(summary[0]).index(k) if k in summary[0] else 99,
    )
    print("| " + " | ".join(keys) + " |\n|" + "---|" * len(keys))
    for row in summary:
        print(
            "| "
            + " | ".join(ce.fmt(row.get(k, "")) if not isinstance(row.get(k), str) else row[k] for k in keys)
            + " |"
        )


if __name__ == "__main__":
    main()
