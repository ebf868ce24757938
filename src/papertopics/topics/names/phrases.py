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

import numpy as np
import pandas as pd

from papertopics.topics.names.index import MAX_NAME_WORDS, NameIndex
from papertopics.topics.names.registry import (
    DEFAULT_NAMING,
    Listing,
    NamingMethod,
    TopicNames,
    name_phrases,
    normal,
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


@register_naming(DEFAULT_NAMING)
class PhraseNames(NamingMethod):
    """Names are phrases of the groups' own abstracts, scored against the corpus (NameIndex)."""

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
    def for_listing(cls, listing: Listing) -> PhraseNames:
        made = cls.for_corpus(listing.corpus, listing.index).excluding(listing.exclude)
        if listing.weights is not WEIGHTS:
            made = made.with_weights(listing.weights)
        if listing.vectors is not None and listing.phrase_vectors:
            made = made.with_vectors(listing.vectors, listing.phrase_vectors)
        return made

    @classmethod
    def for_corpus(cls, corpus: pd.DataFrame, prepared: NameIndex | None = None) -> PhraseNames:
        """The source on a corpus table (text_raw, title), its NameIndex built when not given."""
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
        taken: set[str],
        within: dict[int, list[np.ndarray]] | None = None,
        second: bool = False,
    ) -> TopicNames:
        """Distinct names for the groups a free candidate names; with `second`, a name few of
        its group's documents use may take a second phrase ("A & B"). With `within` (a region's
        topics' rows): among the phrases at least two of its topics use (`region_use` of their
        documents), and only a name `region_cover` of the region's documents use."""
        found = self.candidates(groups)
        if within is not None:
            found = {g: self._shared(c, within[g]) for g, c in found.items()}
        named = self._choose(groups, ranked(found, self.weights), set(taken), second)
        if within is not None:
            cover, floor = self.index.coverage(named.names, groups), self.weights.region_cover
            named.names = {g: n for g, n in named.names.items() if cover.get(g, 0.0) >= floor}
        return named

    def _shared(self, c: Candidates, topics: list[np.ndarray]) -> Candidates:
        """A region's candidates that `region_topics` of its topics use (`region_use` of theirs)."""
        per_topic = self.index.counts(topics)[:, c.cols]
        sizes = np.array([max(len(rows), 1) for rows in topics], dtype=np.float64)
        users = (per_topic.toarray() / sizes[:, None] >= self.weights.region_use).sum(axis=0)
        return c.where(users >= self.weights.region_topics)

    def _choose(
        self,
        groups: dict[int, np.ndarray],
        shortlists: dict[int, list[tuple[int, float]]],
        taken: set[str],
        with_second: bool,
    ) -> TopicNames:
        """Names from the shortlists (a group none of whose candidates is free is left out)."""
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
        return TopicNames(names, candidates)

    # -- the pieces of region naming apart, for bench/names_fit.py's fast path (features once)

    def region_candidates(self, assigned: np.ndarray, multi: dict[int, list[int]]) -> dict[int, Candidates]:
        """Per region of several topics (`multi`: node -> topics), its candidates that two of
        its topics use at least."""
        assigned = np.asarray(assigned)
        groups = {n: np.flatnonzero(np.isin(assigned, ts)) for n, ts in multi.items()}
        return {
            n: self._shared(c, [np.flatnonzero(assigned == t) for t in multi[n]])
            for n, c in self.candidates(groups).items()
        }

    def region_names(self, assigned, multi, found, topic_names) -> dict[int, str]:
        """Names of the regions of several topics from their candidates (region_candidates),
        as topics.names.chain.Names.name_regions gives them with this source alone."""
        assigned = np.asarray(assigned)
        groups = {n: np.flatnonzero(np.isin(assigned, ts)) for n, ts in multi.items()}
        taken = {part for n in topic_names.values() for part in name_phrases(n)}
        named = self._choose(groups, ranked(found, self.weights), taken, True).names
        cover = self.index.coverage(named, groups)
        out = {}
        for n, ts in multi.items():
            out[n] = named.get(n, "")
            if not out[n] or cover.get(n, 0.0) < self.weights.region_cover:
                largest = sorted(ts, key=lambda t: (-(assigned == t).sum(), t))[: self.weights.region_shown]
                out[n] = " & ".join(name_phrases(topic_names.get(t, ""))[0] for t in largest)
        return out
