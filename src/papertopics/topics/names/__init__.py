"""Names for topics, regions and hierarchy merges: one registry of naming methods.

`registry` holds the base class (NamingMethod) and the registered methods; `phrases` is the
default method (phrases of 1-6 words the abstracts use, indexed once per corpus by NameIndex,
rule index_phrases); `hierarchy` names the merges of the topic tree with the same method.
"""

from papertopics.topics.names.hierarchy import topic_hierarchy
from papertopics.topics.names.phrases import NameIndex, PhraseNames
from papertopics.topics.names.registry import (
    DEFAULT_NAMING,
    NAMING_METHODS,
    NamingMethod,
    RegionNames,
    TopicNames,
    naming_method,
    register_naming,
)

__all__ = [
    "DEFAULT_NAMING",
    "NAMING_METHODS",
    "NameIndex",
    "NamingMethod",
    "PhraseNames",
    "RegionNames",
    "TopicNames",
    "naming_method",
    "register_naming",
    "topic_hierarchy",
]
