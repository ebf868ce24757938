"""NPMI coherence of topics' top terms, as the BERTopic paper's numbers were computed.

NPMI follows the protocol behind the BERTopic paper's numbers: OCTIS
``Coherence(texts, measure="c_npmi", topk=10)``, i.e. gensim 4.x ``CoherenceModel`` with
``coherence="c_npmi"``:

* every tokenised document is cut into boolean sliding windows of 10 tokens (a document shorter
  than 10 tokens is one window); a window "contains" a word if the word is in it; windows, not
  documents, are the units that P(w) and P(w1, w2) count;
* every document adds windows, even one without any topic word or without any token (gensim
  3.x skipped documents without topic words; gensim 4.x, which OCTIS now requires, does not);
* NPMI(wi, wj) = log((P(wi, wj) + 1e-12) / (P(wi) P(wj))) / -log(P(wi, wj) + 1e-12), so a pair
  that never co-occurs scores -1 + log(1/(P(wi)P(wj))) / log(1e12), a little above -1, not -1;
* a topic's score is the mean over all pairs of its top-10 words; the model's the mean of topics.

``window_semantics="gensim"`` (default) also reproduces an artefact of gensim's incremental window
update: when a word leaves the window's left edge it is marked absent even if it occurs again
inside the window, so repeated words count in fewer windows. Published numbers include it, so
the default keeps ours comparable; ``"exact"`` counts true window membership.

Multi-word terms (BERTopic's bigrams, which are not in gensim's dictionary of unigrams) are
scored as phrases: a window contains "neural network" if the two tokens occur consecutively
inside it. Terms that never occur in the corpus are dropped from their topic, as gensim 4
silently drops words outside its dictionary (the BERTopic paper's evaluation code swapped them
for the corpus's first word instead); they are listed under ``missing_terms``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain
from pathlib import Path
from typing import Literal

import numpy as np

from papertopics.constants import OUTLIER
from papertopics.evaluate.windows import term_table, window_counts
from papertopics.topics.stopwords import ENGLISH_STOP_WORDS, stop_words
from papertopics.topics.vectorizer import TOKEN_PATTERN

EPSILON = 1e-12
WINDOW_SIZE = 10

# scikit-learn's CountVectorizer default is (?u)\b\w\w+\b; a greedy \w\w+ finds the same tokens
# (it can never start inside a word) and runs a third faster.
_TOKEN_RE = re.compile(r"\w\w+")


def default_analyzer(
    stop_words: Iterable[str] | None = None, token_pattern: str | None = None
) -> Callable[[str], list[str]]:
    """Lowercase, CountVectorizer's token pattern, stop words dropped: the order-preserving
    unigram stream from which BERTopic's default vectorizer forms its unigrams and bigrams, and
    a close stand-in for OCTIS's preprocessed texts (windows span content words, not "the").
    With the topic vectorizer's stop words and token pattern it is that vectorizer's unigram
    analyzer (CountVectorizer(...).build_analyzer()), without importing scikit-learn."""
    if stop_words is None:
        stop_words = ENGLISH_STOP_WORDS
    stop = frozenset(w.lower() for w in stop_words)
    findall = re.compile(token_pattern).findall if token_pattern else _TOKEN_RE.findall

    def analyze(text: str) -> list[str]:
        return [t for t in findall(text.lower()) if t not in stop]

    return analyze


@dataclass
class WindowTokens:
    """A corpus as NPMI's windows read it: every document's analyzer tokens, in order.

    Tokenising was most of evaluate_topics' time (NPMI 8.25 s at 75k abstracts, 1.33 s from these
    tokens) and only the topics change between runs, so rule count_terms tokenises once per
    corpus and vectorizer.
    """

    vocabulary: list[str]
    ids: np.ndarray  # int32: every document's token ids, concatenated
    lengths: np.ndarray  # int64: tokens per document

    def encoder(self, comp_index: dict[str, int]) -> Callable[[int, int], tuple[np.ndarray, np.ndarray]]:
        """encode(start, stop) as ``_encoder`` would give it for documents[start:stop]."""
        vocabulary = self.vocabulary
        code_of = np.fromiter((comp_index.get(w, -1) for w in vocabulary), np.int32, len(vocabulary))
        offsets = np.zeros(len(self.lengths) + 1, dtype=np.int64)
        np.cumsum(self.lengths, out=offsets[1:])

        def encode(start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
            return code_of[self.ids[offsets[start] : offsets[stop]]], self.lengths[start:stop]

        return encode

    def save(self, path) -> None:
        """One uncompressed .npz, as terms.TermCounts; the vocabulary as one UTF-8 blob."""
        blob = "\n".join(self.vocabulary).encode("utf-8")
        with Path(path).open("wb") as handle:
            np.savez(
                handle,
                ids=self.ids.astype(np.int32),
                lengths=self.lengths.astype(np.int64),
                vocabulary=np.frombuffer(blob, dtype=np.uint8),
            )

    @classmethod
    def load(cls, path) -> WindowTokens:
        with np.load(path, allow_pickle=False) as parts:
            blob = parts["vocabulary"].tobytes().decode("utf-8")
            return cls(blob.split("\n") if blob else [], parts["ids"], parts["lengths"])


def window_tokens(documents: Sequence[str], analyzer: Callable[[str], list[str]]) -> WindowTokens:
    """``documents`` tokenised by ``analyzer`` (a text that is None or NaN has no tokens)."""
    vocabulary: dict[str, int] = {}
    add = vocabulary.setdefault
    texts = (text if isinstance(text, str) else "" for text in documents)
    per_doc = [[add(t, len(vocabulary)) for t in analyzer(text)] for text in texts]
    lengths = np.fromiter(map(len, per_doc), dtype=np.int64, count=len(per_doc))
    ids = np.fromiter(chain.from_iterable(per_doc), dtype=np.int32, count=int(lengths.sum()))
    return WindowTokens(list(vocabulary), ids, lengths)


def npmi_analyzer(vectorizer: dict) -> Callable[[str], list[str]]:
    """The analyzer metrics.json's NPMI tokenises with: the topic vectorizer's unigrams (its stop
    words and token pattern, hyphenated words kept)."""
    return default_analyzer(
        stop_words(vectorizer["domain_stop_words"], vectorizer["extra_stop_words"]), TOKEN_PATTERN
    )


def _top_terms(topic_words: Mapping[int, Sequence[str]], top_n: int) -> dict[int, list[str]]:
    """Each real topic's first top_n distinct, non-empty terms; the outlier group is no topic."""
    out = {}
    for topic, words in topic_words.items():
        if int(topic) == OUTLIER:
            continue
        seen: list[str] = []
        for w in words:
            if w and w not in seen:
                seen.append(w)
            if len(seen) == top_n:
                break
        out[int(topic)] = seen
    return out


