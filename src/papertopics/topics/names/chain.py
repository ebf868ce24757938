"""The name sources of one listing strung together: what names topics, regions and merges.

`representation.name_source` chooses the sources (topics.names.registry.source_keys); each names
the groups it can, given the names already taken, and leaves the rest to the next, as BERTopic
chains representation models. What is the same for every source lives here once: numbering a
group no source names, a region no source names shown as its largest topics' names, distinct
names after a rerun, and each name's coverage asked of the source that gave it.
"""

from __future__ import annotations

import numpy as np

from papertopics.constants import OUTLIER, OUTLIER_LABEL
from papertopics.topics.names.registry import (
    DEFAULT_NAMING,
    Listing,
    NamingMethod,
    TopicNames,
    name_phrases,
    name_sources,
    normal,
    numbered,
)
from papertopics.topics.names.score import WEIGHTS, Weights


class Names:
    """The chained name sources of one listing."""

    def __init__(self, methods: list[NamingMethod], weights: Weights = WEIGHTS):
        self.methods, self.weights = list(methods), weights

    @classmethod
    def for_listing(cls, listing: Listing) -> Names:
        return cls(name_sources(listing), listing.weights)

    def _ask(self, groups, taken: set[str], within=None, second=False) -> TopicNames:
        """Each source in turn names what the earlier ones left. (An earlier source's name giving
        way where a later one's covers more of the group lowered every labelled field's figure,
        bench/names_fields.py: keyword names that hit gave way 56 times in 60, so none does.)"""
        names: dict[int, str] = {}
        candidates: dict[int, list[str]] = {g: [] for g in groups}
        sources: dict[int, str] = {}
        rest = dict(groups)
        for method in self.methods:
            if not rest:
                break
            got = method.name_groups(
                rest,
                taken=taken | set(names.values()),
                within=None if within is None else {g: within[g] for g in rest},
                second=second,
            )
            for g, name in got.names.items():
                if name and g in rest:
                    names[g], sources[g] = name, method.key
            for g in rest:
                candidates[g] += [c for c in got.candidates.get(g, []) if c not in candidates[g]]
            rest = {g: docs for g, docs in rest.items() if g not in names}
        return TopicNames(names, candidates, sources)

    def name_groups(
        self,
        groups: dict[int, np.ndarray],
        *,
        taken: set[str] | None = None,
        fallback: dict[int, str] | None = None,
        second: bool = False,
    ) -> TopicNames:
        """A distinct name per group: a source's, else its `fallback` or first candidate,
        numbered ("(2)"), else "unnamed topic"."""
        taken = set(taken or ())
        found = self._ask(groups, taken, second=second)
        names = found.names
        said = [*taken, *names.values()]
        used = {normal(p) for n in said for p in [n, *name_phrases(n)]}
        exact = {n.lower() for n in said}
        for g in sorted(groups):
            if g in names:
                continue
            options = found.candidates[g]
            base = (fallback or {}).get(g) or (options[0] if options else "unnamed topic")
            label = numbered(base, exact | ({base.lower()} if normal(base) in used else set()))
            names[g] = label
            used.add(normal(label))
            exact.add(label.lower())
            found.sources[g] = self.methods[-1].key if self.methods else DEFAULT_NAMING
        return found

    def name_topics(
        self,
        assigned: np.ndarray,
        *,
        fallback: dict[int, str] | None = None,
        outlier_label: str = OUTLIER_LABEL,
    ) -> TopicNames:
        """One distinct name per topic of `assigned` (a name may say two phrases); the outliers
        keep their label."""
        assigned = np.asarray(assigned)
        groups = {
            int(t): np.flatnonzero(assigned == t) for t in sorted(set(assigned.tolist())) if t != OUTLIER
        }
        result = self.name_groups(groups, fallback=fallback, second=True)
        if (assigned == OUTLIER).any():
            result.names[OUTLIER] = outlier_label
            result.candidates[OUTLIER] = [outlier_label]
        return result

    def name_regions(
        self, assigned: np.ndarray, region_of: dict[int, int], topic_names: dict[int, str]
    ) -> dict[int, str]:
        """Region node -> name (`region_of`: topic -> region node). A one-topic region is its
        topic; the others take a name several of their topics share, apart from every topic's
        name (either phrase of one), else their `region_shown` largest topics' names."""
        assigned = np.asarray(assigned)
        members: dict[int, list[int]] = {}
        for t, node in sorted(region_of.items()):
            members.setdefault(node, []).append(t)
        names = {n: topic_names.get(ts[0], "") for n, ts in members.items() if len(ts) == 1}
        multi = {n: ts for n, ts in members.items() if len(ts) > 1}
        groups = {n: np.flatnonzero(np.isin(assigned, ts)) for n, ts in multi.items()}
        within = {n: [np.flatnonzero(assigned == t) for t in ts] for n, ts in multi.items()}
        taken = {part for name in topic_names.values() for part in name_phrases(name)}
        names.update(self._ask(groups, taken, within=within, second=True).names)
        for n, ts in multi.items():
            if not names.get(n):
                largest = sorted(ts, key=lambda t: (-(assigned == t).sum(), t))[: self.weights.region_shown]
                names[n] = " & ".join(name_phrases(topic_names.get(t, ""))[0] for t in largest)
        return names

    def coverage(
        self, names: dict[int, str], groups: dict[int, np.ndarray], sources: dict[int, str] | None = None
    ) -> dict[int, float]:
        """Group -> its name's coverage, as the source that named it counts it (the default
        source for a name none gave)."""
        out: dict[int, float] = {}
        last = self.methods[-1].key if self.methods else DEFAULT_NAMING
        for method in self.methods:
            mine = {g: n for g, n in names.items() if (sources or {}).get(g, last) == method.key}
            out.update(method.coverage(mine, groups))
        rest = {g: n for g, n in names.items() if g not in out}
        if rest and self.methods:
            out.update(self.methods[-1].coverage(rest, groups))
        return out

    def make_distinct(
        self, labels: dict[int, str], candidates: dict[int, list[str]], keep: set[int]
    ) -> dict[int, str]:
        """Labels with duplicates resolved: topics in `keep` hold theirs, the others take their
        next candidate, or their own numbered (after a rerun a kept name may equal a freshly
        chosen one)."""
        out = dict(labels)
        used = {normal(out[t]) for t in keep if t in out}
        exact = {out[t].lower() for t in keep if t in out}
        for t in sorted(out, key=lambda t: (t not in keep, t)):
            if t in keep or t == OUTLIER:
                continue
            if normal(out[t]) in used:
                free = [c for c in candidates.get(t, []) if normal(c) not in used]
                out[t] = free[0] if free else numbered(out[t], exact)
            used.add(normal(out[t]))
            exact.add(out[t].lower())
        return out


def names_for(method: NamingMethod, weights: Weights = WEIGHTS) -> Names:
    """One source alone as a chain (tests and benchmarks)."""
    return Names([method], weights)
