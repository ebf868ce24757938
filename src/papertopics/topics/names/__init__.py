"""Topic names: phrases of 1-6 words the abstracts use, for topics, regions and hierarchy merges.

`phrases` indexes every candidate phrase of the corpus once (NameIndex, rule index_phrases) and
ranks them for a group of documents.
"""

from papertopics.topics.names.phrases import NameIndex, name_groups, name_topics, topic_hierarchy

__all__ = ["NameIndex", "name_groups", "name_topics", "topic_hierarchy"]
