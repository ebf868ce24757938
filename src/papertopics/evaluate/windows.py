"""Windows of tokens as NPMI counts them: which terms each sliding window of a document holds.

`term_table` gives each distinct term (a unigram, or an n-gram as a sequence of token codes) a
column; `window_term_matrix` turns a batch of encoded documents into a boolean (window x term)
sparse matrix without looping over windows in Python; `window_counts` sums, batch by batch, the
windows holding each term and each topic's pairs of terms. The protocol (gensim's windows, its
left-edge artefact under "gensim" semantics) is evaluate/coherence.py's.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp


def term_table(topics: dict[int, list[str]], analyze, window_size: int):
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


def window_counts(
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
        windows, batch_windows = window_term_matrix(
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


def term_occurrences(
    codes: np.ndarray,
    lengths: np.ndarray,
    doc_of: np.ndarray,
    uni_term: np.ndarray,
    ngram_keys: dict[int, tuple[np.ndarray, np.ndarray]],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every occurrence of a term in a batch of encoded documents: (global token position, term
    column, length in tokens); an n-token term is n consecutive codes inside one document."""
    total = int(lengths.sum())
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
    return np.concatenate(pos_list), np.concatenate(term_list), np.concatenate(len_list)


def window_term_matrix(
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

    occ_pos, occ_term, occ_len = term_occurrences(codes, lengths, doc_of, uni_term, ngram_keys)

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
