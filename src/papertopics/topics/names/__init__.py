"""Names for topics, regions and hierarchy merges: one registry of naming methods.

`registry` holds the base class (NamingMethod) and the registered methods; `phrases` is the
default method: phrases of 1-4 words the abstracts use (`text` reads them, `index` counts them
once per corpus, rule index_phrases), scored by one weighted sum of features (`score`, weights
chosen on authors' keywords by bench/names_fit.py) and chosen by the pieces of `select`;
`hierarchy` names the merges of the topic tree with the same method.
"""

from papertopics.topics.names.hierarchy import topic_hierarchy
from papertopics.topics.names.phrases import NameIndex, PhraseNames
from papertopics.topics.names.registry import (
    DEFAULT_NAMING,
    NAMING_METHODS,
    NamingMethod,
    TopicNames,
    naming_method,
    register_naming,
)
from papertopics.topics.names.score import WEIGHTS, Weights

__all__ = [
    "DEFAULT_NAMING",
    "NAMING_METHODS",
    "WEIGHTS",
    "NameIndex",
    "NamingMethod",
    "PhraseNames",
    "TopicNames",
    "Weights",
    "naming_method",
    "register_naming",
    "topic_hierarchy",
]
