"""Topic names a researcher would write: phrases from the abstracts, acronyms spelled out.

A c-TF-IDF keyword list ("fl, clients, federated") has to be decoded; a name is one phrase
that occurs verbatim in the topic's own abstracts ("federated learning (FL)"). Candidates are
n-grams of 1-4 words with no stop word at either end, counted once per document (titles
included), plural and singular merged; a candidate scores by how much more often the topic's
documents use it than the corpus does (its share in the topic times the log of that lift),
longer phrases preferred when they are nearly as frequent, and (in a small topic, whose counts say
little) phrases that paper titles use (title_use.tsv.gz). Acronyms are spelled out from the
corpus itself: "long form (ACRONYM)" definitions are collected with the Schwartz-Hearst
alignment and a bare acronym in a text counts as its long form. Words are cased as the
abstracts write them mid-sentence (GNN, ReLU, Pokémon, but "language models"). Math and
LaTeX are removed before anything is counted, so "log" or "tγ" cannot become a name.

`NameIndex.build` does the corpus-wide work once (rule index_phrases); `PhraseNames`, the
registered naming method "phrases", names any group of documents with it.
"""

from __future__ import annotations

import functools
import gzip
import re
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from itertools import chain
from typing import Any, ClassVar

import numpy as np
import pandas as pd
from scipy import sparse

from papertopics.constants import NAME_INDEX_VERSION, PHRASE_VECTORS_MAX
from papertopics.ingest.clean import CJK_LETTERS
from papertopics.topics.names.registry import (
    NamingMethod,
    RegionNames,
    TopicNames,
    name_phrases,
    normal,
    register_naming,
)
from papertopics.topics.stopwords import DOMAIN_STOP_WORDS, ENGLISH_STOP_WORDS, plural, singular
from papertopics.vectors import normalise

MAX_WORDS = 4  # longest candidate phrase (words)
MAX_NAME_WORDS = 6  # longest name, "(ACRONYM)" included
_REGION_USE = 0.1  # a topic "uses" a phrase that this share of its abstracts has
N_CANDIDATES = 12  # candidates kept per topic (a kept name must stay among them)
_LENGTH_WEIGHT = {1: 0.6, 2: 1.0, 3: 1.15, 4: 1.2}  # by words in the phrase as written
_CJK_WEIGHT = {2: 1.0, 3: 0.8, 4: 1.1}  # by characters: most words have two, many terms four

# Words that may not start or end a name; "models" etc. may end a multi-word one
# ("diffusion models") but never be a name alone or start one.
_EDGE_STOP = (
    frozenset(ENGLISH_STOP_WORDS)
    | (DOMAIN_STOP_WORDS - {"large", "small", "high", "low"})
    | frozenset(
        """state-of-the-art real-world large-scale high-quality well-known fine-grained end-to-end
    i.e e.g etc given due based-on new novel existing many several various multiple
    log exp sin cos max min sup inf lim argmax argmin sqrt det tr mod iff resp wrt
    first-order second-order findings insights prove proves proved proving
    """.split()
    )
)
_END_OK = frozenset(
    "model models framework frameworks method methods algorithm algorithms "
    "approach approaches analysis problem problems".split()
)
# Words too generic to be a name on their own.
_GENERIC = frozenset(
    """learning data training network networks neural deep machine information function functions
    set sets time number process system systems structure structures dataset datasets benchmark
    benchmarks inference optimization representation representations features feature loss
    accuracy tasks task samples sample quality error errors theory bound bounds class classes
    space distribution distributions generation evaluation prediction predictions design
    large small high low constant constants parameter parameters value values example examples
    property properties condition conditions
    """.split()
)
# One word names a field when it is a noun of a doing or a quality ("quantization",
# "fairness", "robustness", "forecasting"); a thing ("image", "graph", "bandit") rarely does.
_FIELD_WORD = re.compile(r"(tion|sion|ness|ity|ism|ing|ics|acy|ment|ogy|phy|ncy|nce)s?$")
_THING_WEIGHT = 1.0
# A phrase made only of generic words ("machine learning", "training data") fits any topic.
_ALL_GENERIC = 0.5
# A phrase that nearly always goes on ("large language" -> "large language models",
# "multiple-output" <- "multiple-input multiple-output") is a piece of a name, never one: this
# share of its documents use one phrase that extends it by a word.
_FRAGMENT = 0.8
# A word the corpus often writes before an object ("exploring the", "leveraging these",
# "recover a") is a verb, not a name, nor is a phrase it starts when it ends in -ing: this share
# of its uses at least, with four more uses at the share of arXiv's abstracts (TITLE_USE).
# NeurIPS 2023: "sampling" 0.02, "planning" 0.01, "fine-tuning" 0.09, "modeling" 0.08,
# "understanding" 0.14; verbs "exploring" 0.54, "leveraging" 0.46, "computing" 0.36.
_VERB_OBJECT = 0.2
_OBJECT_WORDS = frozenset("the a an this these those their its our such how whether them it".split())
# A phrase is shown in the plural when this share of its uses are ("graph neural networks",
# "diffusion models": the topic is a family of them), else as it is most often written.
_PLURAL_SHOWN = 1 / 3
# A name is a noun phrase's head, not its modifier: a phrase that a content word mostly follows
# ("diffusion" -> "diffusion models", "latent", "multi-agent", "vision-language") weighs by the
# share of its uses that end there, up to this share (counted with two pseudo-uses each way).
_HEAD_END = 0.3
# Meaning weighs in: a candidate's score times (cosine of its embedding with the group's mean
# embedding) ** SIMILARITY_WEIGHT, among the candidates that cover the group at least
# _SIMILARITY_COVER times as well as the counts' first. A bare word ("policy", "approximation")
# embeds far from the abstracts it comes from, the field's phrase ("reinforcement learning",
# "Bayesian optimization") near them; "text-to-image" (15% of a vision topic) still does not
# replace "image" (62%). KeyBERTInspired's idea on the phrases the counts propose.
SIMILARITY_WEIGHT = 0.5
_SIMILARITY_COVER = 0.5
_SIMILARITY_POOL = 3  # candidates re-ranked by meaning, per one kept
# A region may take a topic's name when the topic has a candidate holding that name which covers
# this share of what the name covers: "large language models" (63% of the topic's abstracts)
# for "language models" (87%); the region is the field, the topic a part of it.
_NARROWER = 0.3
# A region of two topics takes a phrase of theirs only if it (with its "&" partner) is in this
# share of their abstracts; otherwise it shows the two topics' names.
_PAIR_COVER = 0.5
# A region of this many topics or more may be named by a topic's name that another of its topics
# uses too (a tenth of its abstracts): "graph neural networks & differential equations" for
# GNNs, molecules, PDEs... The name then takes a second phrase, so it stays its own.
_SHARED_TOPICS = 3
# A region's second phrase scores this share of its first at least; after a topic's name, whose
# score is mostly its own topic's, less (NeurIPS 2023 as a text listing: "graph neural networks
# (GNNs) & forecasting", where "forecasting" scored 0.299 of it, not "graphs & forecasting").
_REGION_SECOND = 0.3
_SHARED_SECOND = 0.2
# A one-word name gives way to a longer candidate holding it that covers this share of its
# documents ("graph neural networks" over "graph"); a field word needs the usual 2/3.
_ABSORB_THING = 0.35
# A topic named by one word takes a second phrase ("speech & audio", "brain & spiking neural
# networks (SNNs)", "proteins & molecules"), as a researcher names a field by its two halves,
# when one scores at least _SECOND_SCORE of the word's, shares none of its words, is a noun
# phrase no other topic is named by, and is used by _SECOND_DOCS of the topic's abstracts at
# least, _SECOND_NEW of them without the word, adding _SECOND_GAIN of the topic to the
# name's coverage (so a small topic, whose second phrase two abstracts share by chance, keeps one).
# So does a longer name that under _SECOND_COVER of its topic's abstracts use: arXiv cs.CL's
# "machine translation (MT)" for a multilingual topic (16%) is "machine translation (MT) &
# low-resource languages".
# In a topic of fewer than _TITLE_EVIDENCE abstracts, where its counts cannot tell the field's
# name from a thing four of six abstracts mention ("images", "labels", "objects"), a one-word
# thing at the top gives way to a field name scoring at least _YIELD_SCORE of it: a phrase, a
# field word or an abbreviated term whose title weight (TITLE_USE) is above the thing's and 1 at
# least ("vision-language models (VLMs)" for "images", "classification" for "labels", "object
# detection" for "objects"). A thing titles name fields by ("video", "agents") keeps its place.
_YIELD_SCORE = 0.5
_SECOND_SCORE = 0.5
_SECOND_DOCS = 5
_SECOND_NEW = 0.3
_SECOND_GAIN = 0.05
_SECOND_COVER = 0.3

