"""Names from the authors' own keywords, where the listing has them (representation.name_source).

Web of Science (DE), PubMed (OT), Scopus and IEEE (`Author Keywords`), BibTeX (`keywords`) and
OpenReview exports carry each paper's keywords; the readers put them in the corpus's `keywords`
column ("a; b; c"). Variants are one keyword: case, plural, hyphen and spacing ("meta-learning",
"Meta learning"), an acronym and its long form ("FHIR", "Fast Healthcare Interoperability
Resources (FHIR)", or the abstracts' own definition). A group of papers is named by the keyword
that characterises it against the rest of the listing: the commonest among its keyworded papers of
those its papers give more often than the rest of the listing does (ties: the more distinctive;
`keyword_lift` weighs the lift in, 0 as bench/names_fields.py chose), with a second one ("A & B")
where the first covers few of its papers, and only where `keyword_floor` of them give it. A
keyword a `field_share` of the listing gives is the field: it names only a group holding most of
its papers. The next source (abstracts) names every other group.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from dataclasses import dataclass

import numpy as np
from scipy import sparse

from papertopics.ingest.text import clean_text
from papertopics.topics.names.index import MAX_NAME_WORDS, NameIndex
from papertopics.topics.names.registry import (
    Listing,
    NamingMethod,
    TopicNames,
    name_phrases,
    normal,
    register_naming,
)
from papertopics.topics.names.score import Weights
from papertopics.topics.names.select import distinct
from papertopics.topics.names.text import acronym_key, akin, fold_text, is_acronym

KEYWORDS = "keywords"  # topics.csv name_source of a name this source gave
SEPARATORS = (";", "|", ",")  # how listings separate a paper's keywords, the likelier first
KEYWORD_WORDS = 6  # a longer "keyword" is a sentence, not a name
_RE_ACRONYM_AFTER = re.compile(r"(.*?)\s*\(([^()]*)\)$")
_RE_MARKS = re.compile(r"[\u00ae\u2122\u00a9]")  # (R), TM, (C): "FHIR(R)" is FHIR
_RE_BROKEN_HYPHEN = re.compile(r"(\w)- (?=\w)")  # "nature&#8208; based" -> "nature- based"


def separator(column) -> str:
    """The separator a listing writes between a paper's keywords: of ";", "|" and ",", the one
    most of its keyworded papers use (the first on a tie)."""
    values = [str(v) for v in column if str(v or "").strip()]
    counts = [sum(sep in v for v in values) for sep in SEPARATORS]
    return SEPARATORS[int(np.argmax(counts))] if any(counts) else ";"


def split_keywords(value: str, sep: str | None = None) -> list[str]:
    """One paper's keywords, cleaned like titles (HTML entities and markup, LaTeX, (R) marks),
    split on `sep` (the listing's, `separator`; by default ";", else "|", else ","), PubMed's
    major-topic "*" dropped, none over KEYWORD_WORDS words."""
    text = clean_text(str(value or ""))
    text = _RE_BROKEN_HYPHEN.sub(r"\1-", _RE_MARKS.sub("", text))
    if sep is None:
        sep = next((s for s in SEPARATORS if s in text), ";")
    out = [" ".join(k.strip(" *").split()) for k in text.split(sep)]
    return [k for k in out if k and len(k.split()) <= KEYWORD_WORDS]


@dataclass
class KeywordIndex:
    """Papers x keyword groups (1 where a paper gives one), and how each group is shown."""

    incidence: sparse.csr_matrix
    display: list[str]
    keys: list[tuple[str, ...]]  # each group's words (lower case), for telling two apart
    at: dict[str, int]  # folded keyword (acronyms too) -> its group

    @classmethod
    def build(cls, column, index: NameIndex | None = None) -> KeywordIndex | None:
        """From the corpus's `keywords` column; None when no paper has one. `index`: the
        abstracts' acronym definitions, which join an acronym keyword to its long form."""
        column = list(column)
        sep = separator(column)
        papers = [split_keywords(v, sep) for v in column]
        if not any(papers):
            return None
        defined = {k: form for k, (form, _) in (index.acronyms if index else {}).items()}
        alias: dict[str, str] = {}  # acronym's key -> long form's key
        written: dict[str, Counter] = {}
        acronyms: dict[str, Counter] = {}  # acronym's key -> how the papers write it ("LoRA")
        keyed = []
        for kws in papers:
            mine = set()
            for kw in kws:
                long, short = _long_short(kw, defined)
                key = _key(long)
                if key and short:
                    alias[_key(short)] = key
                    acronyms.setdefault(_key(short), Counter())[_written_acronym(kw)] += 1
                if key:
                    written.setdefault(key, Counter())[long] += 1
                    mine.add(key)
            keyed.append(mine)
        keyed = [sorted({alias.get(k, k) for k in ks}) for ks in keyed]
        groups = sorted({k for ks in keyed for k in ks})
        at = {k: i for i, k in enumerate(groups)}
        rows = [i for i, ks in enumerate(keyed) for _ in ks]
        cols = [at[k] for ks in keyed for k in ks]
        incidence = sparse.csr_matrix(
            (np.ones(len(rows), dtype=np.float32), (rows, cols)), shape=(len(papers), len(groups))
        )
        forms: dict[str, Counter] = {g: Counter() for g in groups}
        for key, counts in written.items():
            forms[alias.get(key, key)].update(counts)
        shorts = {long: short for short, long in sorted(alias.items(), reverse=True)}
        display = [_shown(forms[g], _acronym(acronyms, shorts.get(g)), index) for g in groups]
        at.update({short: at[long] for short, long in alias.items() if long in at})
        keys = [tuple(_long_short(d, {})[0].lower().split()) for d in display]
        return cls(incidence, display, keys, at)

    def group_of(self, name: str) -> int | None:
        """The group a name (or one phrase of it) says, its acronym or long form alike."""
        long, short = _long_short(name.removeprefix("Mixed: "), {})
        return self.at.get(_key(long), self.at.get(_key(short)) if short else None)


def _key(text: str) -> str:
    """A keyword's identity: folded words run together (case, plural, hyphen and spacing)."""
    return "".join(fold_text(text))


def _written_acronym(keyword: str) -> str:
    """The acronym as a keyword writes it: "LoRA" of "low-rank adaptation (LoRA)" or of "LoRA"."""
    m = _RE_ACRONYM_AFTER.match(keyword.strip())
    return m.group(2).strip() if m and m.group(1) else keyword.strip()


def _acronym(acronyms: dict[str, Counter], short_key: str | None) -> str:
    """The acronym as most papers write it ("LoRA", "LLMs", "IoT"), for a long form that has one."""
    if not short_key:
        return ""
    forms = acronyms.get(short_key)
    if not forms:
        return short_key.upper()
    return sorted(forms.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]


def _long_short(keyword: str, defined: dict[str, tuple[str, ...]]) -> tuple[str, str]:
    """("long form", "ACRONYM") of a keyword: "long form (ACR)", or an acronym the abstracts
    define; else (keyword, "")."""
    m = _RE_ACRONYM_AFTER.match(keyword.strip())
    if m and m.group(1) and is_acronym(m.group(2).strip()):
        return m.group(1).strip(), acronym_key(m.group(2).strip())
    word = keyword.strip()
    if is_acronym(word) and " " not in word:
        word = acronym_key(word)
        if word in defined:
            return " ".join(defined[word]), word
    return word, ""


def _shown(forms: Counter, short: str, index: NameIndex | None) -> str:
    """The commonest way the papers write a keyword, in lower case unless the abstracts (or
    every paper) capitalise a word, with its acronym: "fast healthcare ... resources (FHIR)"."""
    order = sorted(forms.items(), key=lambda kv: (is_acronym(kv[0]), -kv[1], kv[0] != kv[0].lower(), kv[0]))
    best = order[0][0]
    words = []
    for w in best.split():
        lower = any(w.lower() in f.split() for f in forms)
        group = index.group_of(w) if index is not None and not is_acronym(w) else None
        if group is not None and len(index.keys[group]) == 1:
            w = index.display[group] if index.display[group].lower() == w.lower() else w.lower()
        elif lower or all(p[:1].isupper() and p[1:].islower() for p in w.split("-") if p):
            w = w.lower()  # "Multi-Agent Systems" -> "multi-agent systems"
        words.append(w)
    text = " ".join(words)
    if short and len(text.split()) >= MAX_NAME_WORDS:  # the map shows a name in two short lines
        return short
    return f"{text} ({short})" if short and short.lower() != text.lower() else text


@register_naming(KEYWORDS, rank=10)
class KeywordNames(NamingMethod):
    """Keyword names for the groups whose papers carry enough keywords; the next source names
    the others."""

    def __init__(self, keywords: KeywordIndex, weights: Weights):
        self.kw, self.weights = keywords, weights
        inc = keywords.incidence
        self.keyworded = np.asarray(inc.sum(axis=1)).ravel() > 0
        self.total = np.asarray(inc.sum(axis=0)).ravel()

    @classmethod
    def for_listing(cls, listing: Listing) -> KeywordNames | None:
        """None when the listing has no keywords column or no paper gives one; with
        `name_source: keywords`, every group with a keyworded paper or two is named by them."""
        if "keywords" not in listing.corpus:
            return None
        keywords = KeywordIndex.build(listing.corpus["keywords"].fillna("").tolist(), listing.index)
        weights = listing.weights
        if listing.source == KEYWORDS:
            weights = dataclasses.replace(weights, keyword_docs=1, keyword_share=0.0)
        return None if keywords is None else cls(keywords, weights)

    def shortlists(self, groups: dict[int, np.ndarray]) -> dict[int, list[tuple[int, float]]]:
        """Per group with enough keyworded papers, its keyword groups by score, best first."""
        w, n_all = self.weights, int(self.keyworded.sum())
        out = {}
        for g, docs in groups.items():
            mine = np.asarray(docs, dtype=int)
            mine = mine[self.keyworded[mine]]
            n = len(mine)
            if n < w.keyword_docs or n < w.keyword_share * len(docs):
                continue
            used = np.asarray(self.kw.incidence[mine].sum(axis=0)).ravel()
            rest = (self.total - used + w.pseudo) / (n_all - n + w.pseudo)
            field = (self.total >= w.field_share * n_all) & (used < w.field_hold * self.total)
            cols = np.flatnonzero((used >= min(w.min_docs, n)) & (used / n > rest) & ~field)
            share = used[cols] / n
            lift = np.log(share / rest[cols])
            value = np.log(share) + w.keyword_lift * lift
            order = np.lexsort((-lift, -value))[: w.candidates]  # ties: the more distinctive
            out[g] = [(int(cols[k]), float(value[k])) for k in order]
        return out

    def name_groups(self, groups, *, taken, within=None, second=False) -> TopicNames:
        """Keyword names; for a region (`within`), a keyword `region_topics` of its topics give
        (`region_use` of their keyworded papers), said once."""
        short = self.shortlists(groups)
        if within is not None:
            for g, cands in short.items():
                users = sum(self._uses(np.asarray(rows, dtype=int)) for rows in within[g])
                short[g] = [(c, v) for c, v in cands if users[c] >= self.weights.region_topics]
            second = False
        chosen = distinct(short, self.kw.display.__getitem__, set(taken))
        names = {g: self.kw.display[c] for g, c in chosen.items()}
        given = self._given(names, groups)
        chosen = {g: c for g, c in chosen.items() if given[g] >= self.weights.keyword_floor}
        names = {g: names[g] for g in chosen}
        used = {normal(n) for n in [*taken, *names.values()]}
        for g, col in sorted(chosen.items()) if second else ():
            other = self._second(groups[g], col, short[g], used)
            if other is not None:
                names[g] = f"{names[g]} & {self.kw.display[other]}"
                used.add(normal(self.kw.display[other]))
        candidates = {g: [names[g], *(self.kw.display[c] for c, _ in short[g])] for g in names}
        return TopicNames(names, candidates)

    def _given(self, names: dict[int, str], groups) -> dict[int, float]:
        """Group -> share of its keyworded papers that give its name's keyword(s)."""
        out = {}
        for g, name in names.items():
            cols = [self.kw.group_of(part) for part in name_phrases(name)]
            docs = np.asarray(groups[g], dtype=int)
            docs = docs[self.keyworded[docs]]
            ok = None not in cols and len(docs)
            out[g] = float((self.kw.incidence[docs][:, cols].sum(axis=1) > 0).mean()) if ok else 0.0
        return out

    def _second(self, docs, first: int, short: list[tuple[int, float]], used: set[str]) -> int | None:
        """A second keyword where under `second_cover` of the keyworded papers give the first
        (only the shortlist's columns are read: no papers x keywords matrix)."""
        w = self.weights
        mine = np.asarray(docs, dtype=int)
        mine = mine[self.keyworded[mine]]
        cols = [c for c, _ in short]
        rows = self.kw.incidence[mine][:, cols].toarray() > 0  # papers x shortlist (<= `candidates`)
        at = {c: k for k, c in enumerate(cols)}
        gives_first = rows[:, at[first]]
        if gives_first.mean() >= w.second_cover:
            return None
        top = dict(short)[first]
        for col, value in short:
            name = f"{self.kw.display[first]} & {self.kw.display[col]}"
            if (
                col != first
                and value >= top - w.second_score
                and not akin(self.kw.keys[first], self.kw.keys[col])
                and normal(self.kw.display[col]) not in used
                and len(name.split()) <= MAX_NAME_WORDS
                and (rows[:, at[col]] & ~gives_first).mean() >= w.second_gain
            ):
                return col
        return None

    def _uses(self, docs: np.ndarray) -> np.ndarray:
        mine = docs[self.keyworded[docs]]
        share = np.asarray(self.kw.incidence[mine].sum(axis=0)).ravel() / max(len(mine), 1)
        return (share >= self.weights.region_use).astype(int)

    def coverage(self, names, groups) -> dict[int, float]:
        """For a keyword name, the share of the group's papers whose authors give its keyword(s)
        (the card's figure; `keyworded` says how many carry keywords at all)."""
        out = {}
        for g, name in names.items():
            cols = [self.kw.group_of(part) for part in name_phrases(name)]
            docs = np.asarray(groups.get(g, []), dtype=int)
            if None in cols or not len(docs):
                continue
            out[g] = round(float((self.kw.incidence[docs][:, cols].sum(axis=1) > 0).mean()), 4)
        return out
