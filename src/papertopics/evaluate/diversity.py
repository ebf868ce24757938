"""Topic diversity: how many of the topics' top terms are their own (OCTIS TopicDiversity)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import chain

from papertopics.constants import OUTLIER


def topic_diversity(topic_words: Mapping[int, Sequence[str]], top_n: int = 10) -> float | None:
    """Share of unique terms among all topics' top_n terms (OCTIS TopicDiversity): 1.0 means no
    two topics share a term; duplicated topics push it towards 1/k. Topic -1 is skipped."""
    topics = [list(words)[:top_n] for t, words in topic_words.items() if int(t) != OUTLIER]
    total = sum(len(w) for w in topics)
    if total == 0:
        return None
    return len(set(chain.from_iterable(topics))) / total
