"""Evaluate stage (rules evaluate_topics, refit_reduction, assess_stability): topics -> metrics.json.

One module per metric family: `coherence` (NPMI), `diversity`, `silhouette` (cluster validity),
`reproducibility` (how alike two labellings are) and `agreement` (with ground-truth labels);
`metrics` gathers them into metrics.json (job evaluate_topics); `refits` refits UMAP with other
seeds and re-clusters for the stability check (jobs refit_reduction, assess_stability).
"""

from papertopics import lazy_exports

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "assess_stability": "refits",
        "build_metrics": "metrics",
        "refit_plan": "refits",
        "refit_reduction": "refits",
    },
)
__all__ = ["assess_stability", "build_metrics", "refit_plan", "refit_reduction"]
