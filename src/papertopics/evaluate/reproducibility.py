"""Reproducibility: how alike two labellings of the same documents are (runs under other seeds
or subsamples, in results/evaluation/stability.json), and that figure carried over to the run's
topics. The refits themselves are made by `evaluate.refits`; this module stays light (numpy,
scipy; scikit-learn's ARI only when runs are compared) for evaluate_topics.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import scipy.sparse as sp

from papertopics.constants import OUTLIER


def _best_jaccard(reference: np.ndarray, other: np.ndarray) -> dict[int, float]:
    """For each reference topic, the highest Jaccard index of its members with any non-outlier
    topic of ``other`` (0.0 if all its members are outliers there)."""
    ref_ids, ref_inv = np.unique(reference, return_inverse=True)
    oth_ids, oth_inv = np.unique(other, return_inverse=True)
    table = sp.csr_matrix(
        (np.ones(len(reference), dtype=np.int64), (ref_inv, oth_inv)),
        shape=(len(ref_ids), len(oth_ids)),
    )
    table.sum_duplicates()
    ref_size = np.bincount(ref_inv, minlength=len(ref_ids))
    oth_size = np.bincount(oth_inv, minlength=len(oth_ids))
    coo = table.tocoo()
    jac = coo.data / (ref_size[coo.row] + oth_size[coo.col] - coo.data)
    jac[oth_ids[coo.col] == OUTLIER] = 0.0
    best = np.zeros(len(ref_ids))
    np.maximum.at(best, coo.row, jac)
    return {int(t): float(b) for t, b in zip(ref_ids, best) if t != OUTLIER}


def compare_runs(reference_labels: np.ndarray, other_labelings: Sequence[np.ndarray]) -> dict:
    """How reproducible the topics are across runs (seeds, subsamples) on the same documents.

    Per reference topic: the mean over other runs of its best-match Jaccard (1.0 = some topic
    in every run has exactly its members); overall: mean ARI between the reference and each run,
    outliers counted as one more label. Labelings must list the same documents in the same order.
    """
    from sklearn.metrics import adjusted_rand_score

    ref = np.asarray(reference_labels)
    others = [np.asarray(o) for o in other_labelings]
    for i, o in enumerate(others):
        if o.shape != ref.shape:
            raise ValueError(f"labeling {i} has {o.shape[0]} documents, reference {ref.shape[0]}")
    topics = [int(t) for t in np.unique(ref) if t != OUTLIER]
    if not others:
        return {
            "per_topic": {t: None for t in topics},
            "mean_jaccard": None,
            "ari": None,
            "ari_per_run": [],
            "n_runs": 0,
        }
    per_run = [_best_jaccard(ref, o) for o in others]
    per_topic = {t: float(np.mean([run[t] for run in per_run])) for t in topics}
    aris = [float(adjusted_rand_score(ref, o)) for o in others]
    return {
        "per_topic": per_topic,
        "mean_jaccard": float(np.mean(list(per_topic.values()))) if per_topic else None,
        "ari": float(np.mean(aris)),
        "ari_per_run": aris,
        "n_runs": len(others),
    }


def jaccard_per_run_topic(
    per_topic: Mapping, reference_doc_ids: Sequence[str], reference_labels: Sequence[int], documents
) -> dict[int, float | None]:
    """Per-topic Jaccard keyed by the run's topics (documents: doc_id, topic as in topics.csv).

    The stability check scores the topics of its reference labelling: the raw clusters, or the
    clusters of a re-clustered sample on large corpora, numbered otherwise than the run's stable
    ids. A run topic gets the mean score of the reference topics of its compared members, so a
    renumbered topic keeps its figure and topics merged by nr_topics get the size-weighted mean;
    a topic none of whose members were compared (sampled out, or outliers there) gets None.
    """
    scores = {int(k): v for k, v in per_topic.items()}
    reference = pd.Series(np.asarray(reference_labels, dtype=int), index=list(reference_doc_ids))
    topics = documents["topic"].to_numpy()
    ref = reference.reindex(documents["doc_id"]).to_numpy()  # NaN: not compared
    score = np.array(
        [scores.get(int(r)) if r == r and int(r) != OUTLIER else None for r in ref], dtype=object
    )
    out: dict[int, float | None] = {}
    for topic in sorted(set(topics.tolist()) - {OUTLIER}):
        values = [v for v in score[topics == topic] if v is not None]
        out[int(topic)] = float(np.mean(values)) if values else None
    return out
