"""Similar papers: exact cosine nearest neighbours, blockwise (results/topics/neighbours.csv)."""

from __future__ import annotations

import numpy as np

from papertopics.embed.neighbours import NEIGHBOUR_COLUMNS, nearest_neighbours, neighbour_table


def test_blockwise_neighbours_equal_the_full_similarity_matrix():
    rng = np.random.RandomState(0)
    vectors = rng.randn(2500, 16).astype(np.float32) * rng.uniform(0.5, 3, size=(2500, 1))  # norms vary
    indices, similarities = nearest_neighbours(vectors, 5, block_bytes=4 * 2500 * 37)  # 37-row blocks
    unit = vectors / np.linalg.norm(vectors, axis=1, keepdims=True)
    full = unit @ unit.T
    np.fill_diagonal(full, -np.inf)
    expected = np.argsort(-full, axis=1, kind="stable")[:, :5]
    assert (indices == expected).all()
    assert np.allclose(similarities, np.take_along_axis(full, expected, axis=1), atol=1e-5)
    assert (indices != np.arange(2500)[:, None]).all()  # never itself
    assert (np.diff(similarities, axis=1) <= 1e-7).all()  # nearest first


def test_neighbour_table_has_k_rows_per_document_and_copes_with_tiny_corpora():
    vectors = np.array([[1.0, 0.0], [0.9, 0.1], [0.0, 1.0], [0.1, 0.9]])
    table = neighbour_table(["a", "b", "c", "d"], vectors, k=5)
    assert list(table.columns) == NEIGHBOUR_COLUMNS
    assert len(table) == 4 * 3  # at most n - 1 neighbours each
    first = table[table["doc_id"] == "a"]
    assert first["neighbour_id"].tolist()[0] == "b" and first["rank"].tolist() == [1, 2, 3]
    assert len(neighbour_table(["a"], np.ones((1, 2)), k=5)) == 0
    assert len(neighbour_table(["a", "b"], np.ones((2, 2)), k=0)) == 0
