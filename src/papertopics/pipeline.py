"""The modelling stages in one process, for benchmarks and notebooks.

The Snakemake workflow runs these steps as separate cached jobs; this module strings the same
functions together so a benchmark measures exactly what the pipeline does.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import yaml

from papertopics.cluster import cluster_documents
from papertopics.params import resolve_agglomerative, resolve_hdbscan, resolve_method, resolve_umap
from papertopics.reduce import umap_reduce
from papertopics.topics import fit_topic_model

SCHEMA = Path(__file__).resolve().parents[2] / "workflow" / "schemas" / "config.schema.yaml"


def _defaults(schema: dict) -> Any:
    if schema.get("type") == "object" and "properties" in schema:
        return {key: _defaults(sub) for key, sub in schema["properties"].items()
                if "default" in sub or sub.get("type") == "object"}
    return copy.deepcopy(schema.get("default"))


def default_config(**overrides: dict) -> dict:
    """The schema's defaults (what a config naming only `listings` gets), sections overridden."""
    config = _defaults(yaml.safe_load(SCHEMA.read_text(encoding="utf-8")))
    for section, values in overrides.items():
        if isinstance(values, dict):
            config[section] = {**config[section], **values}
        else:
            config[section] = values
    return config


@dataclass
class TopicRun:
    labels: np.ndarray          # cluster labels before BERTopic (-1 outliers)
    topics: np.ndarray          # final topics (after nr_topics / reduce_outliers)
    model: Any                  # the fitted BERTopic
    reduced: np.ndarray
    resolved: dict


def model_topics(texts: list[str], vectors: np.ndarray, config: dict) -> TopicRun:
    """reduce -> cluster -> c-TF-IDF, as the workflow's stages do, with config's random_state."""
    n = len(texts)
    umap = resolve_umap(config["umap"], n)
    resolved = {"method": resolve_method(config["clustering"], n), "umap": umap,
                "hdbscan": resolve_hdbscan(config["hdbscan"], n),
                "agglomerative": resolve_agglomerative(config["agglomerative"], n)}
    reduced = (vectors if resolved["method"] == "agglomerative"
               else umap_reduce(vectors, random_state=config["random_state"], **umap))
    labels, note = cluster_documents(vectors, reduced, method=resolved["method"],
                                     hdbscan=resolved["hdbscan"], agglomerative=resolved["agglomerative"])
    resolved["note"] = note
    model, topics = fit_topic_model(texts, vectors, labels, vectorizer=config["vectorizer"],
                                    representation=config["representation"], topics=config["topics"])
    return TopicRun(labels, np.asarray(topics), model, reduced, resolved)
