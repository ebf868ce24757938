"""The quality proxies of bench/names_regions.py: what a name says (`name_parts`, `name_phrases`),
the top title phrases of a group of papers (`TitleKeywords`), stand-in author keywords
(`AuthorKeywords`, from bench/author_keywords.txt) and plain BERTopic's labels (`plain_labels`)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import _names  # bench/ is on sys.path when a bench script runs
import numpy as np


def _fold(text: str) -> str:
    from papertopics.topics.stopwords import singular

    return " " + " ".join(singular(w) for w in re.findall(r"[\w\-]+", text.lower())) + " "


def name_parts(name: str) -> list[str]:
    """What a name says, as written: each side of " & ", its long form and its acronym ("Mixed: ",
    a "(2)" and a keyword list's other terms aside)."""
    out = []
    for part in re.sub(r"^Mixed: ", "", name).split(" & "):
        part = re.sub(r"\s*\(\d+\)$", "", part.strip())
        m = re.match(r"(.*?)\s*\(([^)]*)\)$", part)
        out += [m.group(1), m.group(2)] if m else [part.split(",")[0]]
    return [p for p in out if p.strip()]


def name_forms(name: str) -> list[str]:
    return [_fold(p) for p in name_parts(name)]


_words = _names.fold  # the package's one fold


def name_phrases(name: str) -> list[tuple[str, ...]]:
    """The phrases a name says (name_parts), as the title index's folded words."""
    return [w for w in map(_words, name_parts(name)) if w]


class TitleKeywords:
    """Top-3 title phrases of a group of papers (a NameIndex of the titles alone), and whether a
    name holds one of them."""

    def __init__(self, titles: list[str]):
        from papertopics.topics.names.phrases import NameIndex

        self.index = NameIndex.build([t or "" for t in titles], min_df=1)

    def top(self, docs: np.ndarray, k: int = 3) -> list[tuple[str, ...]]:
        counts = np.asarray(self.index.incidence[docs].sum(axis=0)).ravel()
        order = np.argsort(-counts, kind="stable")
        if not len(order) or counts[order[0]] < 2:
            return []
        cut = max(counts[order[min(k, len(order)) - 1]], 2)
        return [self.index.keys[g] for g in order if counts[g] >= cut]

    def hit(self, name: str, docs: np.ndarray) -> bool:
        return any(_names._inside(top, said) for top in self.top(docs) for said in name_phrases(name))


class AuthorKeywords:
    """Stand-in author keywords (bench/author_keywords.txt): each paper's are the listed phrases
    its title uses, then those its abstract uses most often, at most KEEP; a group's top are its
    papers' three commonest, ties kept; a name hits when one of them is inside one of its phrases."""

    KEEP = 4

    def __init__(self, titles: list[str], abstracts: list[str]):
        listed = [
            line.strip() for line in (Path(__file__).parent / "author_keywords.txt").read_text().splitlines()
        ]
        phrases = sorted(
            {_words(k) for k in listed if k and not k.startswith("#")}, key=lambda k: (-len(k), k)
        )
        self.paper = []
        for title, abstract in zip(titles, abstracts):
            in_title, in_abstract = _words(title or ""), _words(abstract or "")
            first = [k for k in phrases if _count(k, in_title)]
            rest = sorted(
                (k for k in phrases if k not in first and _count(k, in_abstract)),
                key=lambda k: (-_count(k, in_abstract), -len(k), k),
            )
            self.paper.append((first + rest)[: self.KEEP])

    def top(self, docs: np.ndarray) -> list[tuple[str, ...]]:
        counts = Counter(k for d in docs for k in self.paper[d])
        ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        if not ranked:
            return []
        cut = ranked[min(3, len(ranked)) - 1][1]
        return [k for k, v in ranked if v >= cut]

    def hit(self, name: str, docs: np.ndarray) -> bool:
        return any(_count(top, said) > 0 for top in self.top(docs) for said in name_phrases(name))


def _count(short: tuple[str, ...], long: tuple[str, ...]) -> int:
    return sum(long[i : i + len(short)] == short for i in range(len(long) - len(short) + 1))


def plain_labels(texts: list[str], assigned: np.ndarray) -> dict[int, str]:
    """What plain BERTopic would call each of these topics: the first three of its label words
    (bench/_names.plain_words; its label "3_fl_clients_federated" without the number), read as one
    phrase per word."""
    return {t: " & ".join(words[:3]) for t, words in _names.plain_words(texts, assigned).items()}
