"""The naming methods: the one place a new way of naming topics plugs in.

A method names groups of documents of one corpus (`name_groups`). The same method names the
topics (`name_topics`), the regions of the zoomed-out map and every merge of the hierarchy
(topics.names.hierarchy), so one new subclass changes every name a user reads:

    @register_naming("keywords")
    class KeywordNames(NamingMethod):
        @classmethod
        def for_corpus(cls, corpus, prepared=None): ...
        def name_groups(self, groups, *, taken=None, fallback=None): ...

and `fit_topic_tables(..., naming="keywords")`. The default, "phrases", is
topics.names.phrases.PhraseNames.
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
from papertopics.constants import OUTLIER, OUTLIER_LABEL
from papertopics.errors import ConfigError
from papertopics.topics.stopwords import singular

DEFAULT_NAMING = "phrases"


@dataclass
class TopicNames:
    """Per group: its name and the candidates that would also be true (for keeping names)."""

    names: dict[int, str]
    candidates: dict[int, list[str]]
    sources: dict[int, str] = field(default_factory=dict)  # group -> "keywords" where they named it


def normal(name: str) -> str:
    """A name's identity for distinctness: lower case, singular, no "(...)"."""
    return " ".join(singular(w) for w in re.sub(r"\s*\([^)]*\)", "", name).lower().split())


def name_phrases(name: str) -> list[str]:
    """The phrases a name says: "Mixed: " aside, each side of " & " ("speech & audio")."""
    return [part.strip() for part in name.removeprefix(MIXED_PREFIX).split(" & ")]


class NamingMethod(ABC):
    """Names groups of documents (topics, or unions of topics) of one corpus."""

    key: ClassVar[str] = ""
    # what name_topics adds to name_groups' arguments for topics (PhraseNames: {"second": True})
    topic_options: ClassVar[dict[str, Any]] = {}

    @classmethod
    @abstractmethod
    def for_corpus(cls, corpus: pd.DataFrame, prepared: Any = None) -> NamingMethod:
        """The method for a corpus table (doc_id, text_raw, title, ...); `prepared` is what a
        per-corpus rule computed beforehand (phrases: rule index_phrases' NameIndex), or None."""

    def excluding(self, words: frozenset[str]) -> NamingMethod:
        """The method with no name holding any of `words` (lower case:
        vectorizer.extra_stop_words); a method whose names cannot hold them returns itself."""
        return self

    def with_vectors(self, vectors: np.ndarray, phrase_vectors: Mapping[str, np.ndarray]) -> NamingMethod:
        """The method with the documents' embeddings (rows follow the corpus) and unit embeddings
        of short phrases in the same space (rule embed_phrases); a method that names by counts
        alone returns itself."""
        return self

    @abstractmethod
    def name_groups(
        self,
        groups: dict[int, np.ndarray],
        *,
        taken: set[str] | None = None,
        fallback: dict[int, str] | None = None,
    ) -> TopicNames:
        """A distinct name per group (document row indices), none of them in `taken`;
        `fallback`: the name of a group the method finds nothing for."""

    def name_topics(
        self,
        assigned: np.ndarray,
        *,
        fallback: dict[int, str] | None = None,
        outlier_label: str = OUTLIER_LABEL,
    ) -> TopicNames:
        """One distinct name per topic of `assigned`; the outliers keep their label.

        Names depend only on the texts and the assignments, so a later step (marking mixed
        topics) can rewrite them afterwards.
        """
        assigned = np.asarray(assigned)
        groups = {
            int(t): np.flatnonzero(assigned == t) for t in sorted(set(assigned.tolist())) if t != OUTLIER
        }
        result = self.name_groups(groups, fallback=fallback, **self.topic_options)
        if (assigned == OUTLIER).any():
            result.names[OUTLIER] = outlier_label
            result.candidates[OUTLIER] = [outlier_label]
        return result

    def coverage(self, names: dict[int, str], groups: dict[int, np.ndarray]) -> dict[int, float]:
        """Group -> share of its documents that use its name (topics.csv's `coverage`); a
        method that cannot tell returns nothing and the column stays empty."""
        return {}

    def name_regions(
        self,
        assigned: np.ndarray,
        region_of: dict[int, int],
        topic_names: dict[int, str],
    ) -> dict[int, str]:
        """Region node -> name, for the zoomed-out map and hierarchy.csv (`region_of`: topic ->
        region node). A one-topic region keeps its topic's name; the others are named as groups
        of their documents, apart from every topic name. A method may name them better."""
        assigned = np.asarray(assigned)
        members: dict[int, list[int]] = {}
        for t, node in region_of.items():
            members.setdefault(node, []).append(t)
        names = {n: topic_names.get(ts[0], "") for n, ts in members.items() if len(ts) == 1}
        groups = {n: np.flatnonzero(np.isin(assigned, ts)) for n, ts in members.items() if len(ts) > 1}
        if groups:
            named = self.name_groups(
                groups, taken=set(topic_names.values()), fallback={n: "" for n in groups}
            )
            names.update(named.names)
        return names

    def make_distinct(
        self, labels: dict[int, str], candidates: dict[int, list[str]], keep: set[int]
    ) -> dict[int, str]:
        """Labels with duplicates resolved: topics in `keep` hold theirs, the others take their
        next candidate, or their own numbered (after a rerun a kept name may equal a freshly
        chosen one)."""
        out = dict(labels)
        used = {normal(out[t]) for t in keep if t in out}
        exact = {out[t].lower() for t in keep if t in out}
        for t in sorted(out, key=lambda t: (t not in keep, t)):
            if t in keep or t == OUTLIER:
                continue
            if normal(out[t]) in used:
                free = [c for c in candidates.get(t, []) if normal(c) not in used]
                out[t] = free[0] if free else numbered(out[t], exact)
            used.add(normal(out[t]))
            exact.add(out[t].lower())
        return out


def numbered(base: str, exact: set[str]) -> str:
    """`base`, or "base (2)", "base (3)", ...: the first not in `exact` (lower case; normal()
    strips "(2)", so numbered names are told apart as written)."""
    label, k = base, 2
    while label.lower() in exact:
        label, k = f"{base} ({k})", k + 1
    return label


NAMING_METHODS: dict[str, type[NamingMethod]] = {}


def register_naming(key: str) -> Callable[[type[NamingMethod]], type[NamingMethod]]:
    """Class decorator: make a NamingMethod subclass available as `naming=key`."""

    def register(cls: type[NamingMethod]) -> type[NamingMethod]:
        cls.key = key
        NAMING_METHODS[key] = cls
        return cls

    return register


def naming_method(key: str, corpus: pd.DataFrame, prepared: Any = None) -> NamingMethod:
    """The registered method `key`, ready for `corpus`."""
    if key not in NAMING_METHODS:
        raise ConfigError(f"naming method {key!r} is not one of {', '.join(sorted(NAMING_METHODS))}")
    return NAMING_METHODS[key].for_corpus(corpus, prepared)
