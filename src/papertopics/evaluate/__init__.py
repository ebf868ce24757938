"""Evaluate stage (rules evaluate_topics, refit_reduction, assess_stability): topics -> metrics.json.

`metrics` computes coherence (NPMI), diversity, silhouette and the other figures of metrics.json;
`stability` refits UMAP with other seeds and measures how much the clustering moves.
"""

from papertopics.evaluate.metrics import build_metrics
from papertopics.evaluate.stability import assess_stability, refit_plan, refit_reduction

__all__ = ["assess_stability", "build_metrics", "refit_plan", "refit_reduction"]
