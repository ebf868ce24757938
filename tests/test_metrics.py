"""metrics.json as evaluation.build_metrics assembles it: every per-topic figure on the topic
card it belongs to (issue 13 bug 1), silhouette in the space the clusterer used (bug 2)."""

import numpy as np
import pandas as pd
import pytest

from papertopics.config import default_config
from papertopics.evaluate.metrics import build_metrics

WORDS = {0: "alpha beta gamma delta", 1: "omega sigma kappa lambda", 2: "red green blue cyan"}


def _inputs(clusters, topic_of_cluster, *, stability_reference=None, stability_scores=None):
    """Corpus, tables and stage outputs for documents whose clusters were renamed by fit_topics.

    clusters: raw cluster id per document (as clusters.parquet has them); topic_of_cluster: the
    stable topic id fit_topics gave each cluster (renumbered, merged by nr_topics, ...).
    """
    clusters = np.asarray(clusters)
    doc_ids = [f"d{i}" for i in range(len(clusters))]
    texts = [WORDS[c % 3] + f" filler{i}" for i, c in enumerate(clusters)]
    stable = np.array([topic_of_cluster[c] for c in clusters])
    corpus = pd.DataFrame({"doc_id": doc_ids, "text": texts})
    documents = pd.DataFrame({"doc_id": doc_ids, "topic": stable})
    rows = []
    for topic in sorted(set(stable.tolist())):
        members = [c for c, t in topic_of_cluster.items() if t == topic]
        terms = " ".join(WORDS[c % 3] for c in members).split()
        rows.append(
            {
                "topic": topic,
                "label": "x",
                "size": int((stable == topic).sum()),
                "top_terms": "; ".join(terms) if topic != -1 else "",
                "representative_doc_ids": "",
            }
        )
    topics = pd.DataFrame(rows)
    reference = stability_reference if stability_reference is not None else (doc_ids, clusters.tolist())
    scores = stability_scores or {c: round(0.1 * (c + 1), 2) for c in set(clusters.tolist()) if c != -1}
    stability = {
        "n_runs": 2,
        "ari": 0.5,
        "mean_jaccard": 0.5,
        "sampled": False,
        "n_documents": len(reference[0]),
        "per_topic": {str(k): v for k, v in scores.items()},
        "reference": {"doc_ids": list(reference[0]), "labels": [int(x) for x in reference[1]]},
    }
    return corpus, documents, topics, stability


def _metrics(corpus, documents, topics, stability, *, method="agglomerative", vectors=None, reduced=None):
    config = default_config()
    n = len(corpus)
    rng = np.random.default_rng(0)
    vectors = rng.normal(size=(n, 8)).astype(np.float32) if vectors is None else vectors
    reduced = rng.normal(size=(n, 5)).astype(np.float32) if reduced is None else reduced
    return build_metrics(
        corpus=corpus,
        corpus_stats={"n_listings": 1},
        embed_stats={"backend": "torch"},
        cluster_params={"method": method},
        stability_check=stability,
        documents=documents,
        topics=topics,
        vectors=vectors,
        reduced=reduced,
        vectorizer={**config["vectorizer"], "min_df": 1, "max_df": 1.0},
        top_n=4,
        random_state=0,
    )


def _per_topic_keys(metrics):
    return {
        "npmi_per_topic": set(metrics["npmi_per_topic"]),
        "per_topic_jaccard": set(metrics["stability"]["per_topic_jaccard"]),
    }


def test_renumbered_topics_keep_their_own_stability():
    """A rerun renumbered the clusters: raw cluster 0 is topic 7, cluster 1 is topic 3."""
    clusters = [0] * 10 + [1] * 8 + [2] * 6
    corpus, documents, topics, stability = _inputs(
        clusters, {0: 7, 1: 3, 2: 4}, stability_scores={0: 0.9, 1: 0.2, 2: 0.6}
    )
    metrics = _metrics(corpus, documents, topics, stability)
    ids = {str(t) for t in topics["topic"] if t != -1}
    assert _per_topic_keys(metrics) == {"npmi_per_topic": ids, "per_topic_jaccard": ids}
    assert metrics["stability"]["per_topic_jaccard"] == {"7": 0.9, "3": 0.2, "4": 0.6}


