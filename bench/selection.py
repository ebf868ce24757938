"""Data-driven `auto` for the clustering: pick HDBSCAN's sizes (and, for small corpora, the
method) by seed stability measured on the corpus, instead of by a formula of its size alone.

Criterion (documented in config.yaml's words: "by a criterion measured on the data"):

1. Candidates. The formula's min_cluster_size s0 (params.resolve_hdbscan) times each grid factor
   (default 0.5, 1, 2), rounded and clamped to [2, N]; min_samples follows each candidate by the
   same auto rule (size // 5) unless config gives it. An explicit min_cluster_size in config.yaml
   leaves a single candidate, so every explicit value is honoured and nothing is measured.
2. Measurement. HDBSCAN with each candidate on the reference reduction and on K UMAP refits of
   the same documents with other seeds (the refits the evaluation stage already computes).
   Stability = mean ARI between the reference labels and each refit's labels, outliers counted
   as one more label (as papertopics.evaluate.metrics.stability does), so a candidate cannot look
   stable by dumping documents in -1 differently each time. When the reductions cover a sample
   of m of the N documents, candidate sizes are scaled by m / N for the measurement (the
   density of a random sample is m / N of the corpus's), and the chosen size is reported for N.
3. Choice. Among candidates with at least two topics and no topic holding more than half the
   documents, take the smallest min_cluster_size whose stability is within `tolerance` (0.05)
   of the best such candidate's; if none qualifies, the formula's. The share guard matters:
   on 6,000 arXiv abstracts EOM with the formula's sizes returns 2 "topics", one holding 84% of
   the documents, with a seed-stability ARI of 0.99 - seed stability alone rewards such
   degenerate answers (bench/README.md). The smallest because finer topics are what a reader
   wants once they are as reproducible as the coarser ones; the tolerance because the ARI of
   one size over 3 refits varies by 0.02-0.05 between main seeds (bench/README.md), so
   smaller differences are noise.

Method for small corpora (`clustering.method: auto`): below `clustering.small_corpus` documents
HDBSCAN is used only if its chosen candidate is stable (ARI >= 0.8) with at most 30% outliers
and two or more topics; otherwise Ward agglomerative clustering of the embeddings (deterministic,
no outliers) as before. At or above small_corpus the method stays HDBSCAN.

The functions take reductions (arrays), not the UMAP model, so the workflow can pass cached
refits and re-run the choice after a clustering tweak without refitting UMAP.

Measured (bench/README.md, `bench/arxiv_labels.py --selection`, `bench/seeds_stability.py`): on
NeurIPS 2023 and on 6,000 arXiv abstracts with HDBSCAN's size capped at N/2, the rule picks the
formula's size on every seed (finer sizes are far less stable), and the small-corpus rule picks
agglomerative on every corpus under 300 tried. So it does not beat the formula there; it is not
wired into the workflow. If it is, score the reported stability on refits other than the ones
used to choose, or that figure is optimistic.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from papertopics.cluster import clustering as cluster
from papertopics.params import AUTO, resolve_hdbscan

DEFAULT_FACTORS = (0.5, 1.0, 2.0)
TOLERANCE = 0.05
SMALL_MIN_STABILITY = 0.8
SMALL_MAX_OUTLIERS = 0.3
MAX_SHARE = 0.5


def candidate_grid(hdbscan: dict, n_documents: int, factors: Sequence[float] = DEFAULT_FACTORS) -> list[dict]:
    """Resolved HDBSCAN parameter sets to try; only the config's own when min_cluster_size is explicit."""
    base = resolve_hdbscan(hdbscan, n_documents)
    if hdbscan["min_cluster_size"] != AUTO:
        return [base]
    sizes = sorted(
        {int(max(2, min(n_documents, round(base["min_cluster_size"] * f)))) for f in factors}
        | {base["min_cluster_size"]}
    )
    return [resolve_hdbscan({**hdbscan, "min_cluster_size": s}, n_documents) for s in sizes]


def _scaled(params: dict, scale: float) -> dict:
    """Parameters for a sample holding `scale` of the corpus: sizes shrink with the density."""
    if scale >= 1.0:
        return dict(params)
    size = max(2, round(params["min_cluster_size"] * scale))
    samples = max(1, min(size, round(params["min_samples"] * scale)))
    out = {**params, "min_cluster_size": int(size), "min_samples": int(samples)}
    if params.get("max_cluster_size"):
        out["max_cluster_size"] = max(size + 1, round(params["max_cluster_size"] * scale))
    return out


