"""The name index of one corpus: every candidate phrase, the documents using it, its display form.

Candidates are n-grams of 1-4 words with no stop word at either end (topics.names.text), counted
once per document (titles included), plural and singular merged into one group; a group is shown
in the plural where a third of its uses are (a topic is a family: "diffusion models"), else in the
form that most often ends a noun phrase, and with "(ACRONYM)" where the corpus defines one.
Per group the index also counts what the features (topics.names.score) read: its uses and those
that end a noun phrase.

`NameIndex.build` does this once per corpus (rule index_phrases); the namer reads it.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from itertools import chain

import numpy as np
from scipy import sparse

from papertopics.constants import NAME_INDEX_VERSION, PHRASE_VECTORS_MAX
from papertopics.ingest.clean import strip_markup
from papertopics.topics.names.registry import name_phrases
from papertopics.topics.names.text import (
    RE_CJK,
    RE_INITIAL,
    RE_TITLED,
    RE_TOKEN,
    TokenIds,
    collect_acronyms,
    display_form,
    fold,
    is_plural,
    join_words,
    lower_words,
    word_flags,
)

MAX_WORDS = 4  # longest candidate phrase (words)
MAX_NAME_WORDS = 6  # longest name, "(ACRONYM)" included
# A phrase is shown in the plural when this share of its uses are ("graph neural networks",
# "diffusion models": the topic is a family of them), else as it is most often written.
PLURAL_SHOWN = 1 / 3


@dataclass
class NameIndex:
    """Phrase counts of one corpus: a document x phrase-group incidence matrix and display forms."""

    incidence: sparse.csr_matrix  # documents x groups, 1 where a document uses the group
    keys: list[tuple[str, ...]]  # group -> singular lower-case words
    display: list[str]  # group -> phrase as written ("graph neural networks")
    acronyms: dict[str, tuple[tuple[str, ...], str]] = field(default_factory=dict)
    # group -> share of its uses that end a noun phrase (not followed by a content word)
    ends: np.ndarray | None = None
    uses: np.ndarray | None = None  # group -> times the corpus uses it
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
        expand = {key: form for key, (form, _) in acronyms.items()}
        casing: Counter = Counter()
        initial: Counter = Counter()
        titled: Counter = Counter()
        words: dict[str, int] = {}
        ids: list[int] = []
        owner: list[int] = []
        ids_of = TokenIds(words, expand)  # surface token -> word ids (-1: punctuation or number)
        titles = titles if titles is not None else [""] * len(texts)
        for doc, (text, title) in enumerate(zip(stripped, titles)):
            start = len(ids)
            tokens = RE_TOKEN.findall(text)
            casing.update(tokens)
            initial.update(RE_INITIAL.findall(text))
            titled.update(w for run in RE_TITLED.findall(text) for w in run.replace("-", " ").split())
            ids.extend(chain.from_iterable(map(ids_of.__getitem__, tokens)))
            ids.append(-1)
            if title:
                ids.extend(
                    chain.from_iterable(map(ids_of.__getitem__, RE_TOKEN.findall(strip_markup(title))))
                )
                ids.append(-1)
            owner.extend([doc] * (len(ids) - start))
        casing.subtract(initial)  # a capital at a sentence start says nothing about the word
        # nor one in a Title-Cased run, where the corpus writes the word in lower case too:
        # "neural tangent kernel (NTK)", not "neural Tangent kernel"; "Monte Carlo" stays
        casing.subtract({w: n for w, n in titled.items() if casing[w.lower()] > 0})
        vocab = list(words)
        flags = np.array([word_flags(w) for w in vocab] or [(False, False, False, False)], dtype=bool)
        start_ok, end_ok, stop, cjk = (np.append(flags[:, k], False) for k in range(4))  # [-1]: separator
        tokens = np.asarray(ids, dtype=np.int64)
        owner = np.asarray(owner, dtype=np.int64)
        size = len(vocab) + 1
        rows, cols, grams, uses, ended = [], [], [], [], []
        padded = np.append(tokens, -1)  # the token after a phrase ending the text is a separator
        offset = 0
        for n in range(1, MAX_WORDS + 1):
            m = len(tokens) - n + 1
            if m <= 0:
                break
            parts = [tokens[k : k + m] for k in range(n)]
            ok = start_ok[parts[0]] & end_ok[parts[-1]]
            same_script = np.ones(m, dtype=bool)
            for part in parts:
                ok &= part >= 0
                same_script &= cjk[part] == cjk[parts[0]]
            ok &= same_script
            if n == 1:
                ok &= ~cjk[parts[0]]  # one CJK character is no name
            else:
                inner = sum((stop[p].astype(np.int8) for p in parts[1:-1]), np.zeros(m, dtype=np.int8))
                ok &= inner <= 1
            where = np.flatnonzero(ok)
            if not len(where):
                continue
            code = parts[0][where]
            for part in parts[1:]:
                if code.max(initial=0) >= (2**62) // size:  # renumber before the codes overflow
                    code = np.unique(code, return_inverse=True)[1].astype(np.int64)
                code = code * size + part[where]
            unique, inverse = np.unique(code, return_inverse=True)
            first = np.zeros(len(unique), dtype=np.int64)
            first[inverse[::-1]] = where[::-1]
            rows.append(owner[where])
            cols.append(inverse + offset)
            # does the phrase end there, or does a content word go on ("latent" -> "latent space")?
            after = padded[where + n]
            goes_on = (after >= 0) & ~stop[after] & ~cjk[after]
            uses.append(np.bincount(inverse, minlength=len(unique)))
            ended.append(np.bincount(inverse, weights=~goes_on, minlength=len(unique)))
            grams.extend(tokens[i : i + n] for i in first)
            offset += len(unique)
        rows = np.concatenate(rows) if rows else np.zeros(0, dtype=np.int64)
        cols = np.concatenate(cols) if cols else np.zeros(0, dtype=np.int64)
        exact = sparse.csr_matrix(
            (np.ones(len(rows), dtype=np.float32), (rows, cols)), shape=(len(texts), offset)
        )
        exact.data[:] = 1.0
        exact_df = np.asarray(exact.sum(axis=0)).ravel()
        floor = min(min_df, max(1, len(texts) // 20))
        used = np.flatnonzero(exact_df >= floor)  # a phrase one abstract uses once names no topic
        exact, exact_df = exact[:, used].tocsr(), exact_df[used]
        uses = np.concatenate(uses)[used] if uses else np.zeros(0)
        ended = np.concatenate(ended)[used] if ended else np.zeros(0)
        phrases = [join_words([vocab[i] for i in grams[g]]) for g in used]
        # plural and singular forms are one group
        group_of: dict[tuple[str, ...], int] = {}
        groups = np.empty(len(phrases), dtype=np.int64)
        for pid, phrase in enumerate(phrases):
            key = (phrase,) if RE_CJK.match(phrase) else fold(phrase.split(" "))
            groups[pid] = group_of.setdefault(key, len(group_of))
        merge = sparse.csr_matrix(
            (np.ones(len(phrases), dtype=np.float32), (np.arange(len(phrases)), groups)),
            shape=(len(phrases), len(group_of)),
        )
        incidence = (exact @ merge).tocsr()
        incidence.data[:] = 1.0
        df = np.asarray(incidence.sum(axis=0)).ravel()
        keep = np.flatnonzero(df >= floor)
        best = np.full(len(group_of), -1, dtype=np.int64)
        # shown in the plural where the corpus says it in a share of its uses (PLURAL_SHOWN: a
        # topic is "diffusion models", not "diffusion model"), then as the form that most often
        # ends a noun phrase ("bandits", not "bandit" of "bandit problem"), then the most used
        group_uses = np.bincount(groups, weights=uses, minlength=len(group_of))
        plural = np.array([" " in p and not RE_CJK.match(p) and is_plural(p) for p in phrases], dtype=bool)
        shown_plural = plural & (uses >= PLURAL_SHOWN * group_uses[groups])
        for pid in np.lexsort((np.arange(len(phrases)), -exact_df, -ended, ~shown_plural))[::-1]:
            best[groups[pid]] = pid
        keys = [None] * len(group_of)
        for key, gid in group_of.items():
            keys[gid] = key
        word_case: dict[str, str] = {}
        for word, count in casing.items():
            if count <= 0 or not ids_of.get(word) or ids_of[word][0] < 0:
                continue
            low = word.lower()
            held = word_case.get(low)
            if held is None or (count, word == low) > (casing[held], held == low):
                word_case[low] = word
        group_ended = np.bincount(groups, weights=ended, minlength=len(group_of))
        index = cls(
            incidence[:, keep].tocsr(),
            [keys[g] for g in keep],
            [display_form(phrases[best[g]], word_case) for g in keep],
            acronyms,
            ends=(group_ended[keep] + 2.0) / (group_uses[keep] + 4.0),
            uses=group_uses[keep],
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