def test_sampled_stability_is_matched_back_to_the_runs_topics():
    """Above stability_sample the reference is a re-clustered sample with its own numbering."""
    clusters = [0] * 10 + [1] * 8 + [2] * 6
    corpus, documents, topics, _ = _inputs(clusters, {0: 0, 1: 1, 2: 2})
    sample = [i for i in range(len(clusters)) if i % 2 == 0]
    # The sample's own clustering calls the run's topic 0 "2", topic 1 "0" and topic 2 "1".
    renamed = {0: 2, 1: 0, 2: 1}
    reference = ([f"d{i}" for i in sample], [renamed[clusters[i]] for i in sample])
    corpus, documents, topics, stability = _inputs(
        clusters,
        {0: 0, 1: 1, 2: 2},
        stability_reference=reference,
        stability_scores={2: 0.95, 0: 0.15, 1: 0.55},
    )
    metrics = _metrics(corpus, documents, topics, stability)
    assert metrics["stability"]["per_topic_jaccard"] == {"0": 0.95, "1": 0.15, "2": 0.55}


def test_topics_merged_by_nr_topics_get_the_size_weighted_stability():
    clusters = [0] * 10 + [1] * 10 + [2] * 5
    corpus, documents, topics, stability = _inputs(
        clusters, {0: 0, 1: 0, 2: 1}, stability_scores={0: 1.0, 1: 0.5, 2: 0.3}
    )
    metrics = _metrics(corpus, documents, topics, stability)
    assert metrics["stability"]["per_topic_jaccard"] == {"0": pytest.approx(0.75), "1": pytest.approx(0.3)}


def test_a_topic_missing_from_the_sample_has_no_figure_rather_than_another_topics():
    clusters = [0] * 10 + [1] * 4
    corpus, documents, topics, _ = _inputs(clusters, {0: 5, 1: 6})
    reference = ([f"d{i}" for i in range(10)], [0] * 10)  # topic 6 not sampled
    corpus, documents, topics, stability = _inputs(
        clusters, {0: 5, 1: 6}, stability_reference=reference, stability_scores={0: 0.8}
    )
    metrics = _metrics(corpus, documents, topics, stability)
    assert metrics["stability"]["per_topic_jaccard"] == {"5": 0.8, "6": None}


def _separated(n_per=20, seed=0):
    """Embeddings with three clear groups, and a 'UMAP space' where the groups are mixed."""
    rng = np.random.default_rng(seed)
    centres = np.eye(3, 8) * 10
    vectors = np.vstack([centres[k] + rng.normal(scale=0.1, size=(n_per, 8)) for k in range(3)])
    reduced = rng.normal(size=(3 * n_per, 5))
    return vectors.astype(np.float32), reduced.astype(np.float32)


@pytest.mark.parametrize("method, space", [("agglomerative", "embeddings"), ("hdbscan", "umap")])
def test_silhouette_is_measured_where_the_clusterer_worked(method, space):
    """Ward clusters the embeddings, HDBSCAN the UMAP space: silhouette follows (bug 2)."""
    clusters = [0] * 20 + [1] * 20 + [2] * 20
    corpus, documents, topics, stability = _inputs(clusters, {0: 0, 1: 1, 2: 2})
    separated, mixed = _separated()
    vectors, reduced = (separated, mixed) if space == "embeddings" else (mixed, separated)
    metrics = _metrics(corpus, documents, topics, stability, method=method, vectors=vectors, reduced=reduced)
    assert metrics["silhouette"] > 0.9
    assert metrics["silhouette_space"] == space


def test_seed_stability_returns_the_reference_it_scored():
    from papertopics.evaluate.refits import seed_stability
    from papertopics.reduce.reduction import sample_indices

    vectors, _ = _separated(n_per=10)
    doc_ids = [f"d{i}" for i in range(len(vectors))]
    labels = np.repeat([0, 1, 2], 10)
    # A sampled run: refits of the same 20 documents under the run's seed (0) and two others; no
    # reduced coordinates, so the agglomerative method clusters the embeddings themselves.
    pick = sample_indices(len(vectors), 20, 0)
    refits = pd.concat(
        [pd.DataFrame({"doc_id": np.asarray(doc_ids)[pick], "seed": seed}) for seed in (0, 1, 2)]
    )
    result = seed_stability(
        doc_ids,
        vectors,
        labels,
        refits,
        random_state=0,
        method="agglomerative",
        hdbscan={"min_cluster_size": 3},
        agglomerative={"min_cluster_size": 3},
    )
    reference = result["reference"]
    assert result["sampled"] and len(reference["doc_ids"]) == 20
    assert set(reference["doc_ids"]) <= set(doc_ids)
    assert {int(k) for k in result["per_topic"]} == set(reference["labels"]) - {-1}
