"""Name sources: the one place a new way of naming topics plugs in.

A name source names groups of papers of one listing, given the names already taken. It is one
class with two methods, registered under the key `representation.name_source` chooses it by:

    @register_naming("keywords")
    class KeywordNames(NamingMethod):
        @classmethod
        def for_listing(cls, listing: Listing) -> KeywordNames | None: ...  # None: nothing to read
        def name_groups(self, groups, *, taken, within=None, second=False) -> TopicNames: ...

`name_groups` names the groups it can and leaves out the others; `within` (a region's topics'
papers) asks for a name several of them share. topics.names.chain strings the sources together,
as BERTopic chains its representation models: `auto` asks every registered source in `rank`
order, each naming what the earlier left, the last ("abstracts", topics.names.phrases) naming
every group; the chain names the topics, the regions and every merge of the hierarchy.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from papertopics.cluster.cohesion import MIXED_PREFIX
from papertopics.errors import ConfigError
from papertopics.topics.names.score import WEIGHTS, Weights
from papertopics.topics.stopwords import singular

DEFAULT_NAMING = "abstracts"  # the source that names every group
AUTO = "auto"  # representation.name_source: every registered source, in rank order


@dataclass
class TopicNames:
    """Per group: its name and the candidates that would also be true (for keeping names)."""

    names: dict[int, str]
    candidates: dict[int, list[str]]
    sources: dict[int, str] = field(default_factory=dict)  # group -> the source that named it


@dataclass(frozen=True)
class Listing:
    """What every name source may read of one listing."""

    corpus: pd.DataFrame  # doc_id, text, text_raw, title, keywords (when the listing has them), ...
    index: Any = None  # rule index_phrases' NameIndex (topics.names.index), or None
    vectors: np.ndarray | None = None  # the documents' embeddings, rows as the corpus
    phrase_vectors: Mapping[str, np.ndarray] | None = None  # rule embed_phrases: phrase -> unit vector
    exclude: frozenset[str] = frozenset()  # vectorizer.extra_stop_words (lower case): in no name
    weights: Weights = WEIGHTS
    source: str = AUTO  # representation.name_source as configured


def normal(name: str) -> str:
    """A name's identity for distinctness: lower case, singular, no "(...)"."""
    return " ".join(singular(w) for w in re.sub(r"\s*\([^)]*\)", "", name).lower().split())


def name_phrases(name: str) -> list[str]:
    """The phrases a name says: "Mixed: " aside, each side of " & " ("speech & audio")."""
    return [part.strip() for part in name.removeprefix(MIXED_PREFIX).split(" & ")]


def numbered(base: str, exact: set[str]) -> str:
    """`base`, or "base (2)", "base (3)", ...: the first not in `exact` (lower case; normal()
    strips "(2)", so numbered names are told apart as written)."""
    label, k = base, 2
    while label.lower() in exact:
        label, k = f"{base} ({k})", k + 1
    return label


class NamingMethod(ABC):
    """A name source: names groups of papers (topics, regions, merges) of one listing."""

    key: ClassVar[str] = ""
    rank: ClassVar[int | None] = None  # `auto` asks the ranked sources in rank order, the default last

    @classmethod
    @abstractmethod
    def for_listing(cls, listing: Listing) -> NamingMethod | None:
        """The source ready for `listing`, or None when the listing gives it nothing to read."""

    @abstractmethod
    def name_groups(
        self,
        groups: dict[int, np.ndarray],
        *,
        taken: set[str],
        within: dict[int, list[np.ndarray]] | None = None,
        second: bool = False,
    ) -> TopicNames:
        """Distinct names for the groups it can name (document rows), none in `taken`; candidates
        for every group. `within`: per group (a region) its topics' rows, a name two of them use;
        `second`: a name may say two phrases ("A & B")."""

    def coverage(self, names: dict[int, str], groups: dict[int, np.ndarray]) -> dict[int, float]:
        """Group -> share of its papers that its name says something of (topics.csv's
        `coverage`, the card's figure); a source that cannot tell returns nothing."""
        return {}


NAMING_METHODS: dict[str, type[NamingMethod]] = {}


def register_naming(key: str, rank: int | None = None) -> Callable[[type[NamingMethod]], type[NamingMethod]]:
    """Class decorator: make a name source available as `representation.name_source: key`;
    with a `rank`, `auto` asks it too (lower first)."""

    def register(cls: type[NamingMethod]) -> type[NamingMethod]:
        cls.key, cls.rank = key, rank
        NAMING_METHODS[key] = cls
        return cls

    return register


def source_keys(source: str) -> list[str]:
    """The sources `representation.name_source` asks, first to last: `auto`, every ranked one
    by rank, then the default; a key, that one, then the default for the groups it leaves."""
    if source == AUTO:
        ranked = [k for k, m in NAMING_METHODS.items() if m.rank is not None and k != DEFAULT_NAMING]
        return [*sorted(ranked, key=lambda k: (NAMING_METHODS[k].rank, k)), DEFAULT_NAMING]
    if source not in NAMING_METHODS:
        known = ", ".join([AUTO, *sorted(NAMING_METHODS)])
        raise ConfigError(f"representation.name_source {source!r} is not one of {known}")
    return [source] if source == DEFAULT_NAMING else [source, DEFAULT_NAMING]


def name_sources(listing: Listing) -> list[NamingMethod]:
    """The ready sources for `listing`, first to last (those with nothing to read left out)."""
    made = (NAMING_METHODS[key].for_listing(listing) for key in source_keys(listing.source))
    return [method for method in made if method is not None]
