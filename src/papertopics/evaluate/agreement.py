"""Agreement with ground-truth labels (NMI, ARI) and the counts every comparison reports
(topics, outlier share): what the benchmarks score a clustering by."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from papertopics.constants import OUTLIER


def label_agreement(topics: Sequence[int], labels: Sequence, *, exclude_outliers: bool = False) -> dict:
    """NMI and ARI of topics against a ground-truth label column (e.g. arXiv primary category).

    Documents without a label (None, NaN, "") are left out. Outliers count as one more topic by
    default, since a model that calls half the corpus an outlier should not look better for it;
    ``exclude_outliers=True`` scores only the documents given a topic.
    """
    from sklearn.metrics import adjusted_rand_score, normalized_mutual_info_score

    t = np.asarray(topics)
    lab = pd.Series(list(labels), dtype=object)
    if len(t) != len(lab):
        raise ValueError(f"{len(t)} topics but {len(lab)} labels")
    keep = (lab.notna() & (lab.astype(str) != "")).to_numpy().copy()
    if exclude_outliers:
        keep &= t != OUTLIER
    if keep.sum() == 0:
        return {"nmi": None, "ari": None, "n_documents": 0}
    tt, ll = t[keep], lab[keep].astype(str).to_numpy()
    return {
        "nmi": float(normalized_mutual_info_score(ll, tt)),
        "ari": float(adjusted_rand_score(ll, tt)),
        "n_documents": int(keep.sum()),
    }


def outlier_share(labels: Sequence[int]) -> float | None:
    """Share of documents in the outlier group -1; None for an empty corpus."""
    labels = np.asarray(labels)
    return float(np.mean(labels == OUTLIER)) if labels.size else None


def n_topics(labels: Sequence[int]) -> int:
    """Number of real topics (the outlier group -1 is not one)."""
    return int(len(np.setdiff1d(np.unique(np.asarray(labels)), [OUTLIER])))
