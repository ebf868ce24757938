"""Cluster stage (rule cluster_documents): coordinates -> one topic per document.

`stage.cluster_and_assign` is the whole stage: `clustering` runs HDBSCAN (or Ward linkage on
small corpora), `merge` joins near-twin clusters, `assign` gives outliers their nearest topic when
they fit it; `cohesion` measures how alike a topic's members are (and marks mixed topics).
"""

from papertopics.cluster.assign import assign_nearest
from papertopics.cluster.clustering import cluster_documents
from papertopics.cluster.cohesion import topic_cohesion
from papertopics.cluster.stage import Clustering, cluster_and_assign, cluster_corpus

__all__ = [
    "Clustering",
    "assign_nearest",
    "cluster_and_assign",
    "cluster_corpus",
    "cluster_documents",
    "topic_cohesion",
]