# Researchers name a field by the phrases paper titles use ("reinforcement learning", "graph
# neural networks"), not by what abstracts say in passing ("efficiency", "unlabeled data",
# "capabilities"). How often arXiv titles use a phrase per abstract using it (TITLE_USE, built by
# tools/build_title_use.py from 74,728 arXiv abstracts of 2025-26) weighs a candidate by
# (ratio / _TITLE_NEUTRAL) ** _TITLE_POWER within [_TITLE_MIN, _TITLE_MAX]. A listing's own
# counts say little of a small topic (two of five abstracts) and enough of a large one, so the
# weight counts with the power _TITLE_EVIDENCE / (_TITLE_EVIDENCE + the topic's size): most of
# it at five abstracts, a twentieth at four hundred. No table ships for such a purpose, hence ours.
# phrase (folded words), arXiv titles using it, abstracts using it, uses, uses before an object
TITLE_USE = "title_use.tsv.gz"
_TITLE_NEUTRAL = 0.2  # one title per five abstracts: weight 1
_TITLE_POWER = 0.8
_TITLE_MIN, _TITLE_MAX = 0.2, 2.0
_TITLE_EVIDENCE = 20.0


def is_field_word(word: str) -> bool:
    return bool(_FIELD_WORD.search(word.lower())) or _is_acronym(word)


# A name ending in an adjective ("causal", "Bayesian", "zero-sum") names no field.
_ADJECTIVE_END = re.compile(r"(al|ic|ive|ous|ian|ary|able|ible|ful|less|-sum|-free|-based|-aware)$")
# Adjectives no suffix gives away, which abstracts use bare ("robust", "true", the "upper" of
# "matching upper and lower bounds"); a hand list, as no English word list ships with the package.
_ADJECTIVES = frozenset(
    """robust true false upper lower large small high low sparse dense deep shallow safe fair
    private secure accurate fast weak hard implicit explicit linear nonlinear non-linear convex
    nonconvex non-convex complex simple novel multiple diverse efficient different recent single
    new""".split()
)
# A verb ("generalize", "simplify"), a participle ("unlabeled", "constrained") or an adverb
# ("distributionally", "provably", a 45-abstract listing's "Mixed: distributionally") names nothing.
_VERB_END = re.compile(r"(?:[^e]ed|izes?|ifies|ify|ally|[ai]bly|ously|ively|ently)$")
_ADJECTIVE_WEIGHT = 0.4


def is_modifier_word(word: str) -> bool:
    """An adjective, a verb, or a hyphenated word that is no noun of a doing ("multi-scale",
    "black-box", "vision-language"; not "fine-tuning" or "DP-SGD"): it names nothing."""
    low = word.lower()
    return (
        bool(_ADJECTIVE_END.search(low))
        or low in _ADJECTIVES
        or (len(low) > 4 and bool(_VERB_END.search(low)))
        or ("-" in low and not is_field_word(word))
    )


# "few-shot learning methods", "bandit problem": a name and a word any name can take. Where the
# name ends its noun phrases on its own (this share of its uses, those before such a word
# aside), it says as much alone; "diffusion models" stays, "diffusion" is a modifier.
_SUFFIX_KEYS = frozenset("method approach framework algorithm problem".split())
_SUFFIX_STEM_END = 0.5
_SUFFIX_WEIGHT = 0.5
# Function characters that may not start or end a CJK name.
_CJK_STOP = frozenset("的了和与及或是在对中为以将把被等其这那我们你他她它之而并且也就都所从到由于因")

_RE_MATH = re.compile(
    r"\$\$.*?\$\$|\$[^$]*\$|\\\(.*?\\\)|\\\[.*?\\\]"
    r"|\\begin\{(\w+\*?)\}.*?\\end\{\1\}",
    re.S,
)
_RE_DROP_CMD = re.compile(r"\\(?:cite\w*|ref|eqref|label|url|footnote)\*?(?:\[[^\]]*\])?\{[^}]*\}")
_RE_CMD = re.compile(r"\\[A-Za-z]+\*?|\\.")
_RE_URL = re.compile(r"https?://\S+|www\.\S+")
_CJK = CJK_LETTERS
_RE_WORD = re.compile(rf"[^\W\d_{_CJK}][\w\-]*[^\W_]|[^\W\d_{_CJK}]|[{_CJK}]+")
_RE_CJK = re.compile(rf"[{_CJK}]")
# Words, or one separator: a punctuation mark or a number (a phrase never crosses either).
_RE_TOKEN = re.compile(rf"{_RE_WORD.pattern}|\d[\w.]*|[^\w\s]|_+")
_RE_INITIAL = re.compile(rf"(?:^|[.!?:。]\s+)({_RE_WORD.pattern})")
# Two or more capitalised words in a row: a name defined in Title Case ("Neural Tangent Kernel").
# (No leading \b: it costs twice the time, and a run starting inside a word only adds a piece.)
_RE_TITLED = re.compile(r"[A-Z][a-z]+(?:[ -][A-Z][a-z]+)+\b")
_RE_ACRONYM = re.compile(r"\(\s*([A-Za-z][\w\-]{0,11})\s*[);,]")
_RE_CLAUSE_END = re.compile(r"[()\[\].;:!?,]")
_RE_PLAIN_WORD = re.compile(r"[^\W\d_][\w\-]*")


def strip_markup(text: str) -> str:
    """Text without inline math, LaTeX commands and URLs (their words are not the topic's)."""
    text = _RE_URL.sub(" ", text or "")
    if "$" in text or "\\" in text:
        text = _RE_MATH.sub(" . ", text)
        text = _RE_DROP_CMD.sub(" ", text)
        text = _RE_CMD.sub(" ", text).replace("{", "").replace("}", "")
    return text


_END_OK_KEYS = frozenset(singular(w) for w in _END_OK)


