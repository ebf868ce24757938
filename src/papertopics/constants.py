"""Values every stage and page must agree on; light to import (common.smk and report.smk do)."""

OUTLIER = -1  # the topic id of documents the clustering left without a topic
OUTLIER_LABEL = "Outliers (no topic)"
OUTLIER_COLOR = "#a3a3a3"  # grey on every page; no topic colour is grey

# The report's pages (results/report/<name>.html); report.smk builds its outputs from this list.
REPORT_PAGES = ("index", "documents", "intertopic", "barchart", "hierarchy", "heatmap", "listings", "changes")
