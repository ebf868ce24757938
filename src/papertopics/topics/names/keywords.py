"""Names from the authors' own keywords, where the listing has them (representation.name_source).

Web of Science (DE), PubMed (OT), Scopus and IEEE (`Author Keywords`), BibTeX (`keywords`) and
OpenReview exports carry each paper's keywords; the readers put them in the corpus's `keywords`
column ("a; b; c"). Variants are one keyword: case, plural, hyphen and spacing ("meta-learning",
"Meta learning"), an acronym and its long form ("FHIR", "Fast Healthcare Interoperability
Resources (FHIR)", or the abstracts' own definition). A group of papers is named by the keyword
that characterises it against the rest of the listing: the commonest among its keyworded papers of
those its papers give more often than the rest of the listing does (ties: the more distinctive;
`keyword_lift` weighs the lift in, 0 as bench/names_fields.py chose), with a second one ("A & B")
where the first covers few of its papers. A keyword that a `field_share` of the listing gives is
the field itself: it names only a group holding most of its papers. Groups with too few keyworded
papers, and regions no keyword names, are named by the abstract namer this one wraps.
"""

from __future__ import annotations

import dataclasses
import re
from collections import Counter
from dataclasses import dataclass

import numpy as np
from scipy import sparse

from papertopics.topics.names.index import MAX_NAME_WORDS, NameIndex
from papertopics.topics.names.registry import NamingMethod, TopicNames, name_phrases, normal
from papertopics.topics.names.score import Weights
from papertopics.topics.names.select import distinct
from papertopics.topics.names.text import acronym_key, akin, fold_text, is_acronym

NAME_SOURCES = ("auto", "keywords", "abstracts")
KEYWORDS, ABSTRACTS = "keywords", "abstracts"  # topics.csv name_source
_RE_ACRONYM_AFTER = re.compile(r"(.*?)\s*\(([^()]*)\)$")


def split_keywords(value: str) -> list[str]:
    """One paper's keywords as the column has them: ";"-separated, or ","-separated when no ";"
    (PubMed's major-topic "*" dropped)."""
    text = str(value or "")
    return [k.strip(" *") for k in re.split(";" if ";" in text else ",", text) if k.strip(" *")]


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
        papers = [split_keywords(v) for v in column]
        if not any(papers):
            return None
        defined = {k: form for k, (form, _) in (index.acronyms if index else {}).items()}
        alias: dict[str, str] = {}  # acronym's key -> long form's key
        written: dict[str, Counter] = {}
        keyed = []
        for kws in papers:
            mine = set()
            for kw in kws:
                long, short = _long_short(kw, defined)
                key = _key(long)
                if key and short:
                    alias[_key(short)] = key
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
        display = [_shown(forms[g], _acronym(forms[g], shorts.get(g)), index) for g in groups]
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


def _acronym(forms: Counter, short_key: str | None) -> str:
    """The acronym as the papers write it, for a long form that has one."""
    if not short_key:
        return ""
    return next((f for f in forms if is_acronym(f) and _key(f) == short_key), short_key.upper())


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


