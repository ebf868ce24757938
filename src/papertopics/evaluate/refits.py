"""The stability check's jobs: refit the reduction and clustering with other seeds, compare the topics.

A topic that appears only under one seed is an accident of that seed; the per-topic Jaccard
and overall ARI tell a researcher which topics to trust. Each UMAP refit (the expensive part)
is its own job, so `--cores N` and a cluster run them side by side, and depends only on the
embeddings and UMAP settings, so a clustering tweak re-clusters the cached refits instead of
refitting. Large corpora are compared on a fixed random sample, so the cost stays bounded.
The refits use the main run's implementation (umap-learn or cuML, the same fit_sample rule).

Small corpora are clustered by Ward on the embeddings, which has no seed: there stability is
measured by perturbation instead, clustering K random subsamples (90% by default) and
comparing each with the run's topics on the documents they share.
"""

from __future__ import annotations

import logging

import numpy as np
import pandas as pd

from papertopics.artifacts import load_embeddings, read_json, write_json
from papertopics.cluster.clustering import cluster_documents
from papertopics.cluster.stage import cluster_and_assign
from papertopics.evaluate.reproducibility import compare_runs
from papertopics.params import refit_seeds, resolve_clustering, resolve_method, resolve_umap
from papertopics.reduce.reduction import sample_indices, umap_reduce

log = logging.getLogger(__name__)

__all__ = [
    "sample_indices",
    "refit_seeds",
    "refit_plan",
    "refit_reduction",
    "seed_stability",
    "subsample_stability",
    "assess_stability",
    "assess_stability_job",
]


def refit_reduction(
    doc_ids: list[str],
    vectors: np.ndarray,
    *,
    umap: dict,
    seed: int,
    sample_size: int,
    random_state: int,
    use_cuml: bool = False,
) -> pd.DataFrame:
    """Table doc_id, seed, u0..: one UMAP reduction with `seed` of the (sampled) documents.

    The sample is drawn with the run's random_state, so every refit covers the same documents.
    """
    pick = sample_indices(len(vectors), sample_size, random_state)
    frame = pd.DataFrame({"doc_id": np.asarray(doc_ids)[pick], "seed": seed})
    reduced = umap_reduce(vectors[pick], random_state=seed, use_cuml=use_cuml, **umap)
    for i in range(reduced.shape[1]):
        frame[f"u{i}"] = reduced[:, i]
    log.info("stability: UMAP refit with seed %d done (%d documents)", seed, len(pick))
    return frame


def not_measured() -> dict:
    """stability.json when there is nothing to compare (no refits, or too few documents)."""
    return {
        "n_runs": 0,
        "ari": None,
        "mean_jaccard": None,
        "per_topic": {},
        "sampled": False,
        "measured_by": None,
        "reference": {"doc_ids": [], "labels": []},
    }


def seed_stability(
    doc_ids: list[str],
    vectors: np.ndarray,
    labels: np.ndarray,
    refits: pd.DataFrame,
    *,
    random_state: int,
    method: str,
    hdbscan: dict,
    agglomerative: dict,
    threads: int = 1,
    use_cuml: bool = False,
    assign_min_confidence: float | None = None,
) -> dict:
    """Compare the run's topics with the topics of every refit (same documents, other seeds).

    On a full corpus the reference is the run's own labels; on a sample it is the refit with
    the run's own seed, so every labelling compared was made the same way. The reference
    labelling is returned too: its ids are not the run's topic ids (see
    reproducibility.jaccard_per_run_topic).
    """
    seeds = sorted(set(refits["seed"].tolist())) if len(refits) else []
    if not seeds:
        return not_measured()
    index = {doc_id: i for i, doc_id in enumerate(doc_ids)}

    def labels_for(seed: int) -> np.ndarray:
        part = refits[refits["seed"] == seed]
        rows = part["doc_id"].map(index).to_numpy()
        coords = part.filter(regex=r"^u\d+$").to_numpy()
        space = vectors[rows] if method == "agglomerative" or coords.shape[1] == 0 else coords
        return cluster_and_assign(  # as the run's own topics were made
            vectors[rows],
            space,
            method=method,
            hdbscan=hdbscan,
            agglomerative=agglomerative,
            min_confidence=assign_min_confidence,
            threads=threads,
            use_cuml=use_cuml,
        ).topics

    sampled = random_state in seeds
    first = refits[refits["seed"] == seeds[0]]["doc_id"]
    reference = labels_for(random_state) if sampled else np.asarray(labels)[first.map(index).to_numpy()]
    others = [labels_for(seed) for seed in seeds if seed != random_state]
    result = compare_runs(reference, others)
    result["sampled"] = sampled
    result["n_documents"] = int(len(first))
    result["seeds"] = [seed for seed in seeds if seed != random_state]
    result["measured_by"] = "seeds"
    # per_topic is keyed by the reference's labels; reproducibility.jaccard_per_run_topic maps them to topics.
    result["reference"] = {"doc_ids": first.tolist(), "labels": [int(x) for x in reference]}
    return result


