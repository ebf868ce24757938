"""Cluster stage (rule cluster_documents): coordinates -> one topic per document.

`clustering` runs HDBSCAN (or Ward linkage on small corpora), `merge` joins near-twin clusters,
`assign` gives outliers their nearest topic when they fit it, `cohesion` measures how alike a
topic's members are (and marks mixed topics).
"""

from papertopics.cluster.assign import assign_nearest, assignment_table
from papertopics.cluster.clustering import cluster_corpus, cluster_documents
from papertopics.cluster.cohesion import topic_cohesion

__all__ = ["assign_nearest", "assignment_table", "cluster_corpus", "cluster_documents", "topic_cohesion"]