class KeywordNames(NamingMethod):
    """Keyword names where a group's papers carry enough keywords; the wrapped namer elsewhere."""

    def __init__(self, keywords: KeywordIndex, inner: NamingMethod, weights: Weights):
        self.kw, self.inner, self.weights = keywords, inner, weights
        inc = keywords.incidence
        self.keyworded = np.asarray(inc.sum(axis=1)).ravel() > 0
        self.total = np.asarray(inc.sum(axis=0)).ravel()

    @classmethod
    def for_corpus(cls, corpus, prepared=None):  # built by with_keywords, around another method
        raise NotImplementedError("KeywordNames wraps another method: see with_keywords")

    def excluding(self, words: frozenset[str]) -> KeywordNames:
        return KeywordNames(self.kw, self.inner.excluding(words), self.weights)

    def with_vectors(self, vectors, phrase_vectors) -> KeywordNames:
        return KeywordNames(self.kw, self.inner.with_vectors(vectors, phrase_vectors), self.weights)

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

    def name_groups(self, groups, *, taken=None, fallback=None, second=False) -> TopicNames:
        taken = set(taken or ())
        short = self.shortlists(groups)
        chosen = distinct(short, self.kw.display.__getitem__, taken)
        names = {g: self.kw.display[c] for g, c in chosen.items()}
        used = {normal(n) for n in [*taken, *names.values()]}
        for g, col in sorted(chosen.items()) if second else ():
            other = self._second(groups[g], col, short[g], used)
            if other is not None:
                names[g] = f"{names[g]} & {self.kw.display[other]}"
                used.add(normal(self.kw.display[other]))
        rest = {g: docs for g, docs in groups.items() if g not in names}
        inner = (
            self.inner.name_groups(
                rest,
                taken=taken | set(names.values()),
                fallback=fallback,
                **({"second": True} if second else {}),
            )
            if rest
            else TopicNames({}, {})
        )
        candidates = {g: [names[g], *(self.kw.display[c] for c, _ in short[g])] for g in names}
        sources = {g: KEYWORDS for g in names} | {g: ABSTRACTS for g in rest}
        return TopicNames({**inner.names, **names}, {**inner.candidates, **candidates}, sources)

    def _second(self, docs, first: int, short: list[tuple[int, float]], used: set[str]) -> int | None:
        """A second keyword where under `second_cover` of the keyworded papers give the first."""
        w = self.weights
        mine = np.asarray(docs, dtype=int)
        mine = mine[self.keyworded[mine]]
        rows = self.kw.incidence[mine].toarray() > 0
        if rows[:, first].mean() >= w.second_cover:
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
                and (rows[:, col] & ~rows[:, first]).mean() >= w.second_gain
            ):
                return col
        return None

    def name_regions(self, assigned, region_of, topic_names) -> dict[int, str]:
        """The wrapped namer's regions, each renamed by a keyword two of its topics give
        (`region_use` of their keyworded papers) where one does, apart from every topic name."""
        regions = self.inner.name_regions(assigned, region_of, topic_names)
        assigned = np.asarray(assigned)
        members: dict[int, list[int]] = {}
        for t, node in sorted(region_of.items()):
            members.setdefault(node, []).append(t)
        multi = {n: ts for n, ts in members.items() if len(ts) > 1}
        groups = {n: np.flatnonzero(np.isin(assigned, ts)) for n, ts in multi.items()}
        short = self.shortlists(groups)
        for n, cands in short.items():
            users = sum(self._uses(np.flatnonzero(assigned == t)) for t in multi[n])
            short[n] = [(c, v) for c, v in cands if users[c] >= self.weights.region_topics]
        taken = {part for name in topic_names.values() for part in name_phrases(name)}
        for n, col in distinct(short, self.kw.display.__getitem__, taken).items():
            regions[n] = self.kw.display[col]
        return regions

    def _uses(self, docs: np.ndarray) -> np.ndarray:
        mine = docs[self.keyworded[docs]]
        if not len(mine):
            return np.zeros(len(self.kw.display), dtype=int)
        share = np.asarray(self.kw.incidence[mine].sum(axis=0)).ravel() / len(mine)
        return (share >= self.weights.region_use).astype(int)

    def coverage(self, names, groups) -> dict[int, float]:
        """For a keyword name, the share of the group's papers that give its keyword(s) or whose
        abstract or title uses its phrase(s); the abstracts' coverage for the others."""
        out = dict(self.inner.coverage(names, groups))
        index = getattr(self.inner, "index", None)
        for g, name in names.items():
            cols = [self.kw.group_of(part) for part in name_phrases(name)]
            docs = np.asarray(groups.get(g, []), dtype=int)
            if None in cols or not len(docs):
                continue
            said = (self.kw.incidence[docs][:, cols].toarray() > 0).any(axis=1)
            phrases = [index.group_of(part) for part in name_phrases(name)] if index is not None else []
            phrases = [c for c in phrases if c is not None]
            if phrases:
                said |= (index.incidence[docs][:, phrases].toarray() > 0).any(axis=1)
            out[g] = round(float(said.mean()), 4)
        return out

    def make_distinct(self, labels, candidates, keep):
        return self.inner.make_distinct(labels, candidates, keep)


def with_keywords(namer: NamingMethod, corpus, source: str, index: NameIndex | None, weights: Weights):
    """`namer` wrapped by keyword names where `source` allows and the corpus has keywords."""
    if source == ABSTRACTS or "keywords" not in corpus:
        return namer
    keywords = KeywordIndex.build(corpus["keywords"].fillna("").tolist(), index)
    if source == KEYWORDS:  # every group with a keyworded paper or two
        weights = dataclasses.replace(weights, keyword_docs=1, keyword_share=0.0)
    return namer if keywords is None else KeywordNames(keywords, namer, weights)