def _is_acronym(word: str) -> bool:
    return sum(c.isupper() for c in word) >= 2 and len(word) <= 12


def _acronym_key(word: str) -> str:
    """ "LLMs" -> "LLM", "GNN" -> "GNN"."""
    return word[:-1] if len(word) > 2 and word.endswith("s") and word[-2].isupper() else word


def _long_form(short: str, words: list[str]) -> list[str] | None:
    """Schwartz & Hearst (2003): the shortest tail of `words` whose letters spell `short`."""
    letters = [c.lower() for c in short if c.isalnum()]
    if len(letters) < 2 or not letters[0].isalpha():
        return None
    text = " ".join(words[-min(len(letters) + 5, 2 * len(letters)) :])
    s, i = len(letters) - 1, len(text) - 1
    while s >= 0:
        c = letters[s]
        while i >= 0 and (text[i].lower() != c or (s == 0 and i > 0 and text[i - 1].isalnum())):
            i -= 1
        if i < 0:
            return None
        i -= 1
        s -= 1
    start = text.rfind(" ", 0, i + 1) + 1
    tail = text[start:].split()
    if not tail or tail[0].lower() in ENGLISH_STOP_WORDS or tail[-1].lower() in ENGLISH_STOP_WORDS:
        return None
    parts = sum(len([p for p in w.split("-") if p]) for w in tail)
    if len(tail) > len(letters) + 1 or parts < min(2, len(letters)) or 2 * parts < len(letters):
        return None  # "attacks (AA)" is not a definition
    if any(_RE_CJK.search(w) for w in tail):
        return None
    return tail if letters_fit(short, tail) else None


def letters_fit(short: str, words: list[str] | tuple[str, ...]) -> bool:
    """Do the acronym's capitals spell the long form's word starts, in order, each content word
    giving one? "SGD" fits "stochastic gradient descent", "SSGD" does not; "ViT" fits "vision
    transformer" and "CoT" "chain-of-thought" (lower-case letters may come from inside a word)."""
    capitals = [c.lower() for c in short if c.isupper()] or [short[0].lower()]
    parts = [(k, p.lower()) for k, w in enumerate(words) for p in w.split("-") if p]
    content = frozenset(k for k, w in enumerate(words) if w.lower() not in ENGLISH_STOP_WORDS)

    def fits(c: int, at: int, used: frozenset) -> bool:  # a few letters and words: a tiny search
        if c == len(capitals):
            return content <= used
        return any(
            parts[j][1][0] == capitals[c] and fits(c + 1, j + 1, used | {parts[j][0]})
            for j in range(at, len(parts))
        )

    return fits(0, 0, frozenset())


