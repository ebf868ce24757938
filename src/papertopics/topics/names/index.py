"""The name index of one corpus: every candidate phrase, the documents using it, its display form.

Candidates are n-grams of 1-4 words with no stop word at either end (topics.names.text), counted
once per document (titles included), plural and singular merged into one group; a group is shown
in the plural where a third of its uses are (a topic is a family: "diffusion models"), else in the
form that most often ends a noun phrase, and with "(ACRONYM)" where the corpus defines one
(the counting itself: topics.names.counting).

`NameIndex.build` does this once per corpus (rule index_phrases); the namer reads it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np
from scipy import sparse

from papertopics.constants import NAME_INDEX_VERSION, PHRASE_VECTORS_MAX
from papertopics.ingest.text import strip_markup
from papertopics.topics.names.counting import Words, fold_groups, ngrams, shown_forms
from papertopics.topics.names.registry import name_phrases
from papertopics.topics.names.text import (
    RE_CJK,
    collect_acronyms,
    display_form,
    fold,
    is_plural,
    join_words,
    lower_words,
)

MAX_NAME_WORDS = 6  # longest name, "(ACRONYM)" included


@dataclass
class NameIndex:
    """Phrase counts of one corpus: a document x phrase-group incidence matrix and display forms."""

    incidence: sparse.csr_matrix  # documents x groups, 1 where a document uses the group
    keys: list[tuple[str, ...]]  # group -> singular lower-case words
    display: list[str]  # group -> phrase as written ("graph neural networks")
    acronyms: dict[str, tuple[tuple[str, ...], str]] = field(default_factory=dict)
    key_index: dict[tuple[str, ...], int] = field(default_factory=dict)
    long_forms: dict[tuple[str, ...], str] = field(default_factory=dict)
    static: np.ndarray | None = None  # group x feature: what score.static_features computes once

    @classmethod
    def build(
        cls,
        texts: list[str],
        titles: list[str] | None = None,
        min_df: int = 2,
        acronyms: dict[str, tuple[tuple[str, ...], str]] | None = None,
    ) -> NameIndex:
        """Count candidate phrases in every text (and its title, which counts as the same document).
        `acronyms` replaces the texts' own definitions (titles alone define none).

        Words are read in Python; the n-grams are formed and counted with numpy over one array
        of word ids (segments separated by -1), which keeps NeurIPS-sized corpora to seconds.
        """
        stripped = [strip_markup(t) for t in texts]
        acronyms = collect_acronyms(stripped) if acronyms is None else acronyms
        words = Words(stripped, titles, {key: form for key, (form, _) in acronyms.items()})
        grams = ngrams(words)
        exact = sparse.csr_matrix(
            (np.ones(len(grams.rows), dtype=np.float32), (grams.rows, grams.cols)),
            shape=(len(texts), len(grams.grams)),
        )
        exact.data[:] = 1.0
        exact_df = np.asarray(exact.sum(axis=0)).ravel()
        floor = min(min_df, max(1, len(texts) // 20))
        used = np.flatnonzero(exact_df >= floor)  # a phrase one abstract uses once names no topic
        phrases = [join_words([words.vocab[i] for i in grams.grams[g]]) for g in used]
        keys, groups = fold_groups(phrases)
        merge = sparse.csr_matrix(
            (np.ones(len(phrases), dtype=np.float32), (np.arange(len(phrases)), groups)),
            shape=(len(phrases), len(keys)),
        )
        incidence = (exact[:, used] @ merge).tocsr()
        incidence.data[:] = 1.0
        keep = np.flatnonzero(np.asarray(incidence.sum(axis=0)).ravel() >= floor)
        best = shown_forms(phrases, groups, len(keys), exact_df[used], grams.uses[used], grams.ended[used])
        word_case = words.case()
        index = cls(
            incidence[:, keep].tocsr(),
            [keys[g] for g in keep],
            [display_form(phrases[best[g]], word_case) for g in keep],
            acronyms,
        )
        index.key_index = {k: i for i, k in enumerate(index.keys)}
        return index

    def save(self, path) -> None:
        """Pickled with NAME_INDEX_VERSION (rule index_phrases; fit_topics loads it)."""
        import pickle

        from papertopics.topics.names.score import static_features

        static_features(self)  # computed once here, not at every fit
        with open(path, "wb") as handle:
            pickle.dump((NAME_INDEX_VERSION, self), handle, protocol=pickle.HIGHEST_PROTOCOL)

    @classmethod
    def load(cls, path) -> NameIndex:
        import pickle

        try:
            with open(path, "rb") as handle:
                version, index = pickle.load(handle)
        except (ModuleNotFoundError, AttributeError):  # pickled where the class used to live
            version = index = None
        if version != NAME_INDEX_VERSION or not isinstance(index, cls):
            raise ValueError(f"{path}: a name index of another papertopics version; delete it and rerun")
        return index

    def counts(self, groups: list[np.ndarray]) -> sparse.csr_matrix:
        """Documents using each phrase, per group of documents (rows follow `groups`)."""
        n = self.incidence.shape[0]
        rows = (
            np.concatenate([np.full(len(g), i) for i, g in enumerate(groups)])
            if groups
            else np.array([], int)
        )
        cols = np.concatenate(groups) if groups else np.array([], int)
        member = sparse.csr_matrix(
            (np.ones(len(cols), dtype=np.float32), (rows, cols)), shape=(len(groups), n)
        )
        return (member @ self.incidence).tocsr()

    def group_of(self, name: str) -> int | None:
        """The phrase group a name says ("Mixed: " and "(ACRONYM)" or "(2)" aside; a keyword
        list's first term), or None when no indexed phrase is the name."""
        phrase = re.sub(r"\s*\([^)]*\)$", "", name.removeprefix("Mixed: ")).split(",")[0].strip()
        phrase = re.sub(r"\s*\([^)]*\)$", "", phrase).strip()
        if not phrase:
            return None
        if RE_CJK.match(phrase):
            key = (phrase,)
        else:
            key = fold(lower_words(phrase.split(), self._expand()))
        if not self.key_index:
            self.key_index = {k: i for i, k in enumerate(self.keys)}
        return self.key_index.get(key)

    def coverage(self, names: dict[int, str], groups: dict[int, np.ndarray]) -> dict[int, float]:
        """Per group, the share of its documents that use its name's phrase (or the acronym,
        which counts as its long form), either phrase of an "A & B" name; 0 when no indexed
        phrase is the name."""
        cols = {g: [self.group_of(part) for part in name_phrases(name)] for g, name in names.items()}
        wanted = sorted({c for parts in cols.values() for c in parts if c is not None})
        used = self.incidence[:, wanted].tocsc() if wanted else None  # one pass over the matrix
        at = {c: k for k, c in enumerate(wanted)}
        out = {}
        for g, parts in cols.items():
            docs = np.asarray(groups.get(g, []), dtype=int)
            if None in parts or not len(docs):
                out[g] = 0.0
                continue
            hits = np.concatenate([used.indices[used.indptr[at[c]] : used.indptr[at[c] + 1]] for c in parts])
            out[g] = round(float(np.isin(docs, hits).sum()) / len(docs), 4)
        return out

    def _expand(self) -> dict[str, tuple[str, ...]]:
        return {key: form for key, (form, _) in self.acronyms.items()}

    def name(self, group: int) -> str:
        """Display name of a phrase group, its acronym appended when the corpus defines one."""
        key = self.keys[group]
        text = self.display[group]
        written = self.long_form_of().get(key)
        if written:
            label = f"{text} ({written}{'s' if is_plural(text) and not written.endswith('s') else ''})"
            if len(label.split()) <= MAX_NAME_WORDS:
                return label
        return text

    def nameable(self, limit: int = PHRASE_VECTORS_MAX) -> list[str]:
        """The phrases that may become names, most used first, at most `limit`: what rule
        embed_phrases embeds."""
        df = np.asarray(self.incidence.sum(axis=0)).ravel()
        order = np.lexsort((np.arange(len(df)), -df))
        return [self.display[g] for g in order[:limit]]

    def long_form_of(self) -> dict[tuple[str, ...], str]:
        """Long form (folded words) -> the acronym the corpus writes for it."""
        if not self.long_forms:
            self.long_forms = {fold(form): written for form, written in self.acronyms.values()}
        return self.long_forms
