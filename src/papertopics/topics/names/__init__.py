"""Names for topics, regions and hierarchy merges: name sources, one interface, one chain.

`registry` holds the interface (NamingMethod: `for_listing`, `name_groups`) and the registered
sources; `chain` strings the sources representation.name_source chooses. The sources: `phrases`
(key "abstracts", the default: phrases of 1-4 words the abstracts use; `text` reads them, `index`
counts them once per corpus, rule index_phrases, scored by one weighted sum of features,
`score`, weights chosen on authors' keywords by bench/names_fit.py, and chosen by the pieces of
`select`) and `keywords` (the authors' keywords, where the listing has them). `hierarchy` names
the merges of the topic tree with the same chain.
"""

from papertopics.topics.names.chain import Names, names_for
from papertopics.topics.names.hierarchy import topic_hierarchy
from papertopics.topics.names.keywords import KeywordNames  # registers "keywords"
from papertopics.topics.names.phrases import NameIndex, PhraseNames
from papertopics.topics.names.registry import (
    DEFAULT_NAMING,
    NAMING_METHODS,
    Listing,
    NamingMethod,
    TopicNames,
    register_naming,
)
from papertopics.topics.names.score import WEIGHTS, Weights

__all__ = [
    "DEFAULT_NAMING",
    "NAMING_METHODS",
    "WEIGHTS",
    "KeywordNames",
    "Listing",
    "NameIndex",
    "NamingMethod",
    "Names",
    "PhraseNames",
    "TopicNames",
    "Weights",
    "names_for",
    "register_naming",
    "topic_hierarchy",
]
