"""From scores to names: each group's candidates, absorption, distinct names, a second phrase.

Separate pieces, each reading the one score (topics.names.score) and `Weights`:
- `gather`: a group's candidate phrases (used by `min_docs` of its documents, more often than by
  the rest of the corpus) and what the features read;
- `shortlist`: the best candidates, a phrase inside a better one dropped ("graph" after "graph
  neural networks");
- `distinct`: (group, candidate) pairs best first, each group and each name once, so a phrase
  goes to the group it names best;
- `second`: "A & B" for a group whose name few of its documents use, when another candidate
  adds enough of them.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from papertopics.topics.names.index import MAX_NAME_WORDS, NameIndex
from papertopics.topics.names.registry import normal
from papertopics.topics.names.score import Candidates, Weights, score
from papertopics.topics.names.text import akin, inside
from papertopics.vectors import normalise


def gather(
    index: NameIndex,
    groups: dict[int, np.ndarray],
    weights: Weights,
    *,
    vectors: np.ndarray | None = None,
    phrase_units: tuple[np.ndarray, np.ndarray] | None = None,
) -> dict[int, Candidates]:
    """Per group (document rows), its candidates; `phrase_units`: (phrase group x dimension unit
    embeddings, which groups have one), in the space of the documents' `vectors`."""
    ids = sorted(groups)
    counts = index.counts([np.asarray(groups[g], dtype=int) for g in ids])
    total = np.asarray(index.incidence.sum(axis=0)).ravel()
    n_docs = index.incidence.shape[0]
    out = {}
    for k, g in enumerate(ids):
        size = len(groups[g])
        cols, used = counts[k].indices, counts[k].data.astype(np.float64)
        rest = (total[cols] - used + weights.pseudo) / (n_docs - size + weights.pseudo)
        floor = min(weights.min_docs, size)
        keep = (used >= floor) & (used / max(size, 1) > rest)
        cols, used, rest = cols[keep], used[keep], rest[keep]
        cosine = None
        if vectors is not None and phrase_units is not None and len(cols):
            units, known = phrase_units
            centre = normalise(vectors[np.asarray(groups[g], dtype=int)].mean(axis=0, keepdims=True))[0]
            cosine = units[cols] @ centre
            mine = known[cols]
            # a phrase too rare to have been embedded weighs as the group's least similar one
            cosine = np.where(mine, cosine, cosine[mine].min() if mine.any() else 0.0)
        out[g] = Candidates(index, cols, used, size, rest, cosine)
    return out


def shortlist(c: Candidates, scores: np.ndarray, weights: Weights) -> list[tuple[int, float]]:
    """(phrase group, score) best first, at most `weights.candidates`, none inside a better one."""
    keys = c.index.keys
    kept: list[tuple[int, float]] = []
    for k in np.argsort(-scores, kind="stable"):
        col = int(c.cols[k])
        if not any(inside(keys[col], keys[other]) for other, _ in kept):
            kept.append((col, float(scores[k])))
            if len(kept) >= weights.candidates:
                break
    return kept


def ranked(candidates: dict[int, Candidates], weights: Weights) -> dict[int, list[tuple[int, float]]]:
    """Each group's shortlist by the one score."""
    return {g: shortlist(c, score(c, weights), weights) for g, c in candidates.items()}


def distinct(
    ranked: dict[int, list[tuple[int, float]]], name: Callable[[int], str], taken: set[str] = frozenset()
) -> dict[int, int]:
    """Group -> its chosen phrase group: pairs best first, each group and each name once, none
    of the names `taken`; a group whose candidates are all taken gets none."""
    pairs = sorted(
        ((value, g, col) for g, cands in ranked.items() for col, value in cands), key=lambda p: (-p[0], p[1])
    )
    used = {normal(t) for t in taken}
    chosen: dict[int, int] = {}
    for _, g, col in pairs:
        if g not in chosen and normal(name(col)) not in used:
            chosen[g] = col
            used.add(normal(name(col)))
    return chosen


def second(
    index: NameIndex,
    docs: np.ndarray,
    first: int,
    shortlist: list[tuple[int, float]],
    used: set[str],
    weights: Weights,
) -> int | None:
    """The phrase joining `first` with "&", or None: only where under `second_cover` of the
    group's documents use `first`; a candidate sharing no word (or stem) with it, no other name,
    scoring at most `second_score` below it, used by `second_docs` of the group's documents and by
    `second_gain` of them without it."""
    score_of = dict(shortlist)
    if first not in score_of:
        return None
    others = [
        col
        for col, value in shortlist
        if col != first
        and value >= score_of[first] - weights.second_score
        and not akin(index.keys[first], index.keys[col])
        and normal(index.name(col)) not in used
        and pair_name(index, first, col)
    ]
    rows = index.incidence[np.asarray(docs, dtype=int)][:, [first, *others]].toarray() > 0
    if not len(rows) or rows[:, 0].mean() >= weights.second_cover:
        return None
    for k, col in enumerate(others, start=1):
        if (
            rows[:, k].sum() >= weights.second_docs
            and (rows[:, k] & ~rows[:, 0]).mean() >= weights.second_gain
        ):
            return col
    return None


def pair_name(index: NameIndex, col: int, col2: int) -> str:
    """ "A & B"; without the acronyms when they make it longer than MAX_NAME_WORDS (the map shows
    a name in two short lines); "" when even that is."""
    for one, two in ((index.name(col), index.name(col2)), (index.display[col], index.display[col2])):
        if len(f"{one} & {two}".split()) <= MAX_NAME_WORDS:
            return f"{one} & {two}"
    return ""