def collect_acronyms(texts: list[str]) -> dict[str, tuple[tuple[str, ...], str]]:
    """Acronym key -> (long form words, lower case; acronym key) from the corpus's definitions.

    The most frequent definition wins ("RL" -> reinforcement learning); an acronym defined once
    is enough, since the corpus is the authority on what its authors mean.
    """
    found: dict[str, Counter] = defaultdict(Counter)
    for text in texts:
        if "(" not in text:
            continue
        for m in _RE_ACRONYM.finditer(text):
            short = m.group(1)
            if not _is_acronym(short):
                continue
            before = _RE_CLAUSE_END.split(text[max(0, m.start() - 160) : m.start()])[-1]
            words = [w for w in before.split() if _RE_PLAIN_WORD.fullmatch(w)]
            key = _acronym_key(short)
            tail = _long_form(key, words)
            if tail is not None:
                found[key][tuple(w.lower() for w in tail)] += 1
    out = {}
    for key, forms in found.items():
        merged: Counter = Counter()
        for form, count in forms.items():
            merged[tuple(singular(w.replace("-", "")) for w in form)] += count
        ranked = merged.most_common(2)
        if len(ranked) > 1 and ranked[1][1] >= 0.25 * ranked[0][1]:
            continue  # "SSL": self- or semi-supervised; a bare acronym is truer than a guess
        best = max(
            (f for f in forms if tuple(singular(w.replace("-", "")) for w in f) == ranked[0][0]),
            key=lambda f: forms[f],
        )
        out[key] = (best, key, ranked[0][1])
    # one long form, two acronyms ("SGD" and "SSGD" for stochastic gradient descent): the
    # corpus's usual one names it, the other is not spelled out
    by_form: dict[tuple[str, ...], str] = {}
    for key, (best, _, _count) in sorted(out.items(), key=lambda kv: (-kv[1][2], kv[0])):
        by_form.setdefault(tuple(singular(w.replace("-", "")) for w in best), key)
    return {key: (best, key) for key, (best, _, _) in out.items() if key in by_form.values()}


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
    objects: np.ndarray | None = None  # group -> its uses followed by an object ("exploring the")
    key_index: dict[tuple[str, ...], int] = field(default_factory=dict)
    long_forms: dict[tuple[str, ...], str] = field(default_factory=dict)
    prior: np.ndarray | None = None
    modifier: np.ndarray | None = None
    head: np.ndarray | None = None  # _head, once
    title_weight: np.ndarray | None = None  # group -> weight from TITLE_USE (_title_weight)

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
        ids_of = _TokenIds(words, expand)  # surface token -> word ids (-1: punctuation or number)
        titles = titles if titles is not None else [""] * len(texts)
        for doc, (text, title) in enumerate(zip(stripped, titles)):
            start = len(ids)
            tokens = _RE_TOKEN.findall(text)
            casing.update(tokens)
            initial.update(_RE_INITIAL.findall(text))
            titled.update(w for run in _RE_TITLED.findall(text) for w in run.replace("-", " ").split())
            ids.extend(chain.from_iterable(map(ids_of.__getitem__, tokens)))
            ids.append(-1)
            if title:
                ids.extend(
                    chain.from_iterable(map(ids_of.__getitem__, _RE_TOKEN.findall(strip_markup(title))))
                )
                ids.append(-1)
            owner.extend([doc] * (len(ids) - start))
        casing.subtract(initial)  # a capital at a sentence start says nothing about the word
        # nor one in a Title-Cased run, where the corpus writes the word in lower case too:
        # "neural tangent kernel (NTK)", not "neural Tangent kernel"; "Monte Carlo" stays
        casing.subtract({w: n for w, n in titled.items() if casing[w.lower()] > 0})
        vocab = list(words)
        flags = np.array([_word_flags(w) for w in vocab] or [(False, False, False, False)], dtype=bool)
        start_ok, end_ok, stop, cjk = (np.append(flags[:, k], False) for k in range(4))  # [-1]: separator
        tokens = np.asarray(ids, dtype=np.int64)
        owner = np.asarray(owner, dtype=np.int64)
        size = len(vocab) + 1
        rows, cols, grams, uses, ended, objects = [], [], [], [], [], []
        before_object = np.append(np.array([w in _OBJECT_WORDS for w in vocab] or [False]), False)
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
            objects.append(np.bincount(inverse, weights=before_object[after], minlength=len(unique)))
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
        objects = np.concatenate(objects)[used] if objects else np.zeros(0)
        phrases = [_join([vocab[i] for i in grams[g]]) for g in used]
        # plural and singular forms are one group
        group_of: dict[tuple[str, ...], int] = {}
        groups = np.empty(len(phrases), dtype=np.int64)
        for pid, phrase in enumerate(phrases):
            key = (
                (phrase,)
                if _RE_CJK.match(phrase)
                else tuple(singular(w.replace("-", "")) for w in phrase.split(" "))
            )
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
        # shown in the plural where the corpus says it in a share of its uses (_PLURAL_SHOWN: a
        # topic is "diffusion models", not "diffusion model"), then as the form that most often
        # ends a noun phrase ("bandits", not "bandit" of "bandit problem"), then the most used
        group_uses = np.bincount(groups, weights=uses, minlength=len(group_of))
        plural = np.array([" " in p and not _RE_CJK.match(p) and _is_plural(p) for p in phrases], dtype=bool)
        shown_plural = plural & (uses >= _PLURAL_SHOWN * group_uses[groups])
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
        group_objects = np.bincount(groups, weights=objects, minlength=len(group_of))
        index = cls(
            incidence[:, keep].tocsr(),
            [keys[g] for g in keep],
            [_display(phrases[best[g]], word_case) for g in keep],
            acronyms,
            ends=(group_ended[keep] + 2.0) / (group_uses[keep] + 4.0),
            uses=group_uses[keep],
            objects=group_objects[keep],
        )
        index.key_index = {k: i for i, k in enumerate(index.keys)}
        return index

    def save(self, path) -> None:
        """Pickled with NAME_INDEX_VERSION (rule index_phrases; fit_topics loads it)."""
        import pickle

        self._prior()  # computed once here, not at every fit (2 s at 75k abstracts)
        self._long_forms()
        self._modifier()
        # not the title weights: 0.03 s at 75k, and always the installed table's (title_use)
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
        if _RE_CJK.match(phrase):
            key = (phrase,)
        else:
            key = tuple(singular(w.replace("-", "")) for w in _lower_words(phrase.split(), self._expand()))
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
        written = self._long_forms().get(key)
        if written:
            label = f"{text} ({written}{'s' if _is_plural(text) and not written.endswith('s') else ''})"
            if len(label.split()) <= MAX_NAME_WORDS:
                return label
        return text

    def _prior(self) -> np.ndarray:
        """Per phrase group, how much a researcher would use it as a name (multiplies the score)."""
        if self.prior is None:
            acronym = set(self._long_forms())
            prior = np.empty(len(self.keys))
            for g, (key, text) in enumerate(zip(self.keys, self.display)):
                prior[g] = _phrase_weight(key, text, key in acronym)
            prior[self._fragments()] = 0.0
            if self.objects is not None and self.uses is not None:
                # the listing's own uses, and arXiv's share as four more (a small listing says
                # "exploring" twice)
                shares = object_share()
                verbs = {
                    key[0]
                    for g, key in enumerate(self.keys)
                    if len(key) == 1
                    and self.objects[g] + 4.0 * shares.get(key[0], 0.0) >= _VERB_OBJECT * (self.uses[g] + 4.0)
                }
                # a phrase it starts, for an -ing form ("exploring the maze"): "limit theorems",
                # "measure theory", "design space" start with a noun a verb is spelt like
                starts = [g for g, key in enumerate(self.keys) if key[0] in verbs]
                prior[[g for g in starts if len(self.keys[g]) == 1 or self.keys[g][0].endswith("ing")]] = 0.0
            if self.ends is not None and self.uses is not None:
                suffixed: dict[int, list[int]] = defaultdict(list)  # stem -> its "... methods" phrases
                for g, key in enumerate(self.keys):
                    stem = self.key_index.get(key[:-1]) if len(key) > 1 and key[-1] in _SUFFIX_KEYS else None
                    if stem is not None and prior[stem] > 0:
                        suffixed[stem].append(g)
                for stem, phrases in suffixed.items():
                    # the stem's uses that end a noun phrase, its uses before "methods" etc. aside
                    ended = self.ends[stem] * (self.uses[stem] + 4.0) - 2.0
                    alone = self.uses[stem] - sum(self.uses[g] for g in phrases)
                    if (ended + 2.0) / (max(alone, 0.0) + 4.0) >= _SUFFIX_STEM_END:
                        prior[phrases] *= _SUFFIX_WEIGHT
            self.prior = prior
        return self.prior

    def _head(self) -> np.ndarray:
        """Per phrase group, 1 for the head of a noun phrase, less for a modifier (_HEAD_END)."""
        if self.head is None:
            ends = np.full(len(self.keys), _HEAD_END) if self.ends is None else self.ends
            self.head = np.minimum(1.0, ends / _HEAD_END)
        return self.head

    def _modifier(self) -> np.ndarray:
        """Per phrase group, _ADJECTIVE_WEIGHT where its last word modifies a noun ("Bayesian",
        "robust", "multi-scale", "unlabeled"), 1 otherwise: a hyphenated word the corpus abbreviates
        is a name ("chain-of-thought (CoT)"), an abbreviated adjective is not ("differentially
        private (DP)")."""
        if self.modifier is None:
            acronym = set(self._long_forms())
            self.modifier = np.array(
                [
                    _ADJECTIVE_WEIGHT
                    if not _RE_CJK.match(text)
                    and is_modifier_word(text.split()[-1])
                    and (key not in acronym or "-" not in text.split()[-1])
                    else 1.0
                    for key, text in zip(self.keys, self.display)
                ]
            )
        return self.modifier

    def _title_weight(self) -> np.ndarray:
        """Per phrase group, how much more (or less) often titles use it than abstracts, as a
        weight (_TITLE_NEUTRAL and after); 1 for a phrase TITLE_USE does not hold."""
        if self.title_weight is None:
            if not self.key_index:
                self.key_index = {k: i for i, k in enumerate(self.keys)}
            weight = np.ones(len(self.keys))
            for key, ratio in title_use().items():
                g = self.key_index.get(key)
                if g is not None:
                    weight[g] = min(_TITLE_MAX, max(_TITLE_MIN, (ratio / _TITLE_NEUTRAL) ** _TITLE_POWER))
            self.title_weight = weight
        return self.title_weight

    def nameable(self, limit: int = PHRASE_VECTORS_MAX) -> list[str]:
        """The phrases that may become names (weight above 0), most used first, at most `limit`:
        what rule embed_phrases embeds."""
        df = np.asarray(self.incidence.sum(axis=0)).ravel()
        order = np.lexsort((np.arange(len(df)), -df))
        prior = self._prior()
        return [self.display[g] for g in order if prior[g] > 0][:limit]

    def _fragments(self) -> np.ndarray:
        """Groups whose documents nearly all use one phrase extending them by a word at either end
        (_FRAGMENT): "large language" or "language models" where nearly every use is in "large
        language models", "Splatting" of "Gaussian Splatting", "answering" of "question answering"."""
        if not self.key_index:
            self.key_index = {k: i for i, k in enumerate(self.keys)}
        df = np.asarray(self.incidence.sum(axis=0)).ravel()
        longest = np.zeros(len(self.keys))
        for g, key in enumerate(self.keys):
            if len(key) > 1:
                # "few-shot learning" is no piece of "few-shot learning methods" (_SUFFIX_KEYS)
                for piece in (key[:-1], key[1:]) if key[-1] not in _SUFFIX_KEYS else (key[1:],):
                    inside = self.key_index.get(piece)
                    if inside is not None:
                        longest[inside] = max(longest[inside], df[g])
        return np.flatnonzero(longest >= _FRAGMENT * np.maximum(df, 1))

    def _long_forms(self) -> dict[tuple[str, ...], str]:
        if not self.long_forms:
            self.long_forms = {
                tuple(singular(w.replace("-", "")) for w in form): written
                for form, written in self.acronyms.values()
            }
        return self.long_forms

    def ranked(
        self,
        counts_row: sparse.csr_matrix,
        size: int,
        total: np.ndarray,
        n_docs: int,
        limit: int = N_CANDIDATES,
        keywords: list[str] | None = None,
    ) -> list[tuple[int, float]]:
        """(group, score) best first: share in the group times log lift over the corpus.

        With the topic's c-TF-IDF `keywords`, a phrase sharing none of their words scores less:
        in a small topic a phrase two abstracts share by chance ("constant") is not its subject.
        """
        cols, a = counts_row.indices, counts_row.data.astype(np.float64)
        if not len(cols):
            return []
        floor = 2 if size >= 4 else 1
        ok = a >= floor
        cols, a = cols[ok], a[ok]
        share = a / max(size, 1)
        rest = (total[cols] - a + 1.0) / (n_docs - size + 1.0)
        lift = np.log(np.maximum(share / rest, 1.0))
        score = share * lift * self._prior()[cols]
        score = score * self._title_weight()[cols] ** (_TITLE_EVIDENCE / (_TITLE_EVIDENCE + size))
        if keywords:
            vocab = {singular(w.replace("-", "")) for k in keywords for w in k.lower().split()}
            long_forms = self._long_forms()
            related = np.array(
                [
                    bool(vocab.intersection(self.keys[c]))
                    or (long_forms.get(self.keys[c], "").lower() in vocab)
                    for c in cols
                ]
            )
            score = score * np.where(related, 1.0, 0.6)
        # a modifier weighs less, but a longer phrase taking its place ("diffusion models" for
        # "diffusion", "convex optimization" for "convex") takes its full score
        whole = score
        as_name = self._head() * self._modifier()  # a modifier passes its score on, never takes one
        score = score * as_name[cols]
        order = np.argsort(-score, kind="stable")[: 20 * limit]
        count_of = dict(zip(cols[order].tolist(), a[order].tolist()))
        out: dict[int, tuple[float, float]] = {}  # group -> (score, score as a head)
        for k in order:
            if score[k] <= 0:
                break
            c = int(cols[k])
            # a phrase inside a chosen longer one that is nearly as frequent adds nothing; a
            # modifier's weight goes to that phrase, which says what it means
            holder = next((o for o in out if self._absorbs(c, o, a[k], count_of[o])), None)
            if holder is not None:
                if whole[k] > score[k]:
                    out[holder] = (
                        max(out[holder][0], float(whole[k] * as_name[holder])),
                        max(out[holder][1], float(whole[k])),
                    )
                continue
            # a longer phrase nearly as frequent takes the place of one inside it, and its rank
            absorbed = [
                o
                for o, (_, w) in out.items()
                # (a longer phrase replaces a multi-word one only at 1.2x, as before)
                if self._absorbs(o, c, count_of[o] * (1.25 if len(self.keys[o]) > 1 else 1.0), a[k])
                and w <= (1.6 if self._absorb(o) == 1.5 else 3.0) * whole[k]
            ]
            inherited = max([out.pop(o)[1] for o in absorbed], default=0.0)
            out[c] = (max(float(score[k]), float(inherited * as_name[c])), max(float(whole[k]), inherited))
            if len(out) >= limit:
                break
        return sorted(((c, v) for c, (v, _) in out.items()), key=lambda cs: -cs[1])

    def _absorb(self, group: int) -> float:
        """How many times more documents a phrase may have than a longer one holding it and
        still give way to it: a thing-word ("graph") gives way sooner than a field phrase, and so
        does a word the corpus mostly puts before another ("diffusion", _head)."""
        key, text = self.keys[group], self.display[group]
        if (
            len(key) == 1
            and key not in self._long_forms()
            and (not is_field_word(text) or self._head()[group] < 1)
        ):
            return 1 / _ABSORB_THING
        return 1.5

    def _absorbs(self, short: int, long: int, short_count: float, long_count: float) -> bool:
        """Does `long` ("graph neural networks") take the place of `short` ("graph") inside it?
        Not a "... problem/method" phrase for a thing-word: "bandit problem" says less than
        "bandit"; but "diffusion models" says more than "diffusion", which modifies."""
        if not _inside(self.keys[short], self.keys[long]):
            return False
        ratio = self._absorb(short)
        if ratio > 1.5 and self.keys[long][-1] in _END_OK_KEYS and self._head()[short] == 1:
            ratio = 1.5
        return short_count <= ratio * long_count


