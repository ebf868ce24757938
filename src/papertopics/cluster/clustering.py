"""Clustering of documents into topics (-1 marks an outlier)."""

from __future__ import annotations

import logging

import numpy as np
import pandas as pd

from papertopics.artifacts import load_embeddings, write_json
from papertopics.cluster.assign import assignment_table
from papertopics.cluster.merge import merge_similar_clusters
from papertopics.constants import OUTLIER
from papertopics.params import resolve_clustering

log = logging.getLogger(__name__)


def agglomerative_labels(
    embeddings: np.ndarray, min_cluster_size: int, n_topics: int | None = None
) -> np.ndarray:
    """Ward clusters of the embeddings; deterministic and without outliers, for a few dozen abstracts.

    With n_topics, the Ward tree is cut into that many clusters, and a cluster of one document
    (not a topic) becomes an outlier; else the most topics whose smallest has min_cluster_size docs.
    """
    from scipy.cluster.hierarchy import fcluster, linkage

    n = len(embeddings)
    if n_topics is not None:
        if n_topics < 2 or n < 4:
            return np.zeros(n, dtype=int)
        tree = linkage(np.asarray(embeddings, dtype=np.float64), method="ward")
        labels = fcluster(tree, t=n_topics, criterion="maxclust") - 1
        counts = np.bincount(labels)
        labels[counts[labels] < 2] = -1
        return relabel_by_size(labels)
    if n < 2 * min_cluster_size:
        return np.zeros(n, dtype=int)
    tree = linkage(np.asarray(embeddings, dtype=np.float64), method="ward")
    for k in range(n // min_cluster_size, 1, -1):
        labels = fcluster(tree, t=k, criterion="maxclust") - 1
        if np.bincount(labels).min() >= min_cluster_size:
            return relabel_by_size(labels)
    return np.zeros(n, dtype=int)


MERGE_SETTINGS = ("merge_similarity", "merge_keep_cohesion")


def clusterer_settings(hdbscan: dict) -> dict:
    """The resolved hdbscan section without the merge step's settings: what hdbscan_labels takes."""
    return {key: value for key, value in hdbscan.items() if key not in MERGE_SETTINGS}


def hdbscan_labels(
    reduced: np.ndarray,
    *,
    min_cluster_size: int,
    min_samples: int,
    cluster_selection_method: str,
    cluster_selection_epsilon: float,
    max_cluster_size: int = 0,
    threads: int = 1,
    use_cuml: bool = False,
) -> np.ndarray:
    """HDBSCAN on the UMAP space; it has no randomness of its own.

    A cap that shatters a big cluster without sub-structure into outliers (over half the
    corpus) is dropped again: then the uncapped result is kept if it has fewer outliers.
    """
    labels = _hdbscan_fit(
        reduced,
        min_cluster_size=min_cluster_size,
        min_samples=min_samples,
        cluster_selection_method=cluster_selection_method,
        cluster_selection_epsilon=cluster_selection_epsilon,
        max_cluster_size=max_cluster_size,
        threads=threads,
        use_cuml=use_cuml,
    )
    if max_cluster_size and (labels == -1).mean() > 0.5:
        uncapped = _hdbscan_fit(
            reduced,
            min_cluster_size=min_cluster_size,
            min_samples=min_samples,
            cluster_selection_method=cluster_selection_method,
            cluster_selection_epsilon=cluster_selection_epsilon,
            max_cluster_size=0,
            threads=threads,
            use_cuml=use_cuml,
        )
        if (uncapped == -1).sum() < (labels == -1).sum():
            log.warning(
                "max_cluster_size %d left %.0f%% outliers; kept the uncapped clustering",
                max_cluster_size,
                100 * (labels == -1).mean(),
            )
            labels = uncapped
    return labels


def _hdbscan_fit(
    reduced: np.ndarray,
    *,
    min_cluster_size: int,
    min_samples: int,
    cluster_selection_method: str,
    cluster_selection_epsilon: float,
    max_cluster_size: int,
    threads: int,
    use_cuml: bool,
) -> np.ndarray:
    if use_cuml:
        from papertopics.reduce.reduction import gpu_class

        HDBSCAN = gpu_class("cuml.cluster", "HDBSCAN")
        model = HDBSCAN(
            min_cluster_size=min_cluster_size,
            min_samples=min_samples,
            cluster_selection_method=cluster_selection_method,
            cluster_selection_epsilon=cluster_selection_epsilon,
            max_cluster_size=max_cluster_size,
        )
        return relabel_by_size(np.asarray(model.fit_predict(reduced)))
    from hdbscan import HDBSCAN

    model = HDBSCAN(
        min_cluster_size=min_cluster_size,
        min_samples=min_samples,
        cluster_selection_method=cluster_selection_method,
        cluster_selection_epsilon=cluster_selection_epsilon,
        max_cluster_size=max_cluster_size,
        core_dist_n_jobs=threads,
    )
    return relabel_by_size(model.fit(reduced).labels_)


def relabel_by_size(labels: np.ndarray) -> np.ndarray:
    """Number clusters 0, 1, ... by decreasing size (ties: first appearance); -1 stays -1."""
    labels = np.asarray(labels)
    clusters = [c for c in dict.fromkeys(labels.tolist()) if c != -1]
    sizes = {c: int((labels == c).sum()) for c in clusters}
    order = sorted(clusters, key=lambda c: -sizes[c])
    mapping = {c: i for i, c in enumerate(order)}
    mapping[-1] = -1
    return np.array([mapping[c] for c in labels.tolist()], dtype=int)


def cluster_documents(
    embeddings: np.ndarray,
    reduced: np.ndarray,
    *,
    method: str,
    hdbscan: dict,
    agglomerative: dict,
    threads: int = 1,
    use_cuml: bool = False,
) -> tuple[np.ndarray, str | None]:
    """Labels for every document and, when the corpus could not be split, the reason why.

    cluster_corpus reports the reason, once: stability refits call this too and stay quiet."""
    n = len(embeddings)
    if method == "agglomerative":
        labels = agglomerative_labels(
            embeddings, agglomerative["min_cluster_size"], agglomerative.get("n_topics")
        )
    else:
        settings = clusterer_settings(hdbscan)
        labels = hdbscan_labels(reduced, threads=threads, use_cuml=use_cuml, **settings)
        merged = merge_similar_clusters(
            embeddings,
            labels,
            hdbscan.get("merge_similarity"),
            max_size=settings.get("max_cluster_size", 0),
            keep_cohesion=hdbscan.get("merge_keep_cohesion", 0.0),
        )
        if not np.array_equal(merged, labels):
            labels = relabel_by_size(merged)
    note = None
    if labels.max(initial=-1) < 0:
        note = (
            f"HDBSCAN found no cluster among {n} documents (min_cluster_size "
            f"{hdbscan['min_cluster_size']}); every document is in one topic"
        )
        labels = np.zeros(n, dtype=int)
    elif labels.max() == 0 and (labels == 0).all():
        size = agglomerative["min_cluster_size"] if method == "agglomerative" else hdbscan["min_cluster_size"]
        note = (
            f"{n} documents are too few to split into topics of at least {size}; "
            "every document is in one topic"
        )
    return labels, note


def cluster_corpus(
    embeddings: np.ndarray, reduced: np.ndarray, config: dict, *, threads: int = 1, use_cuml: bool = False
) -> tuple[np.ndarray, dict]:
    """Labels and results/cluster/params.json: the resolved parameters and what came of them."""
    resolved = resolve_clustering(config, len(embeddings))
    log.info("clustering: %s", resolved)
    labels, note = cluster_documents(
        embeddings,
        reduced,
        method=resolved["method"],
        hdbscan=resolved["hdbscan"],
        agglomerative=resolved["agglomerative"],
        threads=threads,
        use_cuml=use_cuml,
    )
    resolved["note"] = note
    if note:
        log.warning("%s", note)
    resolved["n_clusters"] = int(labels.max() + 1)
    resolved["n_outliers"] = int((labels == OUTLIER).sum())
    return labels, resolved


def cluster_documents_job(job, log) -> None:
    """Rule cluster_documents (run by papertopics.runtime.inprocess.run_job): reduced space (or the
    embeddings, for small corpora) -> cluster labels.

    Inputs: embeddings, reduced space. Outputs: results/cluster/clusters.parquet (doc_id, cluster;
    -1: outlier; assignment: core | nearest | outlier; confidence) and params.json (the parameters
    `auto` resolved to, and what came of them).
    """
    p = job.params
    doc_ids, vectors = load_embeddings(job.input.embeddings)
    reduced = pd.read_parquet(job.input.reduced)
    assert reduced["doc_id"].tolist() == doc_ids, "reduced and embeddings disagree on order"
    config = {"clustering": p.clustering, "hdbscan": p.hdbscan, "agglomerative": p.agglomerative}
    labels, resolved = cluster_corpus(
        vectors,
        reduced.drop(columns="doc_id").to_numpy(),
        config,
        threads=job.threads,
        use_cuml=p.clustering["cuml"],
    )
    assignment_table(doc_ids, vectors, labels, resolved, p.clustering["assign_min_confidence"]).to_parquet(
        job.output.clusters, index=False
    )
    write_json(job.output.params, resolved)
