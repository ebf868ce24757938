"""The cluster_documents stage as one function: cluster, then give outliers their nearest topic.

`cluster_and_assign` is the one place the two steps are composed: the workflow's stage
(`cluster_corpus`), the in-process pipeline (papertopics.pipeline) and every stability refit
(evaluate.refits) make their topics with it, so all three make them the same way.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass

import numpy as np
import pandas as pd

from papertopics.artifacts import load_embeddings, write_json
from papertopics.cluster.assign import assign_nearest
from papertopics.cluster.clustering import cluster_documents
from papertopics.cluster.pinned import pin_and_cluster, split_controls
from papertopics.constants import ASSIGNED_CORE, ASSIGNED_NEAREST, OUTLIER, UNASSIGNED
from papertopics.params import hdbscan_clamp_note, resolve_clustering

log = logging.getLogger(__name__)


@dataclass
class Clustering:
    clusters: np.ndarray  # labels as the clusterer found them (OUTLIER: none)
    topics: np.ndarray  # after the outliers that fit joined their nearest topic
    assignment: np.ndarray  # ASSIGNED_CORE | ASSIGNED_NEAREST | UNASSIGNED per document
    confidence: np.ndarray  # 0-1, how central to its (nearest) topic
    note: str | None  # why the corpus could not be split, when it could not


def cluster_and_assign(
    embeddings: np.ndarray,
    reduced: np.ndarray,
    *,
    method: str,
    hdbscan: dict,
    agglomerative: dict,
    min_confidence: float | None,
    threads: int = 1,
    use_cuml: bool = False,
) -> Clustering:
    """Cluster (HDBSCAN on `reduced`, or Ward on the embeddings), then assign the outliers that
    fit (clustering.assign_min_confidence; None: keep every outlier as one)."""
    clusters, note = cluster_documents(
        embeddings,
        reduced,
        method=method,
        hdbscan=hdbscan,
        agglomerative=agglomerative,
        threads=threads,
        use_cuml=use_cuml,
    )
    if min_confidence is None:
        assignment = np.where(clusters != OUTLIER, ASSIGNED_CORE, UNASSIGNED).astype(object)
        return Clustering(clusters, clusters, assignment, (clusters != OUTLIER).astype(float), note)
    topics, assignment, confidence = assign_nearest(embeddings, clusters, min_confidence=min_confidence)
    return Clustering(clusters, topics, assignment, confidence, note)


def cluster_corpus(
    doc_ids: list[str],
    embeddings: np.ndarray,
    reduced: np.ndarray,
    config: dict,
    *,
    threads: int = 1,
    use_cuml: bool = False,
) -> tuple[pd.DataFrame, dict]:
    """results/cluster/clusters.parquet (doc_id, cluster, assignment, confidence) and
    results/cluster/params.json: the resolved parameters and what came of them."""
    resolved = resolve_clustering(config, len(embeddings))
    log.info("clustering: %s", resolved)
    clamped = hdbscan_clamp_note(config["hdbscan"], len(embeddings))
    resolved["clamped"] = clamped if resolved["method"] == "hdbscan" else None
    if resolved["clamped"]:
        log.warning("%s", clamped)
    min_confidence = config["clustering"]["assign_min_confidence"]
    result = cluster_and_assign(
        embeddings,
        reduced,
        method=resolved["method"],
        hdbscan=resolved["hdbscan"],
        agglomerative=resolved["agglomerative"],
        min_confidence=min_confidence,
        threads=threads,
        use_cuml=use_cuml,
    )
    resolved["note"] = result.note
    if result.note:
        log.warning("%s", result.note)
    resolved["n_clusters"] = int(result.clusters.max() + 1)
    resolved["n_outliers"] = int((result.topics == OUTLIER).sum())
    resolved["assign_min_confidence"] = min_confidence
    resolved["n_outliers_before_assignment"] = int((result.clusters == OUTLIER).sum())
    resolved["n_assigned"] = int((result.assignment == ASSIGNED_NEAREST).sum())
    table = pd.DataFrame(
        {
            "doc_id": doc_ids,
            "cluster": result.topics,
            "assignment": result.assignment.astype(str),
            "confidence": result.confidence,
        }
    )
    return table, resolved


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
    space = reduced.drop(columns="doc_id").to_numpy()
    pinned_input = list(getattr(job.input, "pinned", None) or [])  # none without topics.pinned
    pinned = load_embeddings(pinned_input[0]) if pinned_input else None
    clusters, resolved = cluster_stage(
        doc_ids,
        vectors,
        space,
        config,
        pinned=pinned,
        min_similarity=p.pinned_min_similarity,
        threads=job.threads,
        use_cuml=p.clustering["cuml"],
    )
    clusters.to_parquet(job.output.clusters, index=False)
    write_json(job.output.params, resolved)


def cluster_stage(
    doc_ids: list[str],
    vectors: np.ndarray,
    space: np.ndarray,
    config: dict,
    *,
    pinned: tuple[list[str], np.ndarray] | None = None,
    min_similarity: float | str = "auto",
    threads: int = 1,
    use_cuml: bool = False,
) -> tuple[pd.DataFrame, dict]:
    """clusters.parquet and params.json of the stage; with pinned topics ((names, unit vectors),
    topics.pinned), they gather their papers first and the rest is clustered by the method the
    whole listing gets (`clustering.method: auto` is decided on every paper, so two pins on a
    300-paper listing do not turn HDBSCAN into Ward for the 281 left)."""
    whole = resolve_clustering(config, len(doc_ids))  # params.json when nothing is left to cluster
    if pinned is None:
        return cluster_corpus(doc_ids, vectors, space, config, threads=threads, use_cuml=use_cuml)
    rest_config = {**config, "clustering": {**config["clustering"], "method": whole["method"]}}

    def cluster(ids, embeddings, reduced):
        return cluster_corpus(ids, embeddings, reduced, rest_config, threads=threads, use_cuml=use_cuml)

    names, topic_vectors, controls = split_controls(*pinned)  # the null of `auto` rides along
    return pin_and_cluster(
        doc_ids, vectors, space, names, topic_vectors, min_similarity, cluster, whole, controls
    )
