"""How well a phrase names a group of documents: features, their weights, one score.

Every candidate phrase of a group (topic or region) gets a few features, each one small function
returning an array over the candidates; the score is their sum weighed by `Weights`, the one
object holding every number the scoring uses. The weights are chosen on the labelled set (1,000
ICLR 2026 submissions with their authors' keywords) by bench/names_fit.py, cross-validated: a
name should be a keyword its papers' authors would write. A new feature is one function here, one
field of `Weights` and one test.
"""

from __future__ import annotations

import functools
import gzip
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources

import numpy as np

# phrase (folded words), arXiv titles using it, abstracts using it; tools/build_title_use.py
# builds it from 74,728 arXiv abstracts of 2025-26
TITLE_USE = "title_use.tsv.gz"
# a word's last letters, keyword phrases (authors' keywords of the labelled set's seven fields)
# ending in a word ending so, keyword words ending so; bench/names_keyphrase.py builds it
KEYPHRASE = "keyphrase_suffixes.tsv.gz"
SUFFIX = 3  # letters of a word's end that say whether it ends a keyword ("-ion", "-ing", "-ily")


@dataclass(frozen=True)
class Weights:
    """Every number of the scoring and the selection (bench/names_fit.py chooses them; similarity
    and title ship below its optimum, 16 and 1, which names topics by what few of their papers
    say: the seeds' agents topic became "Mixed: AI")."""

    # -- score = sum of weight x feature (the features below, over a group's candidates)
    share: float = 1.0  # log share of the group's documents using the phrase (the score's scale)
    lift: float = 0.25  # log of how many times more often the group uses it than the rest of the corpus
    similarity: float = 4.0  # cosine of its embedding with the group's mean embedding (when given)
    title: float = 0.25  # log of (arXiv titles + 1) / (arXiv abstracts + 5) using it: what titles name
    generic: float = -1.0  # one word: log of (arXiv abstracts using it + 1) ("learning", "data")
    piece: float = -0.5  # share of its documents using one phrase a word longer ("graph neural")
    # log odds that a keyword word ending as its last word does ends the keyword: authors end a
    # keyword with a noun ("-ion", "-ics"), rarely with "-ily", "-ive" ("bodily", "Australian
    # economic"). bench/names_keyphrase.py, table rebuilt per field left out: 0.40 of abstract-only
    # names hit at 0, 0.43 at 0.25-1, 0.47 at 2, 0.39 at 4; 0.5 and above take the seeds' median
    # coverage under 0.5 (tests/test_pipeline.py), so 0.25
    keyphrase: float = 0.25
    title_prior: float = 1.0  # arXiv titles (and abstracts, for `generic`) added to every phrase's count
    abstract_prior: float = 5.0  # arXiv abstracts added to every phrase's count (`title`)
    # -- candidates
    pseudo: float = 1.0  # documents added to the rest of the corpus (a phrase only the group uses)
    min_docs: int = 2  # documents that must use a candidate (all of a smaller group)
    candidates: int = 12  # candidates kept per group (a kept name must stay among them)
    # -- selection
    second_cover: float = 0.4  # a name used by under this share of its group's documents ...
    second_gain: float = 0.1  # ... takes a second phrase ("A & B") adding this share of the group
    second_docs: int = 5  # ... and used by this many of its documents at least
    second_score: float = 1.0  # ... scoring at most this much below the first
    region_use: float = 0.1  # a topic "uses" a phrase that this share of its documents do
    region_cover: float = 0.7  # a region's name covers this share of it, else it shows ...
    region_shown: int = 2  # ... this many of its largest topics' names ("speech & vision-language models")
    region_topics: int = 2  # topics of a region that must use a phrase naming it (`region_use` of them)
    # -- names from the authors' keywords (topics.names.keywords; bench/names_fields.py)
    # weight of the log lift beside the log share: 0, 0.25, 0.5, 1 gave 0.96, 0.95, 0.93, 0.87 of
    # names hitting a top-3 keyword on the seven labelled fields (every keyword given; 0 in each
    # leave-one-field-out fold); the lift still breaks ties and filters (share > rest)
    keyword_lift: float = 0.0
    keyword_docs: int = 3  # a group is named by keywords when this many of its papers carry some ...
    # ... and this share of them (else the abstract namer names it). Chosen with keyword_floor per
    # field left out (bench/names_keyword_floor.py): 0 in 7 of 9 folds, but held out 0.404 of names
    # hit with half the keywords against 0.416 at 0.25 (22 of 322 topics fall under 0.25): kept
    keyword_share: float = 0.25
    field_share: float = 0.2  # a keyword this share of the listing gives is the field itself ...
    field_hold: float = 0.5  # ... and names only a group holding this share of its papers
    # a keyword names a group only where this share of its keyworded papers give it (issue 58:
    # "interpretability" from 4 of 51 papers). bench/names_keyword_floor.py, floor x share x docs
    # chosen per field left out (nine fields, half and every keyword): 0.1 in every fold; at share
    # 0.25 and 3 papers 0.416 (half) and 0.888 (every keyword) of names hit, against 0.398 / 0.882
    # at 0 and 0.416 / 0.814 at 0.2
    keyword_floor: float = 0.1