@functools.cache
def _title_use_rows() -> list[tuple[tuple[str, ...], int, int, int, int]]:
    """TITLE_USE's rows: folded phrase, arXiv titles and abstracts using it, the abstracts' uses
    of it, and those an object follows."""
    text = (resources.files(__package__) / TITLE_USE).read_bytes()
    rows = []
    for line in gzip.decompress(text).decode("utf-8").splitlines()[1:]:
        phrase, *counts = line.split("\t")
        rows.append((tuple(phrase.split(" ")), *map(int, counts)))
    return rows


@functools.cache
def title_use() -> dict[tuple[str, ...], float]:
    """TITLE_USE: folded phrase -> (arXiv titles using it + 1) / (abstracts using it + 5)."""
    return {key: (titles + 1) / (abstracts + 5) for key, titles, abstracts, _, _ in _title_use_rows()}


@functools.cache
def object_share() -> dict[str, float]:
    """TITLE_USE: one folded word -> the share of the arXiv abstracts' uses of it that an object
    follows ("exploring the"), where one does."""
    rows = _title_use_rows()
    return {key[0]: objects / uses for key, _, _, uses, objects in rows if len(key) == 1 and objects}


def _phrase_weight(key: tuple[str, ...], text: str, abbreviated: bool) -> float:
    """How much a researcher would use a phrase as a name, from its words alone (NameIndex._prior
    adds what the corpus says: pieces of longer phrases, "... methods")."""
    if _RE_CJK.match(text):
        return _CJK_WEIGHT.get(len(text), 0.8)
    generic = all(w in _GENERIC for w in key)  # "machine learning", "training data"
    if abbreviated:
        return _ALL_GENERIC if generic else 1.0
    # researchers name fields with phrases ("semi-supervised learning", not "labels")
    weight = _LENGTH_WEIGHT[min(len(text.replace("-", " ").split()), 4)]
    if len(key) == 1 and key[0] in _GENERIC:
        return 0.0  # "learning", "large": says nothing on its own
    if generic:
        return weight * _ALL_GENERIC  # any topic's
    if len(key) == 1 and not is_field_word(text):
        return weight * _THING_WEIGHT  # "image", "bandit": a thing the field studies
    return weight


def _is_plural(text: str) -> bool:
    """Does a phrase end in a plural noun? "aspect-based sentiment analysis" does not, nor does
    "Mixture-of-Experts", whose head is "Mixture"."""
    head = re.split(r"-of-", text.split()[-1], flags=re.IGNORECASE)[0].lower()
    return singular(head) != head


