"""Topic-model quality figures for results/metrics.json: coherence, diversity, validity, stability.

Plain functions on plain data (lists, arrays), so the Snakemake script, the benchmarks and the
tests call the same code, and none of them pays for importing BERTopic.

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
import pandas as pd
import scipy.sparse as sp

from papertopics.artifacts import load_embeddings, read_json, write_json
from papertopics.constants import OUTLIER

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
        from papertopics.topics.stopwords import ENGLISH_STOP_WORDS

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
    from papertopics.topics.representation import TOKEN_PATTERN
    from papertopics.topics.stopwords import stop_words

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

    term_index, comp_index, uni_term, ngram_keys, n_terms = _term_table(topics, analyze, window_size)
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
    occurrences, co_counts, n_windows = _window_counts(
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


def _term_table(topics: dict[int, list[str]], analyze, window_size: int):
    """Columns for the counts: one per distinct token sequence ("Model" and "model" are one
    term). Returns term_index (term -> column), comp_index (token -> code), uni_term (code ->
    unigram column or -1), ngram_keys (n -> sorted integer keys of n-token terms, columns), and
    the number of columns."""
    term_index: dict[str, int] = {}
    tuple_index: dict[tuple[str, ...], int] = {}
    term_tokens: list[tuple[str, ...]] = []
    for words in topics.values():
        for w in words:
            if w not in term_index:
                toks = tuple(analyze(w))
                if toks not in tuple_index:
                    tuple_index[toks] = len(term_tokens)
                    term_tokens.append(toks)
                term_index[w] = tuple_index[toks]
    n_terms = len(term_tokens)
    comp_index: dict[str, int] = {}
    for toks in term_tokens:
        for tok in toks:
            comp_index.setdefault(tok, len(comp_index))
    n_comp = max(len(comp_index), 1)
    uni_term = np.full(n_comp, -1, dtype=np.int64)  # component code -> unigram term or -1
    ngram_keys: dict[int, tuple[np.ndarray, np.ndarray]] = {}  # n -> (sorted keys, term ids)
    by_len: dict[int, list[tuple[int, int]]] = {}
    for t, toks in enumerate(term_tokens):
        if len(toks) == 1:
            uni_term[comp_index[toks[0]]] = t
        elif len(toks) > 1:
            if len(toks) > window_size:
                continue  # can never fit in a window: reported missing
            if float(n_comp) ** len(toks) >= 2.0**62:
                raise ValueError(f"term {toks!r} has too many tokens to index")
            key = 0
            for tok in toks:
                key = key * n_comp + comp_index[tok]
            by_len.setdefault(len(toks), []).append((key, t))
    for n, pairs in by_len.items():
        keys = np.array([k for k, _ in pairs], dtype=np.int64)
        ids = np.array([t for _, t in pairs], dtype=np.int64)
        order = np.argsort(keys, kind="stable")
        ngram_keys[n] = (keys[order], ids[order])
    return term_index, comp_index, uni_term, ngram_keys, n_terms


def _window_counts(
    n_documents, encode, topic_cols, uni_term, ngram_keys, n_terms, window_size, window_semantics, batch_docs
):
    """Windows holding each term, each topic's term x term co-occurrence windows, and the number
    of windows, counted batch by batch (``encode(start, stop)``: the batch's token codes and
    lengths) so memory stays flat on large corpora."""
    occurrences = np.zeros(n_terms, dtype=np.int64)
    co_counts = {topic: np.zeros((len(c), len(c)), dtype=np.int64) for topic, c in topic_cols.items()}
    n_windows = 0
    for start in range(0, n_documents, max(batch_docs, 1)):
        codes, lengths = encode(start, min(start + max(batch_docs, 1), n_documents))
        windows, batch_windows = _window_term_matrix(
            codes, lengths, uni_term, ngram_keys, n_terms, window_size, window_semantics
        )
        n_windows += batch_windows
        if windows is None:
            continue
        occurrences += np.diff(windows.indptr)
        gram = (windows.T @ windows).tocsr()  # term x term window counts; cheap, few terms a window
        for topic, cols in topic_cols.items():
            if len(cols) > 1:
                co_counts[topic] += gram[cols][:, cols].toarray()
    return occurrences, co_counts, n_windows


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


def _window_term_matrix(
    codes: np.ndarray,
    lengths: np.ndarray,
    uni_term: np.ndarray,
    ngram_keys: dict[int, tuple[np.ndarray, np.ndarray]],
    n_terms: int,
    window: int,
    semantics: str,
) -> tuple[sp.csc_matrix | None, int]:
    """Boolean (window x term) matrix of one batch of encoded documents, and its window count.

    Each term occurrence at local position p, n tokens long, lies in windows [p + n - W, p]
    clipped to the document; expanding those intervals gives the matrix without ever looping
    over windows in Python. Occurrences are sorted by (term, position) and each interval is
    clipped to start after the previous one of the same term and document, so the expansion
    comes out in CSC order with no duplicates.
    """
    n_docs = len(lengths)
    total = int(lengths.sum())
    doc_of = np.repeat(np.arange(n_docs, dtype=np.int64), lengths)
    doc_start = np.zeros(n_docs, dtype=np.int64)
    np.cumsum(lengths[:-1], out=doc_start[1:])

    # Occurrences of terms: (global position, term, length).
    pos_list, term_list, len_list = [], [], []
    uni = np.full(total, -1, dtype=np.int64)
    known = codes >= 0
    uni[known] = uni_term[codes[known]]
    hit = np.flatnonzero(uni >= 0)
    pos_list.append(hit)
    term_list.append(uni[hit])
    len_list.append(np.ones(len(hit), dtype=np.int64))
    n_comp = len(uni_term)
    for n, (keys, ids) in ngram_keys.items():
        if total < n:
            continue
        cand = np.flatnonzero(known[: total - n + 1])
        for k in range(1, n):
            cand = cand[known[cand + k] & (doc_of[cand + k] == doc_of[cand])]
        key = np.zeros(len(cand), dtype=np.int64)
        for k in range(n):
            key = key * n_comp + codes[cand + k]
        at = np.minimum(np.searchsorted(keys, key), len(keys) - 1)
        match = keys[at] == key
        pos_list.append(cand[match])
        term_list.append(ids[at[match]])
        len_list.append(np.full(int(match.sum()), n, dtype=np.int64))
    occ_pos = np.concatenate(pos_list)
    occ_term = np.concatenate(term_list)
    occ_len = np.concatenate(len_list)

    n_win_doc = np.maximum(lengths - window + 1, 1)  # an empty document is one empty window
    n_windows = int(n_win_doc.sum())
    if len(occ_pos) == 0:
        return None, n_windows
    win_offset = np.zeros(n_docs, dtype=np.int64)
    np.cumsum(n_win_doc[:-1], out=win_offset[1:])

    sort_key = occ_term * (total + 1) + occ_pos
    order = np.argsort(sort_key, kind="stable")
    sort_key, occ_pos, occ_term, occ_len = sort_key[order], occ_pos[order], occ_term[order], occ_len[order]
    occ_doc = doc_of[occ_pos]
    p = occ_pos - doc_start[occ_doc]
    lo = np.maximum(0, p + occ_len - window)
    end = p
    if semantics == "gensim":
        # gensim un-marks the token leaving a window's left edge even if it occurs again inside
        # the window, so an occurrence entering at window lo stays counted only until the first
        # occurrence of the same token at a position >= lo has left: through window q', q' <= p.
        first = np.searchsorted(sort_key, occ_term * (total + 1) + doc_start[occ_doc] + lo)
        end = np.where(occ_len == 1, occ_pos[first] - doc_start[occ_doc], p)
    hi = np.minimum(end, n_win_doc[occ_doc] - 1)
    same = np.zeros(len(lo), dtype=bool)
    same[1:] = (occ_term[1:] == occ_term[:-1]) & (occ_doc[1:] == occ_doc[:-1])
    prev_hi = np.empty_like(hi)
    prev_hi[0] = -1
    prev_hi[1:] = hi[:-1]  # hi never decreases within a (term, document) group
    lo = np.where(same, np.maximum(lo, prev_hi + 1), lo)
    span = np.maximum(hi - lo + 1, 0)
    n_entries = int(span.sum())
    starts = np.zeros(len(span), dtype=np.int64)
    np.cumsum(span[:-1], out=starts[1:])
    rows = np.repeat(win_offset[occ_doc] + lo - starts, span) + np.arange(n_entries)
    indptr = np.zeros(n_terms + 1, dtype=np.int64)
    np.cumsum(np.bincount(occ_term, weights=span, minlength=n_terms).astype(np.int64), out=indptr[1:])
    index_dtype = np.int32 if max(n_windows, n_entries) < 2**31 else np.int64
    matrix = sp.csc_matrix(
        (np.ones(n_entries, dtype=np.int32), rows.astype(index_dtype), indptr.astype(index_dtype)),
        shape=(n_windows, n_terms),
    )
    return matrix, n_windows


def topic_diversity(topic_words: Mapping[int, Sequence[str]], top_n: int = 10) -> float | None:
    """Share of unique terms among all topics' top_n terms (OCTIS TopicDiversity): 1.0 means no
    two topics share a term; duplicated topics push it towards 1/k. Topic -1 is skipped."""
    topics = [list(words)[:top_n] for t, words in topic_words.items() if int(t) != OUTLIER]
    total = sum(len(w) for w in topics)
    if total == 0:
        return None
    return len(set(chain.from_iterable(topics))) / total


def cluster_validity(
    reduced: np.ndarray,
    labels: np.ndarray,
    *,
    sample_size: int = 5_000,
    random_state: int = 0,
) -> float | None:
    """Mean silhouette (Euclidean, the metric HDBSCAN clusters with) of non-outlier points in the
    reduced space; None if fewer than two topics remain.

    Silhouette rather than DBCV: DBCV (hdbscan.validity_index) is quadratic per cluster, slow at
    75k points, unstable on subsamples, and counts outliers against the score; silhouette on a
    fixed-seed random subsample of ``sample_size`` non-outliers takes about a second and ignores
    outliers as asked. It favours compact, separated clusters, so compare it between runs on the
    same data rather than read it as an absolute grade.
    """
    reduced = np.asarray(reduced, dtype=np.float64)
    labels = np.asarray(labels)
    if reduced.shape[0] != labels.shape[0]:
        raise ValueError(f"{reduced.shape[0]} points but {labels.shape[0]} labels")
    keep = labels != OUTLIER
    points, kept = reduced[keep], labels[keep]
    if len(np.unique(kept)) < 2 or len(kept) < 3:
        return None
    if len(kept) > sample_size:
        rng = np.random.default_rng(random_state)
        pick = rng.choice(len(kept), size=sample_size, replace=False)
        points, kept = points[pick], kept[pick]
        if len(np.unique(kept)) < 2:
            return None
    return silhouette_score(points, kept)


def silhouette_score(points: np.ndarray, labels: np.ndarray, *, block_rows: int = 512) -> float:
    """Mean silhouette, Euclidean: scikit-learn's silhouette_score, in numpy (tests compare the
    two), so that evaluate_topics need not import scikit-learn (about 1 s of every rerun).

    Distances are taken a block of rows at a time: the whole n x n matrix (200 MB at the 5,000
    sampled points) cost ~1 s of fresh-page faults per rerun; the blocks stay in cache (~0.1 s)
    and give the same sums, computed in the same order.
    """
    points = np.asarray(points, dtype=np.float64)
    squared = np.einsum("ij,ij->i", points, points)
    _, group, sizes = np.unique(np.asarray(labels), return_inverse=True, return_counts=True)
    n = len(group)
    member = np.zeros((n, len(sizes)))
    member[np.arange(n), group] = 1.0
    sums = np.empty((n, len(sizes)))  # each point's summed distance to each cluster
    for start in range(0, n, block_rows):
        stop = min(n, start + block_rows)
        distances = squared[start:stop, None] + squared[None, :]
        distances -= 2.0 * (points[start:stop] @ points.T)
        np.maximum(distances, 0.0, out=distances)
        distances[np.arange(stop - start), np.arange(start, stop)] = 0.0
        np.sqrt(distances, out=distances)
        sums[start:stop] = distances @ member
    rows = np.arange(n)
    with np.errstate(divide="ignore", invalid="ignore"):
        intra = sums[rows, group] / (sizes[group] - 1)
        means = sums / sizes
        means[rows, group] = np.inf
        nearest = means.min(axis=1)
        scores = np.nan_to_num((nearest - intra) / np.maximum(intra, nearest))
    return float(scores.mean())


def _best_jaccard(reference: np.ndarray, other: np.ndarray) -> dict[int, float]:
    """For each reference topic, the highest Jaccard index of its members with any non-outlier
    topic of ``other`` (0.0 if all its members are outliers there)."""
    ref_ids, ref_inv = np.unique(reference, return_inverse=True)
    oth_ids, oth_inv = np.unique(other, return_inverse=True)
    table = sp.csr_matrix(
        (np.ones(len(reference), dtype=np.int64), (ref_inv, oth_inv)),
        shape=(len(ref_ids), len(oth_ids)),
    )
    table.sum_duplicates()
    ref_size = np.bincount(ref_inv, minlength=len(ref_ids))
    oth_size = np.bincount(oth_inv, minlength=len(oth_ids))
    coo = table.tocoo()
    jac = coo.data / (ref_size[coo.row] + oth_size[coo.col] - coo.data)
    jac[oth_ids[coo.col] == OUTLIER] = 0.0
    best = np.zeros(len(ref_ids))
    np.maximum.at(best, coo.row, jac)
    return {int(t): float(b) for t, b in zip(ref_ids, best) if t != OUTLIER}


def stability(reference_labels: np.ndarray, other_labelings: Sequence[np.ndarray]) -> dict:
    """How reproducible the topics are across runs (seeds, subsamples) on the same documents.

    Per reference topic: the mean over other runs of its best-match Jaccard (1.0 = some topic
    in every run has exactly its members); overall: mean ARI between the reference and each run,
    outliers counted as one more label. Labelings must list the same documents in the same order.
    """
    from sklearn.metrics import adjusted_rand_score

    ref = np.asarray(reference_labels)
    others = [np.asarray(o) for o in other_labelings]
    for i, o in enumerate(others):
        if o.shape != ref.shape:
            raise ValueError(f"labeling {i} has {o.shape[0]} documents, reference {ref.shape[0]}")
    topics = [int(t) for t in np.unique(ref) if t != OUTLIER]
    if not others:
        return {
            "per_topic": {t: None for t in topics},
            "mean_jaccard": None,
            "ari": None,
            "ari_per_run": [],
            "n_runs": 0,
        }
    per_run = [_best_jaccard(ref, o) for o in others]
    per_topic = {t: float(np.mean([run[t] for run in per_run])) for t in topics}
    aris = [float(adjusted_rand_score(ref, o)) for o in others]
    return {
        "per_topic": per_topic,
        "mean_jaccard": float(np.mean(list(per_topic.values()))) if per_topic else None,
        "ari": float(np.mean(aris)),
        "ari_per_run": aris,
        "n_runs": len(others),
    }


def label_agreement(topics: Sequence[int], labels: Sequence, *, exclude_outliers: bool = False) -> dict:
    """NMI and ARI of topics against a ground-truth label column (e.g. arXiv primary category).

    Documents without a label (None, NaN, "") are left out. Outliers count as one more topic by
    default, since a model that calls half the corpus an outlier should not look better for it;
    ``exclude_outliers=True`` scores only the documents given a topic.
    """
    from sklearn.metrics import adjusted_rand_score, normalized_mutual_info_score

    t = np.asarray(topics)
    lab = pd.Series(list(labels), dtype=object)
    if len(t) != len(lab):
        raise ValueError(f"{len(t)} topics but {len(lab)} labels")
    keep = (lab.notna() & (lab.astype(str) != "")).to_numpy().copy()
    if exclude_outliers:
        keep &= t != OUTLIER
    if keep.sum() == 0:
        return {"nmi": None, "ari": None, "n_documents": 0}
    tt, ll = t[keep], lab[keep].astype(str).to_numpy()
    return {
        "nmi": float(normalized_mutual_info_score(ll, tt)),
        "ari": float(adjusted_rand_score(ll, tt)),
        "n_documents": int(keep.sum()),
    }


def outlier_share(labels: Sequence[int]) -> float | None:
    """Share of documents in the outlier group -1; None for an empty corpus."""
    labels = np.asarray(labels)
    return float(np.mean(labels == OUTLIER)) if labels.size else None


def n_topics(labels: Sequence[int]) -> int:
    """Number of real topics (the outlier group -1 is not one)."""
    return int(len(np.setdiff1d(np.unique(np.asarray(labels)), [OUTLIER])))


def topic_stability(
    per_topic: Mapping, reference_doc_ids: Sequence[str], reference_labels: Sequence[int], documents
) -> dict[int, float | None]:
    """Per-topic Jaccard keyed by the run's topics (documents: doc_id, topic as in topics.csv).

    The stability check scores the topics of its reference labelling: the raw clusters, or the
    clusters of a re-clustered sample on large corpora, numbered otherwise than the run's stable
    ids. A run topic gets the mean score of the reference topics of its compared members, so a
    renumbered topic keeps its figure and topics merged by nr_topics get the size-weighted mean;
    a topic none of whose members were compared (sampled out, or outliers there) gets None.
    """
    scores = {int(k): v for k, v in per_topic.items()}
    reference = pd.Series(np.asarray(reference_labels, dtype=int), index=list(reference_doc_ids))
    topics = documents["topic"].to_numpy()
    ref = reference.reindex(documents["doc_id"]).to_numpy()  # NaN: not compared
    score = np.array(
        [scores.get(int(r)) if r == r and int(r) != OUTLIER else None for r in ref], dtype=object
    )
    out: dict[int, float | None] = {}
    for topic in sorted(set(topics.tolist()) - {OUTLIER}):
        values = [v for v in score[topics == topic] if v is not None]
        out[int(topic)] = float(np.mean(values)) if values else None
    return out


def build_metrics(
    *,
    corpus,
    corpus_stats: dict,
    embed_stats: dict,
    cluster_params: dict,
    stability: dict,
    documents,
    topics,
    vectors: np.ndarray,
    reduced: np.ndarray,
    vectorizer: dict,
    top_n: int,
    random_state: int,
    tokens: WindowTokens | None = None,
) -> dict:
    """results/metrics.json: every per-topic figure keyed by a topic id of topics.csv, silhouette
    in the space the clusterer used (the embeddings for Ward, the UMAP space for HDBSCAN).
    ``tokens``: the corpus already tokenised by ``npmi_analyzer(vectorizer)`` (count_terms)."""

    assigned = documents["topic"].to_numpy()
    how = (
        documents["assignment"].to_numpy()
        if "assignment" in documents
        else np.where(assigned == OUTLIER, "outlier", "core")
    )
    topic_words = {
        int(row.topic): [t for t in str(row.top_terms).split("; ") if t]
        for row in topics.itertuples()
        if row.topic != OUTLIER
    }
    coherence = npmi_coherence(
        topic_words, corpus["text"].tolist(), top_n=top_n, analyzer=npmi_analyzer(vectorizer), tokens=tokens
    )
    space = "embeddings" if cluster_params.get("method") == "agglomerative" else "umap"
    reference = stability.get("reference") or {"doc_ids": [], "labels": []}
    per_topic_jaccard = (
        topic_stability(stability["per_topic"], reference["doc_ids"], reference["labels"], documents)
        if stability.get("n_runs")
        else {}
    )
    metrics = {
        "n_documents": int(len(documents)),
        "n_listings": int(corpus_stats["n_listings"]),
        "n_duplicates_merged": int(corpus_stats.get("n_duplicates_merged", 0)),
        "n_topics": int(len(topic_words)),
        "outlier_share": round(float((assigned == OUTLIER).mean()), 4),
        # How documents got their topic: core members of a cluster, or assigned to the nearest topic.
        "core_share": round(float(((how == "core") & (assigned != OUTLIER)).mean()), 4),
        "assigned_share": round(float((how == "nearest").mean()), 4),
        "cohesion_per_topic": (
            {
                str(int(row.topic)): float(row.cohesion)
                for row in topics.itertuples()
                if row.topic != OUTLIER and row.cohesion != ""
            }
            if "cohesion" in topics
            else {}
        ),
        "npmi": coherence["mean"],
        "npmi_per_topic": {str(k): v for k, v in coherence["per_topic"].items()},
        "topic_diversity": topic_diversity(topic_words, top_n=top_n),
        "silhouette": cluster_validity(
            vectors if space == "embeddings" else reduced, assigned, random_state=random_state
        ),
        "silhouette_space": space,
        "stability": {
            "runs": stability["n_runs"],
            "measured_by": stability.get("measured_by"),  # "seeds" or "subsamples of 90%" (Ward: no seed)
            "ari": stability["ari"],
            "mean_jaccard": stability["mean_jaccard"],
            "sampled_documents": stability.get("n_documents") if stability.get("sampled") else None,
            "per_topic_jaccard": {str(k): v for k, v in per_topic_jaccard.items()},
        },
        "clustering": cluster_params,
        "embedding": {
            key: embed_stats.get(key) for key in ("computed", "reused", "backend", "precision", "device")
        },
    }
    if "label" in corpus.columns:
        metrics["label_agreement"] = label_agreement(assigned, corpus["label"].tolist())
    return metrics


def evaluate_topics_job(job, log) -> None:
    """Rule evaluate_topics (run by papertopics.runtime.inprocess.run_job): the figures a researcher
    checks before trusting a map.

    Inputs: corpus, its NPMI tokens (count_terms), corpus and embedding stats, embeddings, reduced
    space, clustering params, stability.json, document_topics.csv, topics.csv.
    Outputs: results/metrics.json.
    """
    p, i = job.params, job.input
    metrics = build_metrics(
        corpus=pd.read_parquet(i.corpus),
        corpus_stats=read_json(i.corpus_stats),
        embed_stats=read_json(i.embed_stats),
        cluster_params=read_json(i.cluster_params),
        stability=read_json(i.stability),
        documents=pd.read_csv(i.documents, usecols=lambda c: c in ("doc_id", "topic", "assignment")),
        topics=pd.read_csv(i.topics, keep_default_na=False),
        vectors=load_embeddings(i.embeddings)[1],
        reduced=pd.read_parquet(i.reduced).drop(columns="doc_id").to_numpy(),
        vectorizer=p.vectorizer,
        top_n=p.top_n,
        random_state=p.random_state,
        tokens=WindowTokens.load(i.windows),
    )
    write_json(job.output.metrics, metrics)
    log.info(
        "metrics: %d topics, outliers %.3f, NPMI %s, diversity %s, stability ARI %s",
        metrics["n_topics"],
        metrics["outlier_share"],
        metrics["npmi"],
        metrics["topic_diversity"],
        metrics["stability"]["ari"],
    )
