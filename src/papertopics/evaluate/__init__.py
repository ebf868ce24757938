"""Evaluate stage (rules evaluate_topics, refit_reduction, assess_stability): topics -> metrics.json.

`metrics` computes coherence (NPMI), diversity, silhouette and the other figures of metrics.json;
`stability` refits UMAP with other seeds and measures how much the clustering moves.
"""

from papertopics import lazy_exports

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "assess_stability": "stability",
        "build_metrics": "metrics",
        "refit_plan": "stability",
        "refit_reduction": "stability",
    },
)
__all__ = ["assess_stability", "build_metrics", "refit_plan", "refit_reduction"]