def measure(
    reductions: Sequence[np.ndarray], params: dict, *, n_documents: int | None = None, threads: int = 1
) -> dict:
    """One candidate on the reference (reductions[0]) and every refit: stability and shape.

    Returns {min_cluster_size, min_samples (as configured, for N), ari (mean over refits, None
    without refits), ari_per_run, topics and outliers (of the reference labelling, mean over all
    labellings for topics_mean / outliers_mean)}.
    """
    from sklearn.metrics import adjusted_rand_score

    m = len(reductions[0])
    scale = m / n_documents if n_documents else 1.0
    run = _scaled(params, scale)
    # through the module, so a parameter cluster.hdbscan_labels learns (max_cluster_size) passes on
    settings = cluster.clusterer_settings(run)  # HDBSCAN's own clusters: the sizes are what is chosen
    labelings = [cluster.hdbscan_labels(np.asarray(r), threads=threads, **settings) for r in reductions]
    ref = labelings[0]
    aris = [float(adjusted_rand_score(ref, other)) for other in labelings[1:]]
    topics = [int(len(set(lab.tolist()) - {-1})) for lab in labelings]
    outliers = [float(np.mean(lab == -1)) for lab in labelings]
    largest = float(np.bincount(ref[ref >= 0]).max() / len(ref)) if (ref >= 0).any() else 0.0
    return {
        "min_cluster_size": params["min_cluster_size"],
        "min_samples": params["min_samples"],
        "measured_min_cluster_size": run["min_cluster_size"],
        "ari": float(np.mean(aris)) if aris else None,
        "ari_per_run": aris,
        "topics": topics[0],
        "outliers": outliers[0],
        "largest_share": largest,
        "topics_mean": float(np.mean(topics)),
        "outliers_mean": float(np.mean(outliers)),
    }


def pick(
    table: list[dict], formula_size: int, tolerance: float = TOLERANCE, max_share: float = MAX_SHARE
) -> dict:
    """The rule of step 3 on measured rows (see module doc)."""
    usable = [
        row
        for row in table
        if row["topics"] >= 2 and row["ari"] is not None and row.get("largest_share", 0.0) <= max_share
    ]
    if not usable:
        return next((row for row in table if row["min_cluster_size"] == formula_size), table[0])
    best = max(row["ari"] for row in usable)
    near = [row for row in usable if row["ari"] >= best - tolerance]
    return min(near, key=lambda row: (row["min_cluster_size"], row["min_cluster_size"] != formula_size))


def choose_hdbscan(
    reductions: Sequence[np.ndarray],
    hdbscan: dict,
    n_documents: int,
    *,
    factors: Sequence[float] = DEFAULT_FACTORS,
    tolerance: float = TOLERANCE,
    max_share: float = MAX_SHARE,
    threads: int = 1,
) -> tuple[dict, list[dict]]:
    """Resolved HDBSCAN parameters for the corpus, and the table that justified them.

    reductions: the reference reduction first (the run's own UMAP output, or, when refits are on
    a sample, the refit with the run's own seed), then the refits with other seeds, all of the
    same documents in the same order. hdbscan: the config section (may hold `auto`).
    With an explicit min_cluster_size, or with no refits, returns the formula's parameters and
    marks the row chosen without measuring.
    """
    grid = candidate_grid(hdbscan, n_documents, factors)
    formula = resolve_hdbscan(hdbscan, n_documents)
    if len(grid) == 1 or len(reductions) < 2:
        row = {
            "min_cluster_size": formula["min_cluster_size"],
            "min_samples": formula["min_samples"],
            "ari": None,
            "chosen": True,
            "reason": "explicit min_cluster_size" if len(grid) == 1 else "no refits to measure",
        }
        return formula, [row]
    table = [measure(reductions, params, n_documents=n_documents, threads=threads) for params in grid]
    chosen = pick(table, formula["min_cluster_size"], tolerance, max_share)
    best = max(
        (row["ari"] for row in table if row["topics"] >= 2 and row["largest_share"] <= max_share),
        default=None,
    )
    for row, params in zip(table, grid):
        row["chosen"] = row is chosen
        row["formula"] = params["min_cluster_size"] == formula["min_cluster_size"]
    params = next(p for p, row in zip(grid, table) if row is chosen)
    chosen["reason"] = (
        f"smallest min_cluster_size with stability ARI within {tolerance} of the best ({best:.3f})"
        if best is not None
        else f"no candidate found two topics with none over {max_share:.0%} of the documents; formula kept"
    )
    return params, table


def choose_method(
    reductions: Sequence[np.ndarray],
    clustering: dict,
    hdbscan: dict,
    n_documents: int,
    *,
    factors: Sequence[float] = DEFAULT_FACTORS,
    min_stability: float = SMALL_MIN_STABILITY,
    max_outliers: float = SMALL_MAX_OUTLIERS,
    threads: int = 1,
) -> tuple[str, dict, list[dict]]:
    """(method, hdbscan parameters, table): the small-corpus rule of the module doc.

    An explicit clustering.method is returned as is (with the HDBSCAN choice, used if it is
    hdbscan); at or above small_corpus documents the method is hdbscan.
    """
    params, table = choose_hdbscan(reductions, hdbscan, n_documents, factors=factors, threads=threads)
    method = clustering["method"]
    if method != AUTO:
        return method, params, table
    if n_documents >= clustering["small_corpus"]:
        return "hdbscan", params, table
    row = next(row for row in table if row.get("chosen"))
    good = (
        row.get("ari") is not None
        and row["ari"] >= min_stability
        and row.get("outliers", 1.0) <= max_outliers
        and row.get("topics", 0) >= 2
        and row.get("largest_share", 1.0) <= MAX_SHARE
    )
    return ("hdbscan" if good else "agglomerative"), params, table
