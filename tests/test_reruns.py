"""Reruns after a failure or a partial run give what a fresh folder gives (real Snakemake runs)."""

from __future__ import annotations

import shutil

import numpy as np
import pandas as pd
import pytest
from conftest import make_corpus_dir, run_snakemake

from papertopics.artifacts import load_embeddings

pytestmark = pytest.mark.slow


def same_partition(a: pd.DataFrame, b: pd.DataFrame) -> bool:
    """The same documents grouped together, whatever the topic ids."""
    merged = a[["doc_id", "topic"]].merge(b[["doc_id", "topic"]], on="doc_id")
    if len(merged) != len(a) or len(merged) != len(b):
        return False
    pairs = merged.drop_duplicates(["topic_x", "topic_y"])
    return pairs["topic_x"].is_unique and pairs["topic_y"].is_unique


def test_a_failed_embedding_never_leaves_old_vectors(seed_run, tmp_path, monkeypatch):
    """Change max_seq_length, let the embedding fail (a cache that cannot be written), fix it
    and rerun: the vectors and topics are those of a fresh folder with the new setting."""
    folder = tmp_path / "edited"
    shutil.copytree(seed_run, folder, symlinks=True)
    config = (folder / "config.yaml").read_text() + "embedding:\n  max_seq_length: 64\n"
    (folder / "config.yaml").write_text(config)
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder\n")
    good_cache = monkeypatch_cache(monkeypatch, blocker / "cache")
    failed = run_snakemake(folder, "--cores", "2", check=False)
    assert failed.returncode != 0
    errors = [line for line in failed.stderr.splitlines() if line.startswith("papertopics error:")]
    assert errors and f"the embedding cache {blocker / 'cache'} cannot be written" in errors[-1], errors
    assert "Traceback" not in failed.stderr

    monkeypatch.setenv("PAPERTOPICS_CACHE_DIR", good_cache)
    run_snakemake(folder, "--cores", "2")
    fresh = make_corpus_dir(tmp_path / "fresh", config)
    run_snakemake(fresh, "--cores", "2")

    ids, vectors = load_embeddings(folder / "results/embed/embeddings.parquet")
    fresh_ids, fresh_vectors = load_embeddings(fresh / "results/embed/embeddings.parquet")
    old_ids, old_vectors = load_embeddings(seed_run / "results/embed/embeddings.parquet")
    assert ids == fresh_ids == old_ids
    assert np.array_equal(vectors, fresh_vectors)
    assert not np.allclose(vectors, old_vectors, atol=1e-3)  # 64 tokens: other vectors
    assert same_partition(
        pd.read_csv(folder / "results/topics/document_topics.csv"),
        pd.read_csv(fresh / "results/topics/document_topics.csv"),
    )


def monkeypatch_cache(monkeypatch, path) -> str:
    """Point the per-user cache at `path`; returns the session's cache folder."""
    import os

    good = os.environ["PAPERTOPICS_CACHE_DIR"]
    monkeypatch.setenv("PAPERTOPICS_CACHE_DIR", str(path))
    return good
