"""The thematic map (bibliometrix's, after Callon et al. 1991): each topic placed by centrality,
how strongly it links to the other topics, and density, how cohesive it is inside.

Centrality here is the sum of the topic's cosine similarities to every other topic's c-TF-IDF
vector (the terms topics share: Callon's external links, weighted); density is topics.csv's
`cohesion` (its abstracts' mean pairwise embedding similarity above the corpus'). Split at the
medians, the quadrants are bibliometrix's: motor themes (central and dense), niche themes
(dense, isolated), emerging or declining themes (neither) and basic themes (central, loose).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import scipy.sparse as sp

from papertopics.topics.ctfidf import class_tfidf
from papertopics.topics.over_time import CTFIDF_DEFAULTS

QUADRANTS = {
    (True, True): "motor themes",
    (False, True): "niche themes",
    (False, False): "emerging or declining themes",
    (True, False): "basic themes",
}
THEMATIC_COLUMNS = ["topic", "label", "size", "centrality", "density", "quadrant"]


def thematic_map(topic_ids: list[int], summed: sp.csr_matrix, topics: pd.DataFrame, **ctfidf) -> pd.DataFrame:
    """thematic_map.csv: one row per topic; empty with fewer than 4 topics or without cohesion."""
    table = topics.assign(topic=topics["topic"].astype(int)).set_index("topic")
    if len(topic_ids) < 4 or "cohesion" not in table.columns:
        return pd.DataFrame(columns=THEMATIC_COLUMNS)
    density = pd.to_numeric(table.loc[topic_ids, "cohesion"], errors="coerce").to_numpy()
    if np.isnan(density).all():
        return pd.DataFrame(columns=THEMATIC_COLUMNS)
    with np.errstate(divide="ignore", invalid="ignore"):  # a term of the outliers only: no idf
        matrix, _ = class_tfidf(summed, **{**CTFIDF_DEFAULTS, **ctfidf})
    norms = np.sqrt(np.asarray(matrix.multiply(matrix).sum(axis=1))).ravel()
    unit = sp.diags(1 / np.maximum(norms, 1e-12)) @ matrix
    similarity = (unit @ unit.T).toarray()
    np.fill_diagonal(similarity, 0.0)
    centrality = similarity.sum(axis=1)
    high_c = centrality >= np.median(centrality)
    high_d = density >= np.nanmedian(density)
    return pd.DataFrame(
        {
            "topic": topic_ids,
            "label": table.loc[topic_ids, "label"].astype(str).to_numpy(),
            "size": pd.to_numeric(table.loc[topic_ids, "size"]).astype(int).to_numpy(),
            "centrality": np.round(centrality, 4),
            "density": np.round(density, 4),
            "quadrant": [QUADRANTS[(bool(c), bool(d))] for c, d in zip(high_c, high_d)],
        },
        columns=THEMATIC_COLUMNS,
    )