WEIGHTS = Weights()


@dataclass
class Candidates:
    """A group's candidate phrases (index groups `cols`) and what the features read."""

    index: object  # the corpus's NameIndex
    cols: np.ndarray  # candidate phrase groups
    used: np.ndarray  # the group's documents using each
    size: int  # the group's documents
    rest: np.ndarray  # share of the other documents of the corpus using each
    cosine: np.ndarray | None = None  # cosine with the group's mean embedding, when known

    def where(self, keep: np.ndarray) -> Candidates:
        """The candidates where `keep` is true."""
        cosine = None if self.cosine is None else self.cosine[keep]
        return Candidates(self.index, self.cols[keep], self.used[keep], self.size, self.rest[keep], cosine)


def share(c: Candidates) -> np.ndarray:
    return np.log(c.used / max(c.size, 1))


def lift(c: Candidates) -> np.ndarray:
    return np.log(c.used / max(c.size, 1)) - np.log(c.rest)


def similarity(c: Candidates) -> np.ndarray:
    return np.zeros(len(c.cols)) if c.cosine is None else c.cosine


def _static(name: str) -> Callable[[Candidates], np.ndarray]:
    def feature(c: Candidates) -> np.ndarray:
        return static_features(c.index)[name][c.cols]

    feature.__name__ = name
    return feature


# the features, in the order of `feature_matrix`'s columns; each name is a field of Weights
FEATURES: tuple[Callable[[Candidates], np.ndarray], ...] = (
    share,
    lift,
    similarity,
    _static("title"),
    _static("generic"),
    _static("piece"),
    _static("keyphrase"),
)
FEATURE_NAMES = tuple(f.__name__ for f in FEATURES)


def feature_matrix(c: Candidates) -> np.ndarray:
    """Candidates x FEATURES."""
    return np.stack([f(c) for f in FEATURES], axis=1) if len(c.cols) else np.zeros((0, len(FEATURES)))


def weight_vector(weights: Weights) -> np.ndarray:
    return np.array([getattr(weights, name) for name in FEATURE_NAMES])


def score(c: Candidates, weights: Weights = WEIGHTS) -> np.ndarray:
    """The one score of topics and regions alike: weights . features, per candidate."""
    return feature_matrix(c) @ weight_vector(weights)


def static_features(index) -> dict[str, np.ndarray]:
    """Per phrase group of the index, the features that depend on the phrase alone (computed once:
    NameIndex.save stores them)."""
    if index.static is not None:
        return index.static
    keys = index.keys
    if not index.key_index:
        index.key_index = {k: i for i, k in enumerate(keys)}
    df = np.asarray(index.incidence.sum(axis=0)).ravel()
    longest = np.zeros(len(keys))  # documents of the most used phrase one word longer
    for g, key in enumerate(keys):
        for inner in (index.key_index.get(key[:-1]), index.key_index.get(key[1:])) if len(key) > 1 else ():
            if inner is not None:
                longest[inner] = max(longest[inner], df[g])
    table = title_use()
    counts = [table.get(key, (0, 0)) for key in keys]
    w = WEIGHTS
    title = np.array(
        [
            np.log(titles + w.title_prior) - np.log(abstracts + w.abstract_prior)
            for titles, abstracts, *_ in counts
        ]
    )
    index.static = {
        "title": title,
        "generic": np.array(
            [np.log(c[1] + w.title_prior) if len(k) == 1 else 0.0 for k, c in zip(keys, counts)]
        ),
        "piece": np.minimum(longest / np.maximum(df, 1.0), 1.0),
        "keyphrase": keyphraseness(keys, keyphrase_suffixes()),
    }
    return index.static


@functools.cache
def title_use() -> dict[tuple[str, ...], tuple[int, ...]]:
    """TITLE_USE: folded phrase -> (arXiv titles using it, abstracts using it)."""
    data = gzip.decompress((resources.files(__package__) / TITLE_USE).read_bytes()).decode("utf-8")
    out = {}
    for line in data.splitlines()[1:]:
        phrase, *counts = line.split("\t")
        out[tuple(phrase.split(" "))] = tuple(map(int, counts))
    return out


def keyphraseness(keys: list[tuple[str, ...]], table: dict[str, tuple[int, int]]) -> np.ndarray:
    """Per phrase (folded words), log (keywords ending in a word with its last word's SUFFIX + 1)
    / (keyword words with that suffix + 2)."""
    counts = [table.get(key[-1][-SUFFIX:], (0, 0)) if key else (0, 0) for key in keys]
    return np.array([np.log(ends + 1.0) - np.log(words + 2.0) for ends, words in counts])


@functools.cache
def keyphrase_suffixes() -> dict[str, tuple[int, int]]:
    """KEYPHRASE: suffix -> (keyword phrases ending in a word ending so, keyword words ending so)."""
    data = gzip.decompress((resources.files(__package__) / KEYPHRASE).read_bytes()).decode("utf-8")
    rows = (line.split("\t") for line in data.splitlines()[1:])
    return {suffix: (int(ends), int(words)) for suffix, ends, words in rows}
