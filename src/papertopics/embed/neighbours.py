"""Similar papers: each document's nearest documents by cosine similarity of the embeddings.

Exact, blockwise: a block of rows against all vectors at a time, so memory stays near
`block_bytes` whatever the corpus (75k x 384 float32 vectors take 115 MB; the similarity
block never more than ~256 MB). At 75k documents this is 75k^2 x 384 = 2.2e12 multiply-adds in
BLAS (minutes on two busy cores); no approximate index to tune or to ship.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

NEIGHBOUR_COLUMNS = ["doc_id", "rank", "neighbour_id", "similarity"]


def normalised(vectors: np.ndarray) -> np.ndarray:
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms > 0, norms, 1.0)


def nearest_neighbours(
    vectors: np.ndarray, k: int = 5, *, block_bytes: int = 256 << 20
) -> tuple[np.ndarray, np.ndarray]:
    """(indices, similarities), each (n, k'), k' = min(k, n - 1): nearest first, never the document itself.

    Per block of rows: the similarities to every document (one matrix product), then a cheap
    lower bound for each row's k-th best (the k-th best among the first columns), so only the
    few columns above it are sorted: `argpartition` over all 75k columns cost 4x the product.
    Ties break by the lower index, so the result is deterministic.
    """
    unit = normalised(vectors)
    n = len(unit)
    k = max(0, min(int(k), n - 1))
    indices = np.zeros((n, k), dtype=np.int64)
    similarities = np.zeros((n, k), dtype=np.float32)
    if k == 0:
        return indices, similarities
    block = max(1, min(n, block_bytes // (4 * n)))
    probe = min(n, max(64, 200 * k))  # columns that give each row's lower bound
    for start in range(0, n, block):
        stop = min(n, start + block)
        rows = np.arange(stop - start)
        scores = unit[start:stop] @ unit.T
        scores[rows, np.arange(start, stop)] = -np.inf  # not itself
        # The (k+1)-th best of the probe columns: at most one of them is the row itself (-inf),
        # so at least k finite scores are >= the bound, and every true neighbour is too.
        bound = np.partition(scores[:, :probe], probe - k - 1 if probe > k else 0, axis=1)[
            :, max(probe - k - 1, 0)
        ]
        row, col = np.nonzero(scores >= bound[:, None])
        value = scores[row, col]
        order = np.lexsort((col, -value, row))
        row, col, value = row[order], col[order], value[order]
        first = np.searchsorted(row, rows)
        take = first[:, None] + np.arange(k)[None, :]
        indices[start:stop] = col[take]
        similarities[start:stop] = value[take]
    return indices, similarities


def neighbour_table(doc_ids: list[str], vectors: np.ndarray, k: int = 5) -> pd.DataFrame:
    """results/topics/neighbours.csv: doc_id, rank (1 = nearest), neighbour_id, similarity (cosine)."""
    doc_ids = np.asarray([str(d) for d in doc_ids], dtype=object)
    if len(doc_ids) != len(vectors):
        raise ValueError(f"{len(doc_ids)} doc_ids but {len(vectors)} vectors")
    indices, similarities = nearest_neighbours(vectors, k)
    n, kk = indices.shape
    return pd.DataFrame(
        {
            "doc_id": np.repeat(doc_ids, kk),
            "rank": np.tile(np.arange(1, kk + 1), n),
            "neighbour_id": doc_ids[indices.ravel()] if kk else np.array([], dtype=object),
            "similarity": np.round(similarities.ravel().astype(float), 4),
        },
        columns=NEIGHBOUR_COLUMNS,
    )
