"""The weight search of bench/names_fit.py: the namer's topics and regions with their candidates'
features computed once (`Fast`), the figure a set of weights gets (`objective`) and the
coordinate search (`search`) from `start_weights`."""

from __future__ import annotations

import dataclasses

import _names  # bench/ is on sys.path when a bench script runs
import numpy as np

KINDS = {"fold": "listings of 500", "part": "listings of 200", "draw": "draws of 45"}


def top_keywords(keywords: list[list[str]], docs) -> list[tuple[str, ...]]:
    """A group's top author keywords, none left out as generic (the ICLR sample's rule)."""
    return _names.top_keywords(keywords, docs, set())


# The coordinate search: each weight in turn takes the grid value that names best (ties keep the
# value it has), twice over; `share` stays 1 (the score's scale).
GRID = {
    "lift": (0.0, 0.125, 0.25, 0.5, 1.0),
    "similarity": (0.0, 1.0, 2.0, 4.0, 8.0, 16.0),
    "title": (0.0, 0.25, 0.5, 1.0),
    "generic": (0.0, -0.1, -0.25, -0.5, -1.0),
    "piece": (0.0, -0.5, -1.0, -2.0),
    "region_cover": (0.0, 0.2, 0.3, 0.5, 0.7),
}


# Where the search starts: share, and lift at a quarter of it (it keeps a topic's own phrase where
# two topics share a common one: the seeds' chain-of-thought topic took "large language models"
# from the agents' topic without it); every other feature off;
# a feature comes in only where it moves the figure by MIN_GAIN.
MIN_GAIN = 0.005


def start_weights():
    from papertopics.topics.names.score import FEATURE_NAMES, WEIGHTS

    off = {name: 0.0 for name in FEATURE_NAMES if name not in ("share", "lift")}
    return dataclasses.replace(WEIGHTS, share=1.0, lift=0.25, **off)


class Fast:
    """One listing's topics and regions with their candidates' features computed once, named by
    any weights with the namer's own pieces; topics without second phrases."""

    def __init__(self, data: dict, result: dict):
        from papertopics.topics.names.phrases import NameIndex, PhraseNames
        from papertopics.topics.names.score import feature_matrix

        corpus = data["corpus"]
        self.index = NameIndex.build(corpus["text_raw"].tolist(), corpus["title"].fillna("").tolist())
        self.namer = PhraseNames(self.index).with_vectors(data["vectors"], _names.phrase_vectors(self.index))
        self.assigned = np.asarray(result["assigned"])
        groups = {t["topic"]: np.flatnonzero(self.assigned == t["topic"]) for t in result["topics"]}
        self.candidates = self.namer.candidates(groups)
        self.features = {g: feature_matrix(c) for g, c in self.candidates.items()}
        self.top = {g: top_keywords(data["keywords"], docs) for g, docs in groups.items()}
        self.kind = data["kind"]
        members: dict[int, list[int]] = {}
        for t in result["topics"]:
            members.setdefault(t["region"], []).append(t["topic"])
        self.multi = {n: ts for n, ts in members.items() if len(ts) > 1 and self.kind != "draw"}
        self.regions = self.namer.region_candidates(self.assigned, self.multi)
        self.region_top = {
            n: top_keywords(data["keywords"], np.flatnonzero(np.isin(self.assigned, ts)))
            for n, ts in self.multi.items()
        }

    def hits(self, weights) -> tuple[list[bool], list[bool]]:
        """Topics' and multi-topic regions' names: does each name a top author keyword?"""
        from papertopics.topics.names.score import weight_vector
        from papertopics.topics.names.select import distinct, shortlist

        vector = weight_vector(weights)
        short = {g: shortlist(c, self.features[g] @ vector, weights) for g, c in self.candidates.items()}
        chosen = distinct(short, self.index.name)
        names = {g: self.index.name(chosen[g]) if g in chosen else "" for g in self.candidates}
        self.coverage = [
            float(c.used[list(c.cols).index(chosen[g])] / c.size) if g in chosen else 0.0
            for g, c in self.candidates.items()
        ]
        regions = self.namer.with_weights(weights).region_names(
            self.assigned, self.multi, self.regions, names
        )
        return (
            [_names.hits(names[g], self.top[g]) for g in self.candidates],
            [_names.hits(regions[n], self.region_top[n]) for n in self.multi],
        )


def objective(fast: list[Fast], weights, part: str = "topics") -> float:
    """Topics: the mean of the names figures of the three kinds of listing; "regions": the
    multi-topic regions' figure; a kind of listing: its names figure."""
    found: dict[str, list[bool]] = {kind: [] for kind in [*KINDS, "regions"]}
    coverage: list[float] = []
    for f in fast:
        topics, regions = f.hits(weights)
        found[f.kind] += topics
        found["regions"] += regions
        coverage += f.coverage
    if part == "coverage":  # the median share of a topic's papers using its name
        return float(np.median(coverage))

    if part in found:
        return float(np.mean(found[part])) if found[part] else 0.0
    return float(np.mean([np.mean(found[k]) if found[k] else 0.0 for k in KINDS]))


def search(fast: list[Fast], start):
    """Coordinate search from `start`: the feature weights on the topics' names, then
    region_cover on the regions' names; a value moves only for MIN_GAIN or more."""
    weights = start
    for part, names in (("topics", [n for n in GRID if n != "region_cover"]), ("regions", ["region_cover"])):
        best = objective(fast, weights, part)
        for _ in range(2):
            for name in names:
                for value in GRID[name]:
                    trial = dataclasses.replace(weights, **{name: value})
                    got = objective(fast, trial, part)
                    if got >= best + MIN_GAIN:
                        weights, best = trial, got
    return weights, objective(fast, weights)
