"""Cluster stage (rule cluster_documents): coordinates -> one topic per document.

`stage.cluster_and_assign` is the whole stage: `clustering` runs HDBSCAN (or Ward linkage on
small corpora), `merge` joins near-twin clusters, `assign` gives outliers their nearest topic when
they fit it; `cohesion` measures how alike a topic's members are (and marks mixed topics).
"""

from papertopics import lazy_exports

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "Clustering": "stage",
        "assign_nearest": "assign",
        "cluster_and_assign": "stage",
        "cluster_corpus": "stage",
        "cluster_documents": "clustering",
        "topic_cohesion": "cohesion",
    },
)
__all__ = [
    "Clustering",
    "assign_nearest",
    "cluster_and_assign",
    "cluster_corpus",
    "cluster_documents",
    "topic_cohesion",
]
