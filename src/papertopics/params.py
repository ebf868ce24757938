"""Rules that turn `auto` in config.yaml into numbers for the corpus at hand.

Plain BERTopic (n_neighbors 15, min_cluster_size 10) puts all 37 seed abstracts in the outlier
topic, and UMAP + HDBSCAN on a few dozen points changes its answer with the seed. So below
`clustering.small_corpus` documents we cluster the embeddings themselves (Ward, no outliers,
no randomness); above it, HDBSCAN sizes grow with the square root of the corpus.
"""

from __future__ import annotations

import math
from typing import Any

AUTO = "auto"
# config.schema.yaml's defaults, for a section built without it (tests, benchmarks)
MERGE_SIMILARITY = 0.5
MERGE_KEEP_COHESION = 0.7


def resolve_n_neighbors(value: Any, n_documents: int) -> int:
    """15 as in UMAP/BERTopic, but never more than a third of a tiny corpus."""
    if value != AUTO:
        return int(min(value, max(2, n_documents - 1)))
    if n_documents < 45:
        return max(2, n_documents // 3)
    return 15


def resolve_umap(umap: dict, n_documents: int) -> dict:
    """UMAP keyword arguments; n_components never reaches the number of documents."""
    return {
        "n_neighbors": resolve_n_neighbors(umap["n_neighbors"], n_documents),
        "n_components": int(max(2, min(umap["n_components"], n_documents - 2))),
        "min_dist": float(umap["min_dist"]),
        "metric": umap["metric"],
        "low_memory": bool(umap["low_memory"]),
        "fit_sample": int(umap.get("fit_sample", 0)),
    }


def resolve_method(clustering: dict, n_documents: int) -> str:
    """agglomerative below small_corpus documents, else hdbscan, unless config names one."""
    method = clustering["method"]
    if method != AUTO:
        return method
    return "agglomerative" if n_documents < clustering["small_corpus"] else "hdbscan"


def resolve_agglomerative(agglomerative: dict, n_documents: int) -> dict:
    """Ward's number of topics: round(sqrt(N)) (6 for 37 abstracts, 8 for 60), at most N // 3.

    A count fixed by N means one edited or added abstract changes the count by at most one; the
    earlier rule (the most topics whose smallest has N // 10 documents) turned 8 topics into 4
    after one edit of a 60-abstract listing. An explicit min_cluster_size keeps that rule.
    """
    size = agglomerative["min_cluster_size"]
    n_topics = agglomerative.get("n_topics", AUTO)
    if n_topics == AUTO and size != AUTO:
        return {"min_cluster_size": int(size), "n_topics": None}
    if n_topics == AUTO:
        n_topics = min(round(math.sqrt(n_documents)), n_documents // 3)
    return {
        "min_cluster_size": max(3, n_documents // 10) if size == AUTO else int(size),
        "n_topics": int(max(1, n_topics)),
    }


def resolve_hdbscan(hdbscan: dict, n_documents: int) -> dict:
    """min_cluster_size ~ sqrt(N)/3 (20 at 3.6k, 91 at 75k); min_samples a fifth of it.

    max_cluster_size caps a topic at half the corpus: on arXiv most abstracts form one
    continent in UMAP space and HDBSCAN's eom selection kept it whole (2 topics, one holding
    84% of a 6k sample); the cap makes it take that continent's sub-clusters instead.
    """
    size = hdbscan["min_cluster_size"]
    if size == AUTO:
        size = min(200, max(5, round(math.sqrt(n_documents) / 3)))
    size = int(max(2, min(size, n_documents)))
    samples = hdbscan["min_samples"]
    if samples == AUTO:
        samples = max(1, size // 5)
    cap = hdbscan.get("max_cluster_size", AUTO)
    if cap == AUTO:
        cap = max(n_documents // 2, size + 1)
    return {
        "min_cluster_size": size,
        "min_samples": int(samples),
        "max_cluster_size": int(cap),
        "cluster_selection_method": hdbscan["cluster_selection_method"],
        "cluster_selection_epsilon": float(hdbscan["cluster_selection_epsilon"]),
        "merge_similarity": hdbscan.get("merge_similarity", MERGE_SIMILARITY),
        "merge_keep_cohesion": float(hdbscan.get("merge_keep_cohesion", MERGE_KEEP_COHESION)),
    }


def resolve_clustering(config: dict, n_documents: int) -> dict:
    """What clusters a corpus of n documents (config: the clustering, hdbscan and agglomerative
    sections): results/cluster/params.json before the clusterer adds its outcome."""
    return {
        "n_documents": n_documents,
        "method": resolve_method(config["clustering"], n_documents),
        "hdbscan": resolve_hdbscan(config["hdbscan"], n_documents),
        "agglomerative": resolve_agglomerative(config["agglomerative"], n_documents),
    }


AUTO_EMBEDDING_THREADS = 2


def embedding_shard_count(n_documents: int, shard_size: int) -> int:
    """Shards of at most shard_size documents (at least one)."""
    return max(1, math.ceil(n_documents / shard_size))


def embedding_shard_rows(n_documents: int, shard_size: int, shard: int) -> tuple[int, int]:
    """[start, stop) of a shard's corpus rows: the shards share the corpus evenly (sizes differ
    by at most one), so shards running side by side finish together. With slices of exactly
    shard_size, 75k abstracts left a last shard of 14.7k beside three of 20k, and on 2 cores
    one core idled ~5 min while the last 20k shard ran alone (bench/HISTORY.md)."""
    count = embedding_shard_count(n_documents, shard_size)
    return shard * n_documents // count, (shard + 1) * n_documents // count


def resolve_embedding_threads(threads: Any, n_shards: int, cpus: int | None) -> int:
    """Threads per embedding job. `auto`: one thread per shard when the shards fill the CPUs
    evenly, else up to 2 (or a shard's share of the CPUs).

    On 2 cores two one-thread OpenVINO jobs embed 59 abstracts/s against 53 for one two-thread
    job (bench/README.md): 75k abstracts are 4 shards, two at a time. One shard, or three on
    two CPUs, would leave a CPU idle at one thread each, so those keep two.
    cpus None (a cluster run: each job gets its own CPUs): up to 2.
    """
    if threads != AUTO:
        return int(threads)
    if not cpus or n_shards < 1:
        return AUTO_EMBEDDING_THREADS
    if n_shards <= cpus:
        return max(1, min(AUTO_EMBEDDING_THREADS, cpus // n_shards))
    return 1 if n_shards % cpus == 0 else AUTO_EMBEDDING_THREADS


def refit_seeds(n: int, runs: int, sample_size: int, random_state: int, method: str = "hdbscan") -> list[int]:
    """Seeds to refit: the K next seeds, plus the run's own seed when comparing on a sample.

    The Snakefile asks at DAG time, which is why this lives here, in a module without numpy.

    None for agglomerative clustering: it never sees UMAP, so there is nothing to refit.
    """
    if method == "agglomerative":
        return []
    seeds = [random_state + k for k in range(1, runs + 1)]
    return ([random_state] + seeds) if runs and n > sample_size else seeds