def _akin(one: tuple[str, ...], other: tuple[str, ...]) -> bool:
    """Do two phrases share a word, or a word's stem ("labels" / "unlabeled", "visualization" /
    "visualizing", "images" / "imaging")? Then the second says the first again."""
    for a in one:
        for b in other:
            short, long = sorted((a, b), key=len)
            if (
                a == b
                or (len(short) >= 4 and short in long)
                or (len(short) >= 6 and long[:6] == short[:6])
                or (len(short) >= 5 and long.startswith(short[:-1]))
            ):
                return True
    return False


def _inside(short: tuple[str, ...], long: tuple[str, ...]) -> bool:
    if len(short) >= len(long):
        return False
    n = len(short)
    return any(long[i : i + n] == short for i in range(len(long) - n + 1))


def _lower_words(words: list[str], expand: dict[str, tuple[str, ...]]) -> list[str]:
    """Lower-case words of a segment, acronyms defined in the corpus spelled out, CJK split."""
    lower: list[str] = []
    for w in words:
        if w[0] >= "\u3040" and _RE_CJK.match(w):
            lower.extend(w)  # CJK has no spaces: characters are its words, a run is split
            continue
        if w[0].isupper() and len(w) > 1:
            key = _acronym_key(w)
            if key in expand and _is_acronym(w):
                form = expand[key]
                last = form[-1]
                if "-" not in last and "of" not in form:
                    # "LLM unlearning": large language model ...; "LLMs": large language models
                    form = (*form[:-1], singular(last) if w == key else plural(singular(last)))
                lower.extend(form)
                continue
        lower.append(w.lower())
    return lower


class _TokenIds(dict):
    """Memo: surface token -> word ids of its lower-case words; [-1] for anything not a word."""

    def __init__(self, words: dict[str, int], expand: dict[str, tuple[str, ...]]):
        super().__init__()
        self.words, self.expand = words, expand

    def __missing__(self, token: str) -> list[int]:
        if not _RE_WORD.fullmatch(token):
            ids = [-1]
        else:
            ids = [self.words.setdefault(w, len(self.words)) for w in _lower_words([token], self.expand)]
        self[token] = ids
        return ids


def _word_flags(w: str) -> tuple[bool, bool, bool, bool]:
    """(may start a phrase, may end one, is a stop word, is CJK) for one lower-case word."""
    if w[0] >= "\u3040" and _RE_CJK.match(w):
        return (w not in _CJK_STOP, w not in _CJK_STOP, False, True)
    start = w not in _EDGE_STOP and len(w) > 1 and w[0] != "-" and w[-1] != "-"
    return (start, start or w in _END_OK, w in ENGLISH_STOP_WORDS, False)


def _join(words: list[str]) -> str:
    return "".join(words) if _RE_CJK.match(words[0]) else " ".join(words)


