"""Research sweep for issue 10 (not the benchmark): lexical weight x HDBSCAN selection x nearest
assignment, on labelled corpora, cluster labels only (no c-TF-IDF), same embeddings.

    .venv/bin/python bench/_grouping_research.py [--corpora arxiv6k proxy bbc neurips]
"""

from __future__ import annotations

import argparse
import gzip
import json

import numpy as np
from _common_eval import ARXIV, Clock, embed, fmt, load_arxiv_sample, load_bbc, load_neurips, print_table

from papertopics.cluster.assign import normalise  # noqa: E402


def lexical_features(texts: list[str], *, n_components: int, random_state: int) -> np.ndarray:
    """LSA of sublinear TF-IDF (English + domain stop words, terms in >= 2 and <= half the docs)."""
    from sklearn.decomposition import TruncatedSVD
    from sklearn.feature_extraction.text import TfidfVectorizer

    from papertopics.topics.stopwords import stop_words

    n = len(texts)
    vectorizer = TfidfVectorizer(
        stop_words=list(stop_words(True, [])),
        sublinear_tf=True,
        min_df=2 if n >= 20 else 1,
        max_df=0.5 if n >= 20 else 1.0,
        token_pattern=r"(?u)\b[^\W\d_][\w\-]*\w\b",
        dtype=np.float32,
    )
    try:
        tfidf = vectorizer.fit_transform(texts)
    except ValueError:  # no term survives (tiny or empty corpus): no lexical signal
        return np.zeros((n, 1), dtype=np.float32)
    k = int(min(n_components, tfidf.shape[1] - 1, n - 1))
    if k < 1:
        return np.zeros((n, 1), dtype=np.float32)
    svd = TruncatedSVD(n_components=k, random_state=random_state)
    return normalise(svd.fit_transform(tfidf))


def clustering_features(
    texts: list[str],
    vectors: np.ndarray,
    *,
    lexical_weight: float,
    lexical_components: int,
    random_state: int,
) -> np.ndarray:
    """What UMAP would reduce for clustering; the embeddings themselves when lexical_weight is 0."""
    if not lexical_weight:
        return np.asarray(vectors, dtype=np.float32)
    lexical = lexical_features(texts, n_components=lexical_components, random_state=random_state)
    return np.hstack([normalise(vectors), lexical_weight * lexical]).astype(np.float32)


def load_proxy(per_category: int = 100, min_docs: int = 61, seed: int = 0):
    """Mixed arXiv: up to per_category abstracts from every primary category with >= min_docs
    (18 categories, ~1.6k abstracts): many divisions of unequal size, like conference tracks."""
    from collections import Counter

    from papertopics.ingest.clean import clean_text

    records = []
    with gzip.open(ARXIV, "rt", encoding="utf-8") as handle:
        for line in handle:
            r = json.loads(line)
            records.append((r["primary_category"], r["abstract"]))
    counts = Counter(c for c, _ in records)
    cats = sorted(c for c, k in counts.items() if k >= min_docs)
    rng = np.random.default_rng(seed)
    picked = []
    for cat in cats:
        idx = [i for i, (c, _) in enumerate(records) if c == cat]
        picked.extend(rng.choice(idx, size=min(per_category, len(idx)), replace=False).tolist())
    picked = rng.permutation(picked)
    return [clean_text(records[i][1]) for i in picked], [records[i][0] for i in picked]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--corpora", nargs="+", default=["proxy", "arxiv6k", "bbc", "neurips"])
    parser.add_argument("--weights", type=float, nargs="+", default=[0.0, 0.5, 1.0])
    args = parser.parse_args()
    from papertopics.cluster.assign import assign_nearest
    from papertopics.cluster.clustering import cluster_documents
    from papertopics.evaluate.metrics import label_agreement
    from papertopics.params import resolve_hdbscan, resolve_umap
    from papertopics.pipeline import default_config
    from papertopics.reduce.reduction import umap_reduce

    clock = Clock()
    rows = []
    for corpus in args.corpora:
        if corpus == "proxy":
            texts, labels = load_proxy()
        elif corpus == "arxiv6k":
            texts, labels = load_arxiv_sample()
        elif corpus == "bbc":
            texts, labels = load_bbc()
        else:
            texts, labels = load_neurips(), None
        vectors = embed(texts)
        n = len(texts)
        config = default_config()
        umap = resolve_umap(config["umap"], n)
        for w in args.weights:
            feats = clustering_features(
                texts, vectors, lexical_weight=w, lexical_components=100, random_state=42
            )
            reduced = umap_reduce(feats, random_state=42, **umap)
            for selection in ("eom", "leaf"):
                hd = resolve_hdbscan({**config["hdbscan"], "cluster_selection_method": selection}, n)
                lab, _ = cluster_documents(vectors, reduced, method="hdbscan", hdbscan=hd, agglomerative={})
                for q in (1.0, 0.1, 0.05, 0.02, 0.0):
                    topics, assignment, conf = assign_nearest(vectors, lab, min_confidence=q)
                    row = {
                        "corpus": corpus,
                        "n": n,
                        "lexical": w,
                        "sel": selection,
                        "assign_q": q,
                        "topics": int(topics.max() + 1),
                        "outliers": fmt(float((topics == -1).mean())),
                    }
                    if labels is not None:
                        agree = label_agreement(topics, labels)
                        row.update(nmi=fmt(agree["nmi"]), ari=fmt(agree["ari"]))
                    rows.append(row)
            print(f"# {corpus} w={w} done ({clock():.0f} s)", flush=True)
        print_table(
            [r for r in rows if r["corpus"] == corpus],
            ["corpus", "n", "lexical", "sel", "assign_q", "topics", "outliers", "nmi", "ari"],
        )
        print(flush=True)


if __name__ == "__main__":
    main()
