"""Topics stage (rules count_terms, index_phrases, fit_topics, advance_history): clusters -> named topics.

`terms` counts each abstract's terms once per corpus, `ctfidf` computes BERTopic's c-TF-IDF and
writes its model folder, `representation` turns clusters into topic tables (BERTopic itself only
when a setting needs it), `names/` names topics, regions and hierarchy merges, `identity` and
`history` keep topic ids stable across runs, `snapshot_store` the last finished run's topics.
`fit.fit_topic_tables` is the whole stage.
"""

from papertopics.topics.fit import fit_topic_tables
from papertopics.topics.history import load_snapshot, save_snapshot
from papertopics.topics.representation import fit_topic_model
from papertopics.topics.snapshot_store import advance_history
from papertopics.topics.terms import TermCounts, count_terms

__all__ = [
    "TermCounts",
    "advance_history",
    "count_terms",
    "fit_topic_model",
    "fit_topic_tables",
    "load_snapshot",
    "save_snapshot",
]