def npmi_coherence(
    topic_words: Mapping[int, Sequence[str]],
    documents: Sequence[str],
    *,
    top_n: int = 10,
    analyzer: Callable[[str], list[str]] | None = None,
    stop_words: Iterable[str] | None = None,
    window_size: int = WINDOW_SIZE,
    window_semantics: Literal["gensim", "exact"] = "gensim",
    batch_docs: int = 2_000,
    tokens: WindowTokens | None = None,
) -> dict:
    """NPMI coherence of each topic's top terms against ``documents`` (protocol: module doc).

    ``analyzer`` maps a text to its ordered unigram tokens (default: :func:`default_analyzer`
    with ``stop_words``); it must not emit n-grams, and it is also applied to each term, so a
    term is matched in the same normal form as the text. Topic -1 is skipped.

    Returns ``{"mean", "per_topic": {topic: float | None}, "missing_terms": {topic: [...]},
    "n_windows", "window_size", "top_n", "window_semantics"}``; a topic with fewer than two
    terms found in the corpus scores None and is left out of the mean.
    Documents are processed in batches of ``batch_docs`` so memory stays flat on large corpora.
    ``tokens``: ``documents`` already tokenised by ``analyzer`` (``window_tokens``), the same
    scores without tokenising again.
    """
    if window_semantics not in ("gensim", "exact"):
        raise ValueError(f"window_semantics must be 'gensim' or 'exact', not {window_semantics!r}")
    if window_size < 1:
        raise ValueError("window_size must be >= 1")
    analyze = analyzer if analyzer is not None else default_analyzer(stop_words)
    topics = _top_terms(topic_words, top_n)

    term_index, comp_index, uni_term, ngram_keys, n_terms = term_table(topics, analyze, window_size)
    for topic, words in topics.items():  # a topic lists each term once
        kept: dict[int, str] = {}
        for w in words:
            kept.setdefault(term_index[w], w)
        topics[topic] = list(kept.values())
    topic_cols = {
        topic: np.array([term_index[w] for w in words], dtype=np.int64) for topic, words in topics.items()
    }
    if tokens is None:
        documents = [d if isinstance(d, str) else "" for d in documents]  # None / NaN: no text
        encode_texts = _encoder(analyzer, stop_words, comp_index)

        def encode(start: int, stop: int) -> tuple[np.ndarray, np.ndarray]:
            return encode_texts(documents[start:stop])
    else:
        if len(tokens.lengths) != len(documents):
            raise ValueError(f"tokens of {len(tokens.lengths)} documents for {len(documents)} documents")
        encode = tokens.encoder(comp_index)
    occurrences, co_counts, n_windows = window_counts(
        len(documents),
        encode,
        topic_cols,
        uni_term,
        ngram_keys,
        n_terms,
        window_size,
        window_semantics,
        batch_docs,
    )
    per_topic, missing = _topic_scores(topics, topic_cols, occurrences, co_counts, n_windows)

    scored = [v for v in per_topic.values() if v is not None]
    return {
        "mean": float(np.mean(scored)) if scored else None,
        "per_topic": per_topic,
        "missing_terms": missing,
        "n_windows": int(n_windows),
        "window_size": window_size,
        "top_n": top_n,
        "window_semantics": window_semantics,
    }


