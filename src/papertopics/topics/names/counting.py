"""Counting a corpus's candidate phrases for the name index (topics.names.index.NameIndex.build).

The texts become one array of word ids (`Words`); every n-gram that may be a name is counted
with numpy over it (`ngrams`); plural and singular forms join one group (`fold_groups`), shown
by one of its phrases (`shown_forms`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import chain

import numpy as np

from papertopics.ingest.text import strip_markup
from papertopics.topics.names.text import (
    RE_CJK,
    RE_INITIAL,
    RE_TITLED,
    RE_TOKEN,
    TokenIds,
    fold,
    is_plural,
    word_flags,
)

MAX_WORDS = 4  # longest candidate phrase (words)
# A phrase is shown in the plural when this share of its uses are ("graph neural networks",
# "diffusion models": the topic is a family of them), else as it is most often written.
PLURAL_SHOWN = 1 / 3


class Words:
    """The corpus as one array of word ids (segments split by -1: punctuation, numbers, ends of
    texts), the document of each, and how the texts write each word."""

    def __init__(self, texts: list[str], titles: list[str] | None, expand: dict[str, tuple[str, ...]]):
        self.casing: Counter = Counter()
        initial: Counter = Counter()
        titled: Counter = Counter()
        words: dict[str, int] = {}
        ids: list[int] = []
        owner: list[int] = []
        self.ids_of = TokenIds(words, expand)  # surface token -> word ids (-1: punctuation or number)
        for doc, (text, title) in enumerate(zip(texts, titles if titles is not None else [""] * len(texts))):
            start = len(ids)
            tokens = RE_TOKEN.findall(text)
            self.casing.update(tokens)
            initial.update(RE_INITIAL.findall(text))
            titled.update(w for run in RE_TITLED.findall(text) for w in run.replace("-", " ").split())
            ids.extend(chain.from_iterable(map(self.ids_of.__getitem__, tokens)))
            ids.append(-1)
            if title:
                title_tokens = RE_TOKEN.findall(strip_markup(title))
                ids.extend(chain.from_iterable(map(self.ids_of.__getitem__, title_tokens)))
                ids.append(-1)
            owner.extend([doc] * (len(ids) - start))
        self.casing.subtract(initial)  # a capital at a sentence start says nothing about the word
        # nor one in a Title-Cased run, where the corpus writes the word in lower case too:
        # "neural tangent kernel (NTK)", not "neural Tangent kernel"; "Monte Carlo" stays
        self.casing.subtract({w: n for w, n in titled.items() if self.casing[w.lower()] > 0})
        self.vocab = list(words)
        self.tokens = np.asarray(ids, dtype=np.int64)
        self.owner = np.asarray(owner, dtype=np.int64)

    def case(self) -> dict[str, str]:
        """Lower-case word -> as the texts most often write it mid-sentence."""
        word_case: dict[str, str] = {}
        for word, count in self.casing.items():
            if count <= 0 or not self.ids_of.get(word) or self.ids_of[word][0] < 0:
                continue
            low = word.lower()
            held = word_case.get(low)
            if held is None or (count, word == low) > (self.casing[held], held == low):
                word_case[low] = word
        return word_case


@dataclass
class Grams:
    rows: np.ndarray  # document of each use
    cols: np.ndarray  # n-gram of each use
    grams: list[np.ndarray]  # n-gram -> its word ids
    uses: np.ndarray  # n-gram -> times used
    ended: np.ndarray  # n-gram -> uses that end a noun phrase (no content word follows)


def ngrams(words: Words) -> Grams:
    """Every n-gram of 1..MAX_WORDS words that may be a name (no separator inside, edges allowed
    to start and end one, at most one inner stop word, one script), counted with numpy."""
    vocab, tokens, owner = words.vocab, words.tokens, words.owner
    flags = np.array([word_flags(w) for w in vocab] or [(False, False, False, False)], dtype=bool)
    start_ok, end_ok, stop, cjk = (np.append(flags[:, k], False) for k in range(4))  # [-1]: separator
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
        for part in parts:
            ok &= (part >= 0) & (cjk[part] == cjk[parts[0]])
        if n == 1:
            ok &= ~cjk[parts[0]]  # one CJK character is no name
        else:
            ok &= sum((stop[p].astype(np.int8) for p in parts[1:-1]), np.zeros(m, dtype=np.int8)) <= 1
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
    empty = np.zeros(0, dtype=np.int64)
    return Grams(
        *(np.concatenate(x) if x else empty for x in (rows, cols)),
        grams,
        *(np.concatenate(x) if x else empty for x in (uses, ended)),
    )


def fold_groups(phrases: list[str]) -> tuple[list[tuple[str, ...]], np.ndarray]:
    """Plural and singular forms are one group: (group -> folded words, phrase -> group)."""
    group_of: dict[tuple[str, ...], int] = {}
    groups = np.empty(len(phrases), dtype=np.int64)
    for pid, phrase in enumerate(phrases):
        key = (phrase,) if RE_CJK.match(phrase) else fold(phrase.split(" "))
        groups[pid] = group_of.setdefault(key, len(group_of))
    return list(group_of), groups


def shown_forms(phrases, groups, n_groups, df, uses, ended) -> np.ndarray:
    """Group -> the phrase showing it: in the plural where the corpus says it in a share of its
    uses (PLURAL_SHOWN: a topic is "diffusion models", not "diffusion model"), then the form that
    most often ends a noun phrase ("bandits", not "bandit" of "bandit problem"), then the most used."""
    best = np.full(n_groups, -1, dtype=np.int64)
    group_uses = np.bincount(groups, weights=uses, minlength=n_groups)
    plural = np.array([" " in p and not RE_CJK.match(p) and is_plural(p) for p in phrases], dtype=bool)
    shown_plural = plural & (uses >= PLURAL_SHOWN * group_uses[groups])
    for pid in np.lexsort((np.arange(len(phrases)), -df, -ended, ~shown_plural))[::-1]:
        best[groups[pid]] = pid
    return best