def _display(phrase: str, word_case: dict[str, str]) -> str:
    if _RE_CJK.search(phrase):
        return phrase
    out = []
    for w in phrase.split(" "):
        cased = word_case.get(w)
        out.append(cased if cased else w)
    return " ".join(out)


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
    ):
        self.index = index
        self.exclude = frozenset(exclude)
        self.vectors, self.phrase_vectors = vectors, phrase_vectors

    def excluding(self, words: frozenset[str]) -> PhraseNames:
        """vectorizer.extra_stop_words: the keywords leave them out, and so must the names, which
        come from this index, not from the vectorizer."""
        if not words:
            return self
        return PhraseNames(self.index, self.exclude | frozenset(words), self.vectors, self.phrase_vectors)

    def with_vectors(self, vectors: np.ndarray, phrase_vectors: Mapping[str, np.ndarray]) -> PhraseNames:
        """Candidates weighed by meaning too (SIMILARITY_WEIGHT): `phrase_vectors` maps a phrase
        as the index displays it to its unit embedding (rule embed_phrases), in the space of the
        documents' `vectors`."""
        return PhraseNames(self.index, self.exclude, vectors, phrase_vectors)

    def _by_meaning(
        self,
        ranked: dict[int, list[tuple[int, float]]],
        groups: dict[int, np.ndarray],
        used: dict[int, dict[int, float]],
    ) -> dict[int, list[tuple[int, float]]]:
        """Each group's candidates rescored by meaning, best first, N_CANDIDATES kept (`used`:
        group -> phrase -> its documents using it). Candidates covering under _SIMILARITY_COVER
        of the counts' first keep their order behind the best one that covers enough; a phrase
        too rare to have been embedded weighs as the group's least similar candidate."""
        out = {}
        for g, pairs in ranked.items():
            found = [self.phrase_vectors.get(self.index.display[c]) for c, _ in pairs]
            known = [v for v in found if v is not None]
            if not known:
                out[g] = pairs[:N_CANDIDATES]
                continue
            centre = normalise(self.vectors[np.asarray(groups[g], dtype=int)].mean(axis=0, keepdims=True))[0]
            cosine = np.array([float(v @ centre) if v is not None else np.nan for v in found])
            cosine = np.where(np.isnan(cosine), np.nanmin(cosine), cosine)
            weight = np.maximum(cosine, 0.0) ** SIMILARITY_WEIGHT
            floor = _SIMILARITY_COVER * used[g].get(pairs[0][0], 0.0)
            scored = [(c, float(s * w), used[g].get(c, 0.0) >= floor) for (c, s), w in zip(pairs, weight)]
            top = max(v for _, v, ok in scored if ok)  # the counts' first always covers enough
            rescored = [(c, v if ok else min(v, top * 0.999)) for c, v, ok in scored]
            out[g] = sorted(rescored, key=lambda cv: -cv[1])[:N_CANDIDATES]
        return out

    def _allowed(self, col: int) -> bool:
        return not self.exclude or self.exclude.isdisjoint(
            re.findall(r"\w[\w'-]*", self.index.name(col).casefold())
        )

    @classmethod
    def for_corpus(cls, corpus: pd.DataFrame, prepared: NameIndex | None = None) -> PhraseNames:
        if prepared is None:
            prepared = NameIndex.build(corpus["text_raw"].tolist(), corpus["title"].fillna("").tolist())
        return cls(prepared)

    def coverage(self, names: dict[int, str], groups: dict[int, np.ndarray]) -> dict[int, float]:
        return self.index.coverage(names, groups)

    def name_groups(
        self,
        groups: dict[int, np.ndarray],
        *,
        taken: set[str] | None = None,
        fallback: dict[int, str] | None = None,
        keywords: dict[int, list[str]] | None = None,
        second: bool = False,
    ) -> TopicNames:
        """Distinct names for groups of documents (topics, or unions of topics).

        Pairs (group, candidate) are taken best score first, each group and each name once, so a
        phrase goes to the group it describes best and the other groups take their next one.
        With `second`, a group named by one word may take a second phrase (_second).
        """
        ids = sorted(groups)
        counts = self.index.counts([np.asarray(groups[g], dtype=int) for g in ids])
        total = np.asarray(self.index.incidence.sum(axis=0)).ravel()
        n_docs = self.index.incidence.shape[0]
        semantic = self.vectors is not None and bool(self.phrase_vectors) and SIMILARITY_WEIGHT > 0
        limit = N_CANDIDATES * (_SIMILARITY_POOL if semantic else 1)
        ranked = {
            g: self.index.ranked(
                counts[k], len(groups[g]), total, n_docs, limit=limit, keywords=(keywords or {}).get(g)
            )
            for k, g in enumerate(ids)
        }
        if semantic:
            used = {
                g: dict(zip(counts[k].indices.tolist(), counts[k].data.tolist())) for k, g in enumerate(ids)
            }
            ranked = self._by_meaning(ranked, groups, used)
        if self.exclude:
            ranked = {g: [(c, v) for c, v in ranked[g] if self._allowed(c)] for g in ids}
        ranked = {g: self._field_first(ranked[g], len(groups[g])) for g in ids}
        candidates = {g: [self.index.name(c) for c, _ in ranked[g]] for g in ids}
        pairs = sorted(
            (
                (score / (rank + 1) ** 0.25, g, self.index.name(c), c)
                for g in ids
                for rank, (c, score) in enumerate(ranked[g])
            ),
            key=lambda p: (-p[0], p[1]),
        )
        used = {normal(t) for t in (taken or set())}
        names: dict[int, str] = {}
        chosen: dict[int, int] = {}
        for _, g, name, c in pairs:
            if len(names) == len(ids):
                break
            if g in names or normal(name) in used:
                continue
            names[g], chosen[g] = name, c
            used.add(normal(name))
        for g in chosen if second else ():
            col = self._second(groups[g], chosen[g], ranked[g], used)
            if col is not None:
                names[g] = f"{names[g]} & {self.index.name(col)}"
                used.add(normal(self.index.name(col)))
                candidates[g] = [names[g], *candidates[g]]
        exact = {name.lower() for name in names.values()} | {t.lower() for t in (taken or set())}
        for g in ids:
            if g not in names:
                base = (fallback or {}).get(g) or (candidates[g][0] if candidates[g] else "unnamed topic")
                name = base
                if normal(base) in used or base.lower() in exact:
                    # "(2)" is what _normal strips, so the numbered forms are told apart as written
                    k = 2
                    while f"{base} ({k})".lower() in exact:
                        k += 1
                    name = f"{base} ({k})"
                names[g] = name
                used.add(normal(name))
                exact.add(name.lower())
        return TopicNames(names, candidates)

    def _field_first(self, ranked: list[tuple[int, float]], size: int) -> list[tuple[int, float]]:
        """A small topic's candidates, a one-word thing at the top moved behind the first field
        name scoring at least _YIELD_SCORE of it (_YIELD_SCORE says which)."""
        if not ranked or size >= _TITLE_EVIDENCE:
            return ranked
        index = self.index
        top, score = ranked[0]
        acronyms = index._long_forms()
        if len(index.keys[top]) > 1 or index.keys[top] in acronyms or is_field_word(index.display[top]):
            return ranked
        weight, known = index._title_weight(), title_use()
        for at, (col, value) in enumerate(ranked[1:], 1):
            if value < _YIELD_SCORE * score:
                break
            key = index.keys[col]
            field = len(key) > 1 or key in acronyms or is_field_word(index.display[col])
            if field and key in known and weight[col] >= 1.0 and weight[col] > weight[top]:
                return [(col, score), *ranked[:at], *ranked[at + 1 :]]
        return ranked

    def _second(
        self, docs: np.ndarray, first: int, ranked: list[tuple[int, float]], used: set[str]
    ) -> int | None:
        """The phrase that joins a name of one word, or one covering under _SECOND_COVER of the
        topic, with "&" (_SECOND_SCORE and after), or None."""
        key = self.index.keys[first]
        score = dict(ranked).get(first)
        if not score or _RE_CJK.match(self.index.display[first]):
            return None
        prior, modifier = self.index._prior(), self.index._modifier()
        eligible = []
        for col, value in ranked:
            if value < _SECOND_SCORE * score:
                break
            name = self.index.name(col)
            if not (
                col == first
                or prior[col] < _LENGTH_WEIGHT[1]  # no generic phrase ("learning models"), no piece
                or modifier[col] < 1.0
                or _akin(key, self.index.keys[col])
                or normal(name) in used
                or len(f"{self.index.name(first)} & {name}".split()) > MAX_NAME_WORDS
                or not self._allowed(col)
            ):
                eligible.append(col)
        if not eligible:
            return None
        # the topic's rows, then the few columns: cheap at 75k abstracts
        used_by = self.index.incidence[np.asarray(docs, dtype=int)][:, [first, *eligible]].toarray() > 0
        if len(key) > 1 and used_by[:, 0].mean() >= _SECOND_COVER:
            return None
        for k, col in enumerate(eligible, start=1):
            has = used_by[:, k]
            new = int((has & ~used_by[:, 0]).sum())
            enough = has.sum() >= _SECOND_DOCS and new >= _SECOND_GAIN * len(docs)
            if enough and new >= _SECOND_NEW * has.sum():
                return col
        return None

    def name_regions(
        self,
        assigned: np.ndarray,
        region_of: dict[int, int],
        topic_names: dict[int, str],
        topic_candidates: dict[int, list[str]] | None = None,
    ) -> RegionNames:
        """Region node -> name: phrases its topics share (each topic counts alike, so the largest
        does not decide), used far more in the region than elsewhere (lift counts twice), and no
        topic's name; a second phrase joins with "&" when it covers topics the first does not
        ("policy & regret"). A one-topic region is that topic and keeps its name.

        The field's name goes to the region: a region may take the name of one of its topics
        when that topic has a narrower candidate holding it (_NARROWER), which becomes the
        topic's name ("language models" for the region, "large language models" for the topic).
        A region of two topics shows both names unless its phrases cover _PAIR_COVER of it; the
        head of a topic's name ("language models" of "large language models") may name the
        region that holds the topic (_heads). A topic's name that another of the region's topics
        uses may name a region of _SHARED_TOPICS or more, with a second phrase."""
        assigned = np.asarray(assigned)
        ids = sorted(region_of)
        counts = self.index.counts([np.flatnonzero(assigned == t) for t in ids]).tocsr()
        sizes = np.array([(assigned == t).sum() for t in ids], dtype=np.float64)
        share = (sparse.diags(1.0 / np.maximum(sizes, 1.0)) @ counts).tocsr()
        total = np.asarray(self.index.incidence.sum(axis=0)).ravel()
        n_docs = self.index.incidence.shape[0]
        prior = self.index._prior() * (self.index._modifier() == 1.0)  # a region is named by nouns
        taken = {normal(part) for n in topic_names.values() for part in name_phrases(n)}
        narrower = self._narrower(ids, share, topic_names, topic_candidates or {}, taken)
        nodes = sorted(set(region_of.values()))
        names: dict[int, str] = {}
        ranked: dict[int, list[tuple[float, int, np.ndarray]]] = {}
        shared_name: dict[int, set[int]] = {}
        value_of: dict[tuple[int, int], float] = {}
        users_of: dict[tuple[int, int], np.ndarray] = {}
        pairs = []
        for node in nodes:
            rows = [k for k, t in enumerate(ids) if region_of[t] == node]
            if len(rows) == 1:
                names[node] = topic_names.get(ids[rows[0]], "")
                continue
            a = np.asarray(counts[rows].sum(axis=0)).ravel()
            size = sizes[rows].sum()
            users = share[rows] >= _REGION_USE
            used_by = np.asarray(users.sum(axis=0)).ravel()
            weight = prior.copy()
            for head in self._heads([topic_names.get(ids[k], "") for k in rows]):
                if weight[head] == 0:  # a piece elsewhere ("language models" of "large ..."): a phrase here
                    key, text = self.index.keys[head], self.index.display[head]
                    weight[head] = _phrase_weight(key, text, key in self.index._long_forms())
            cols = np.flatnonzero((a >= 2) & (used_by >= 1) & (weight > 0))
            spread = np.asarray(share[rows][:, cols].mean(axis=0)).ravel()
            rest = (total[cols] - a[cols] + 1.0) / (n_docs - size + 1.0)
            lift = np.log(np.maximum((a[cols] / size) / rest, 1.0))
            score = spread * lift**1.5 * weight[cols] * np.sqrt(used_by[cols] / len(rows))
            order = [
                k
                for k in np.argsort(-score)[: 4 * N_CANDIDATES]
                if score[k] > 0 and self._allowed(int(cols[k]))
            ]
            users = users.tocsc()
            if len(rows) >= _SHARED_TOPICS:
                # a topic's name that several of the region's topics use says what they share
                own = {
                    self.index.group_of(part)
                    for k in rows
                    for part in name_phrases(topic_names.get(ids[k], ""))
                }
                shared_name[node] = {c for c in own if c is not None and used_by[c] >= 2}
            ranked[node] = [
                (float(score[k]), int(cols[k]), users[:, [int(cols[k])]].toarray().ravel()) for k in order
            ]
            shared = [r for r in ranked[node] if r[2].sum() >= 2]  # the first phrase: two topics' at least
            for rank, (value, col, covers) in enumerate(shared):
                pairs.append((value / (rank + 1) ** 0.25, node, col))
                value_of[node, col], users_of[node, col] = value, covers
        used = set(taken)
        region_used: set[str] = set()
        by_topic_name: set[int] = set()  # regions named by a topic's name
        first: dict[int, tuple[float, int, np.ndarray]] = {}
        renamed: dict[int, str] = {}
        for _, node, col in sorted(pairs, key=lambda p: (-p[0], p[1], p[2])):
            name = self.index.name(col)
            if node in names:
                continue
            if normal(name) in used:
                topic, narrow = narrower.get(normal(name), (None, ""))
                if topic is not None and region_of[topic] == node and normal(narrow) not in used:
                    renamed[topic] = narrow
                    used.add(normal(narrow))
                    del narrower[normal(name)]
                elif (  # a topic's name its topics share, which a second phrase makes the region's own
                    col in shared_name.get(node, ())
                    and normal(name) not in region_used
                    and self._region_second(
                        ranked[node], value_of[node, col], col, users_of[node, col], used, shared=True
                    )
                    is not None
                ):
                    by_topic_name.add(node)
                else:
                    continue
            region_used.add(normal(name))
            names[node] = name
            used.add(normal(name))
            first[node] = next(r for r in ranked[node] if r[1] == col)
        phrases = {node: [col] for node, (_, col, _) in first.items()}  # node -> the name's phrases
        for node, (value, col, covered) in first.items():
            col2 = self._region_second(ranked[node], value, col, covered, used, shared=node in by_topic_name)
            if col2 is not None:
                names[node] = self._pair_name(col, col2)
                used.add(normal(self.index.name(col2)))
                phrases[node].append(col2)
        for node, cols in phrases.items():
            if node in by_topic_name and len(cols) == 1:
                del names[node]  # its second phrase went to another region: its topics' names, below
                continue
            # two topics are best said by their names unless a phrase says what most of their
            # papers share: NeurIPS 2023's "policy" (47%) was reinforcement learning and bandits
            members = [t for t in ids if region_of[t] == node]
            if len(members) != 2 or any(t in renamed for t in members):
                continue
            docs = np.flatnonzero(np.isin(assigned, members))
            if self.index.incidence[docs][:, cols].max(axis=1).toarray().mean() < _PAIR_COVER:
                del names[node]
        for node in nodes:  # no shared phrase: its two largest topics' names
            if node not in names:
                members = sorted(
                    (t for t in ids if region_of[t] == node), key=lambda t: -(assigned == t).sum()
                )
                names[node] = " & ".join(  # each topic's first phrase: "speech", not "speech & audio"
                    name_phrases(renamed.get(t, topic_names.get(t, "")))[0] for t in members[:2]
                )
        return RegionNames(names, renamed)

    def _region_second(
        self,
        ranked: list[tuple[float, int, np.ndarray]],
        value: float,
        col: int,
        covered: np.ndarray,
        used: set[str],
        shared: bool = False,
    ) -> int | None:
        """The phrase joining a region's first with "&": it scores _REGION_SECOND of the first at
        least, shares no word with it, names nothing yet and is used by a topic the first is not.
        After a topic's name (`shared`), _SHARED_SECOND; and where every topic of the region uses
        that name, any phrase: "reasoning & capabilities", as "reasoning" is a topic's."""
        words = set(self.index.keys[col])
        floor = _SHARED_SECOND if shared else _REGION_SECOND
        every = shared and covered.all()  # all its topics use the first: the second tells it apart
        for other, col2, covers in ranked:
            if other < floor * value:
                break
            if not (
                words & set(self.index.keys[col2])
                or normal(self.index.name(col2)) in used
                or not (every or (covers & ~covered).any())
                or not self._pair_name(col, col2)
            ):
                return col2
        return None

    def _pair_name(self, col: int, col2: int) -> str:
        """ "A & B" for a region; without the acronyms when they make it longer than
        MAX_NAME_WORDS (the map shows a name in two short lines); "" when even that is."""
        for one, two in (
            (self.index.name(col), self.index.name(col2)),
            (self.index.display[col], self.index.display[col2]),
        ):
            if len(f"{one} & {two}".split()) <= MAX_NAME_WORDS:
                return f"{one} & {two}"
        return ""

    def _heads(self, names: list[str]) -> list[int]:
        """Phrase groups that end a topic's name and are two words or more ("language models" of
        "large language models (LLMs)"): a region holding that topic may be named by them even
        where they are nearly always that longer phrase (a piece, _fragments), since they are
        its head and the broader field."""
        out = []
        for name in names:
            col = self.index.group_of(name)
            if col is None or name.startswith("Mixed: "):
                continue
            key = self.index.keys[col]
            for i in range(1, len(key) - 1):
                head = self.index.key_index.get(key[i:])
                if head is not None and self.index._modifier()[head] == 1.0:
                    out.append(head)
        return out

    def _narrower(
        self,
        ids: list[int],
        share: sparse.csr_matrix,
        topic_names: dict[int, str],
        candidates: dict[int, list[str]],
        taken: set[str],
    ) -> dict[str, tuple[int, str]]:
        """Topic name (normal form) -> (topic, its first candidate that holds the name and covers
        at least _NARROWER as much of the topic), for the topics that have one."""
        out = {}
        for k, t in enumerate(ids):
            name = topic_names.get(t, "")
            col = self.index.group_of(name)
            if col is None or name.startswith("Mixed: "):
                continue
            for other in candidates.get(t, []):
                g = self.index.group_of(other)
                if (
                    g is not None
                    and normal(other) not in taken
                    and _inside(self.index.keys[col], self.index.keys[g])
                    and share[k, g] >= _NARROWER * share[k, col]
                ):
                    out[normal(name)] = (t, other)
                    break
        return out
