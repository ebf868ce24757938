"""Values every stage and page must agree on; light to import (common.smk and report.smk do)."""

OUTLIER = -1  # the topic id of documents the clustering left without a topic
OUTLIER_LABEL = "Outliers (no topic)"
OUTLIER_COLOR = "#a3a3a3"  # grey on every page; no topic colour is grey

# How a document got its topic (document_topics.csv `assignment`, cluster.assign): a member of its
# cluster, an outlier of the clustering close enough to its nearest topic, or no topic (topic OUTLIER).
ASSIGNED_CORE, ASSIGNED_NEAREST, UNASSIGNED = "core", "nearest", "outlier"
# A paper that joined a pinned topic (topics.pinned) before the clustering: the same word in
# document_topics.csv and papertopics.load(...).transform. Its topic's members are core and pinned.
ASSIGNED_PINNED = "pinned"
MEMBERS = (ASSIGNED_CORE, ASSIGNED_PINNED)

# Version of the pickled topics.names.index.NameIndex (results/corpus/name_index.pkl): bump it when the
# class changes, so that index_phrases reruns instead of fit_topics reading a stale pickle.
NAME_INDEX_VERSION = 16
# Candidate names embedded per corpus (rule embed_phrases), the most used first.
PHRASE_VECTORS_MAX = 10_000

# Format of the document map's data files (rule pack_documents, results/report_data/): bump it when
# they change shape, so that pack_documents reruns and no report links files of another format.
REPORT_DATA_VERSION = 3

# The keys of `vectorizer` that decide how abstracts are tokenised (rule count_terms);
# min_df/max_df count topics and act at each fit.
TOKENISING_KEYS = ("ngram_range", "domain_stop_words", "extra_stop_words")