def subsample_stability(
    doc_ids: list[str],
    vectors: np.ndarray,
    labels: np.ndarray,
    *,
    runs: int,
    share: float,
    random_state: int,
    agglomerative: dict,
) -> dict:
    """Stability of a seedless (Ward) clustering: re-cluster `runs` random subsamples of `share`
    of the documents and compare each with the run's topics on the documents it keeps.

    Per topic: mean over subsamples of its best-match Jaccard; overall: mean ARI. A topic
    held together only by a few abstracts falls apart when some of them are left out.
    """
    labels = np.asarray(labels)
    n = len(labels)
    size = int(round(share * n))
    if not runs or size < 2 or size >= n:
        return not_measured()
    per_run = []
    for k in range(1, runs + 1):
        pick = sample_indices(n, size, random_state + k)
        sub, _ = cluster_documents(
            vectors[pick], vectors[pick], method="agglomerative", hdbscan={}, agglomerative=agglomerative
        )
        per_run.append(compare_runs(labels[pick], [sub]))
    topics = sorted({t for run in per_run for t in run["per_topic"]})
    per_topic = {
        t: float(np.mean([run["per_topic"][t] for run in per_run if t in run["per_topic"]])) for t in topics
    }
    aris = [run["ari"] for run in per_run]
    return {
        "per_topic": per_topic,
        "mean_jaccard": float(np.mean(list(per_topic.values()))) if per_topic else None,
        "ari": float(np.mean(aris)),
        "ari_per_run": aris,
        "n_runs": runs,
        "sampled": False,
        "n_documents": size,
        "seeds": [random_state + k for k in range(1, runs + 1)],
        "measured_by": f"subsamples of {share:.0%}",
        # the run's own clusters: reproducibility.jaccard_per_run_topic maps them to the run's topic ids
        "reference": {"doc_ids": list(doc_ids), "labels": [int(x) for x in labels]},
    }


def refit_plan(config: dict, n_documents: int, sample_size: int) -> dict | None:
    """UMAP settings for the refits, or None where the run clusters the embeddings themselves
    (small corpora, Ward): then there is nothing to refit."""
    if resolve_method(config["clustering"], n_documents) == "agglomerative":
        return None
    return resolve_umap(config["umap"], min(n_documents, sample_size))


def assess_stability(
    doc_ids: list[str],
    vectors: np.ndarray,
    labels: np.ndarray,
    refits: pd.DataFrame,
    resolved: dict,
    config: dict,
    *,
    random_state: int,
    runs: int,
    subsample: float,
    threads: int = 1,
    use_cuml: bool = False,
) -> dict:
    """The run's stability as its clustering allows: seedless Ward by `runs` subsamples of
    `subsample` of the documents; HDBSCAN by the UMAP refits, where a sampled comparison uses
    the HDBSCAN sizes `auto` would pick for the sample (config: the hdbscan section and friends),
    re-clustered with the run's implementation (cuML or not, its threads)."""
    if resolved["method"] == "agglomerative":
        return subsample_stability(
            doc_ids,
            vectors,
            labels,
            runs=runs,
            share=subsample,
            random_state=random_state,
            agglomerative=resolved["agglomerative"],
        )
    n = refits["doc_id"].nunique() if len(refits) else len(doc_ids)
    hdbscan = resolved["hdbscan"] if n == len(doc_ids) else resolve_clustering(config, n)["hdbscan"]
    return seed_stability(
        doc_ids,
        vectors,
        labels,
        refits,
        random_state=random_state,
        method=resolved["method"],
        hdbscan=hdbscan,
        agglomerative=resolved["agglomerative"],
        threads=threads,
        use_cuml=use_cuml,
        assign_min_confidence=resolved.get("assign_min_confidence"),
    )


def assess_stability_job(job, log) -> None:
    """Rule assess_stability (run by papertopics.runtime.inprocess.run_job): the run's topics compared
    with K refits under other seeds (HDBSCAN on UMAP) or, for Ward's seedless clustering of small
    corpora, with K perturbed subsamples.

    Inputs: embeddings, clusters and their params.json, the UMAP refits (one file per seed).
    Outputs: results/evaluation/stability.json (ARI, per-topic Jaccard, how it was measured and
    the labelling it scored).
    """
    p = job.params
    doc_ids, vectors = load_embeddings(job.input.embeddings)
    labels = pd.read_parquet(job.input.clusters)["cluster"].to_numpy()
    refits = (
        pd.concat([pd.read_parquet(path) for path in job.input.refits], ignore_index=True)
        if job.input.refits
        else pd.DataFrame({"doc_id": [], "seed": []})
    )
    config = {"clustering": p.clustering, "hdbscan": p.hdbscan, "agglomerative": p.agglomerative}
    result = assess_stability(
        doc_ids,
        vectors,
        labels,
        refits,
        read_json(job.input.cluster_params),
        config,
        random_state=p.random_state,
        runs=p.runs,
        subsample=p.subsample,
        threads=job.threads,
        use_cuml=p.clustering["cuml"],
    )
    write_json(job.output.stability, result)
    log.info(
        "stability (%s): ARI %s, mean Jaccard %s over %d runs",
        result["measured_by"],
        result["ari"],
        result["mean_jaccard"],
        result["n_runs"],
    )
