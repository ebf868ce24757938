"""The modelling stages in one process, for benchmarks and notebooks.

The Snakemake workflow runs these steps as separate cached jobs; this module strings the same
functions together so a benchmark measures exactly what the pipeline does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from papertopics.cluster.stage import Clustering, cluster_and_assign
from papertopics.config import default_config  # noqa: F401  (re-exported for benchmarks)
from papertopics.params import resolve_clustering, resolve_umap
from papertopics.reduce.reduction import umap_reduce
from papertopics.topics.representation import fit_topic_model


@dataclass
class TopicRun:
    labels: np.ndarray  # cluster labels before BERTopic (-1 outliers)
    topics: np.ndarray  # final topics (after nr_topics / reduce_outliers)
    model: Any  # the fitted BERTopic
    reduced: np.ndarray
    resolved: dict
    assignment: np.ndarray | None = None  # core | nearest | outlier per document
    confidence: np.ndarray | None = None


def reduce_and_cluster(vectors: np.ndarray, config: dict) -> tuple[np.ndarray, Clustering, dict]:
    """reduce -> cluster -> nearest-topic assignment, as the workflow's stages do: the reduced
    space (the embeddings themselves for Ward), the clustering and the resolved parameters."""
    n = len(vectors)
    umap = resolve_umap(config["umap"], n)
    resolved = {**resolve_clustering(config, n), "umap": umap}
    reduced = (
        vectors
        if resolved["method"] == "agglomerative"
        else umap_reduce(vectors, random_state=config["random_state"], **umap)
    )
    clustering = cluster_and_assign(
        vectors,
        reduced,
        method=resolved["method"],
        hdbscan=resolved["hdbscan"],
        agglomerative=resolved["agglomerative"],
        min_confidence=config["clustering"]["assign_min_confidence"],
    )
    resolved["note"] = clustering.note
    return reduced, clustering, resolved


def model_topics(texts: list[str], vectors: np.ndarray, config: dict) -> TopicRun:
    """reduce -> cluster -> nearest-topic assignment -> c-TF-IDF, as the workflow's stages do.

    Uses config's random_state.
    """
    reduced, clustering, resolved = reduce_and_cluster(vectors, config)
    labels, grouped = clustering.clusters, clustering.topics
    model, topics = fit_topic_model(
        texts,
        vectors,
        grouped,
        vectorizer=config["vectorizer"],
        representation=config["representation"],
        topics=config["topics"],
        keyword_labels=labels,
    )
    return TopicRun(
        labels, np.asarray(topics), model, reduced, resolved, clustering.assignment, clustering.confidence
    )
