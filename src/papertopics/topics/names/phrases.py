"""Topic names a researcher would write: phrases from the abstracts, acronyms spelled out.

A c-TF-IDF keyword list ("fl, clients, federated") has to be decoded; a name is one phrase that
occurs verbatim in the group's own abstracts ("federated learning (FL)"). The registered naming
method "phrases" reads the corpus's name index (topics.names.index, rule index_phrases), scores
every candidate of a group with the one score of topics.names.score (weights chosen on authors'
keywords by bench/names_fit.py), and picks names with the pieces of topics.names.select. Topics
and regions are named alike; a region is named by a phrase two of its topics use at least.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, ClassVar

import numpy as np
import pandas as pd

from papertopics.topics.names.index import MAX_NAME_WORDS, NameIndex
from papertopics.topics.names.registry import (
    NamingMethod,
    TopicNames,
    name_phrases,
    normal,
    numbered,
    register_naming,
)
from papertopics.topics.names.score import TITLE_USE, WEIGHTS, Candidates, Weights
from papertopics.topics.names.select import distinct, gather, pair_name, ranked, second
from papertopics.topics.names.text import collect_acronyms, letters_fit

__all__ = [
    "MAX_NAME_WORDS",
    "TITLE_USE",
    "NameIndex",
    "PhraseNames",
    "collect_acronyms",
    "letters_fit",
]


@register_naming("phrases")
class PhraseNames(NamingMethod):
    """Names are phrases of the groups' own abstracts, scored against the corpus (NameIndex)."""

    topic_options: ClassVar[dict[str, Any]] = {"second": True}  # a topic's name may say two phrases

    def __init__(
        self,
        index: NameIndex,
        exclude: frozenset[str] = frozenset(),
        vectors: np.ndarray | None = None,
        phrase_vectors: Mapping[str, np.ndarray] | None = None,
        weights: Weights = WEIGHTS,
    ):
        self.index = index
        self.exclude = frozenset(exclude)
        self.vectors, self.phrase_vectors = vectors, phrase_vectors
        self.weights = weights
        self._units: tuple[np.ndarray, np.ndarray] | None = None

    @classmethod
    def for_corpus(cls, corpus: pd.DataFrame, prepared: NameIndex | None = None) -> PhraseNames:
        if prepared is None:
            prepared = NameIndex.build(corpus["text_raw"].tolist(), corpus["title"].fillna("").tolist())
        return cls(prepared)

    def excluding(self, words: frozenset[str]) -> PhraseNames:
        """vectorizer.extra_stop_words: the keywords leave them out, and so must the names, which
        come from this index, not from the vectorizer."""
        if not words:
            return self
        return PhraseNames(
            self.index, self.exclude | frozenset(words), self.vectors, self.phrase_vectors, self.weights
        )

    def with_vectors(self, vectors: np.ndarray, phrase_vectors: Mapping[str, np.ndarray]) -> PhraseNames:
        """Candidates weighed by meaning too (the `similarity` feature): `phrase_vectors` maps a
        phrase as the index displays it to its unit embedding (rule embed_phrases), in the space
        of the documents' `vectors`."""
        return PhraseNames(self.index, self.exclude, vectors, phrase_vectors, self.weights)

    def with_weights(self, weights: Weights) -> PhraseNames:
        return PhraseNames(self.index, self.exclude, self.vectors, self.phrase_vectors, weights)

    def coverage(self, names: dict[int, str], groups: dict[int, np.ndarray]) -> dict[int, float]:
        return self.index.coverage(names, groups)

    def phrase_units(self) -> tuple[np.ndarray, np.ndarray] | None:
        """(phrase group x dimension unit embeddings, which groups have one), or None."""
        if self.vectors is None or not self.phrase_vectors:
            return None
        if self._units is None:
            at = {text: g for g, text in enumerate(self.index.display)}
            found = [(at[p], v) for p, v in self.phrase_vectors.items() if p in at]
            units = np.zeros((len(self.index.keys), self.vectors.shape[1]), dtype=np.float32)
            known = np.zeros(len(self.index.keys), dtype=bool)
            if found:
                rows = np.array([g for g, _ in found])
                units[rows] = np.stack([v for _, v in found])
                known[rows] = True
            self._units = (units, known)
        return self._units

    def candidates(self, groups: dict[int, np.ndarray]) -> dict[int, Candidates]:
        """Each group's candidates (topics.names.select.gather), none holding an excluded word."""
        found = gather(
            self.index, groups, self.weights, vectors=self.vectors, phrase_units=self.phrase_units()
        )
        if self.exclude:
            found = {
                g: c.where(np.array([self._allowed(col) for col in c.cols], dtype=bool))
                for g, c in found.items()
            }
        return found

    def _allowed(self, col: int) -> bool:
        return self.exclude.isdisjoint(re.findall(r"\w[\w'-]*", self.index.name(col).casefold()))

    def name_groups(
        self,
        groups: dict[int, np.ndarray],
        *,
        taken: set[str] | None = None,
        fallback: dict[int, str] | None = None,
        second: bool = False,
    ) -> TopicNames:
        """Distinct names for groups of documents (topics, or unions of topics); with `second`,
        a name few of its group's documents use may take a second phrase ("A & B")."""
        shortlists = ranked(self.candidates(groups), self.weights)
        return self._choose(groups, shortlists, taken or set(), fallback, second)

    def _choose(
        self,
        groups: dict[int, np.ndarray],
        shortlists: dict[int, list[tuple[int, float]]],
        taken: set[str],
        fallback: dict[int, str] | None,
        with_second: bool,
        number: bool = True,
    ) -> TopicNames:
        """Names from the shortlists; a group none of whose candidates is free takes its
        `fallback` or its first candidate, numbered ("(2)"), or with `number` False, ""."""
        name = self.index.name
        candidates = {g: [name(col) for col, _ in shortlists[g]] for g in sorted(groups)}
        chosen = distinct(shortlists, name, taken)
        names = {g: name(col) for g, col in chosen.items()}
        used = {normal(n) for n in [*taken, *names.values()]}
        for g, col in sorted(chosen.items()) if with_second else ():
            col2 = second(self.index, groups[g], col, shortlists[g], used, self.weights)
            if col2 is not None:
                names[g] = pair_name(self.index, col, col2)
                used.add(normal(name(col2)))
                candidates[g] = [names[g], *candidates[g]]
        exact = {n.lower() for n in [*names.values(), *taken]}
        for g in sorted(groups):
            if g in names or not number:
                names.setdefault(g, "")
                continue
            base = (fallback or {}).get(g) or (candidates[g][0] if candidates[g] else "unnamed topic")
            label = numbered(base, exact | ({base.lower()} if normal(base) in used else set()))
            names[g] = label
            used.add(normal(label))
            exact.add(label.lower())
        return TopicNames(names, candidates)

    def name_regions(
        self,
        assigned: np.ndarray,
        region_of: dict[int, int],
        topic_names: dict[int, str],
    ) -> dict[int, str]:
        """Region node -> name: scored as a topic is, on the region's documents, among the
        phrases at least two of its topics use (`region_use` of their documents), apart from
        every topic's name (either phrase of one), with a second phrase as for topics. A name
        that under `region_cover` of the region's documents use gives way to its two largest
        topics' names ("speech & vision-language models"); a one-topic region is its topic."""
        assigned = np.asarray(assigned)
        members: dict[int, list[int]] = {}
        for t, node in sorted(region_of.items()):
            members.setdefault(node, []).append(t)
        names = {n: topic_names.get(ts[0], "") for n, ts in members.items() if len(ts) == 1}
        multi = {n: ts for n, ts in members.items() if len(ts) > 1}
        found = self.region_candidates(assigned, multi)
        names.update(self.region_names(assigned, multi, found, topic_names))
        return names

    def region_candidates(self, assigned: np.ndarray, multi: dict[int, list[int]]) -> dict[int, Candidates]:
        """Per region of several topics, its candidates that two of its topics use at least."""
        groups = {n: np.flatnonzero(np.isin(assigned, ts)) for n, ts in multi.items()}
        found = self.candidates(groups)
        for n, c in found.items():
            per_topic = self.index.counts([np.flatnonzero(assigned == t) for t in multi[n]])[:, c.cols]
            sizes = np.array([max((assigned == t).sum(), 1) for t in multi[n]], dtype=np.float64)
            users = (per_topic.toarray() / sizes[:, None] >= self.weights.region_use).sum(axis=0)
            found[n] = c.where(users >= self.weights.region_topics)
        return found

    def region_names(
        self,
        assigned: np.ndarray,
        multi: dict[int, list[int]],
        found: dict[int, Candidates],
        topic_names: dict[int, str],
    ) -> dict[int, str]:
        """Names of the regions of several topics from their candidates (region_candidates)."""
        groups = {n: np.flatnonzero(np.isin(assigned, ts)) for n, ts in multi.items()}
        taken = {part for n in topic_names.values() for part in name_phrases(n)}
        named = self._choose(groups, ranked(found, self.weights), taken, None, True, number=False).names
        cover = self.index.coverage({n: name for n, name in named.items() if name}, groups)
        out = {}
        for n, ts in multi.items():
            out[n] = named[n]
            if not named[n] or cover.get(n, 0.0) < self.weights.region_cover:
                largest = sorted(ts, key=lambda t: (-(assigned == t).sum(), t))[: self.weights.region_shown]
                out[n] = " & ".join(name_phrases(topic_names.get(t, ""))[0] for t in largest)
        return out