def _topic_scores(topics, topic_cols, occurrences, co_counts, n_windows):
    """Mean NPMI over each topic's pairs of known terms; terms never seen are reported missing."""
    per_topic: dict[int, float | None] = {}
    missing: dict[int, list[str]] = {}
    for topic, cols in topic_cols.items():
        known = occurrences[cols] > 0 if len(cols) else np.zeros(0, dtype=bool)
        lost = [w for w, k in zip(topics[topic], known) if not k]
        if lost:
            missing[topic] = lost
        if known.sum() < 2 or n_windows == 0:
            per_topic[topic] = None
            continue
        co = co_counts[topic][np.ix_(known, known)].astype(np.float64)
        p_single = occurrences[cols][known].astype(np.float64) / n_windows
        p_joint = co / n_windows + EPSILON
        with np.errstate(divide="ignore", invalid="ignore"):
            npmi = np.log(p_joint / np.outer(p_single, p_single)) / -np.log(p_joint)
        off = ~np.eye(len(p_single), dtype=bool)
        per_topic[topic] = float(npmi[off].mean())
    return per_topic, missing


def _encoder(analyzer, stop_words, comp_index: dict[str, int]):
    """A function mapping a batch of texts to (token codes, tokens per document): the code of a
    term's component token, or -1 for any other token. The default analyzer is inlined (stop
    words looked up in the same dict as terms) because tokenising is most of the run time."""
    if analyzer is None:
        if stop_words is None:
            from papertopics.topics.stopwords import ENGLISH_STOP_WORDS

            stop_words = ENGLISH_STOP_WORDS
        lookup = dict.fromkeys((w.lower() for w in stop_words), -2)
        lookup.update(comp_index)  # terms were tokenised without stop words: no clash
        findall = _TOKEN_RE.findall

        def tokens(text):
            return findall(text.lower())
    else:
        lookup = comp_index
        tokens = analyzer

    def encode(texts: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        get = lookup.get
        per_doc = [[get(t, -1) for t in tokens(text)] for text in texts]
        lengths = np.fromiter(map(len, per_doc), dtype=np.int64, count=len(per_doc))
        codes = np.fromiter(chain.from_iterable(per_doc), dtype=np.int32, count=int(lengths.sum()))
        drop = codes == -2
        if drop.any():
            doc_of = np.repeat(np.arange(len(per_doc)), lengths)
            lengths = lengths - np.bincount(doc_of[drop], minlength=len(per_doc))
            codes = codes[~drop]
        return codes, lengths

    return encode
