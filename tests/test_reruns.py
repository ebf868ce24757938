"""Reruns after a failure or a partial run give what a fresh folder gives (real Snakemake runs)."""

from __future__ import annotations

import hashlib
import json
import shutil

import numpy as np
import pandas as pd
import pytest
from conftest import make_corpus_dir, run_snakemake

from papertopics.artifacts import load_embeddings
from papertopics.topics.snapshot_store import SNAPSHOT_FILES

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


def history_at(folder) -> str:
    return json.loads((folder / "results/topics/history/current.json").read_text())["snapshot"]


def snapshot_name(folder) -> str:
    digest = hashlib.sha256()
    for name in SNAPSHOT_FILES:
        digest.update((folder / "results/topics/snapshot" / name).read_bytes())
    return digest.hexdigest()[:16]


def test_history_advances_only_with_a_finished_report(seed_run, tmp_path):
    """`--until fit_topics` after a change: no stale summary, the history stays; the plain run
    that writes the report advances it, so the next change is compared with that run."""
    folder = tmp_path / "until"
    shutil.copytree(seed_run, folder, symlinks=True)
    first = history_at(folder)
    assert first == snapshot_name(folder)
    config = folder / "config.yaml"
    base = config.read_text()
    config.write_text(base + "agglomerative:\n  n_topics: 3\n")
    until = run_snakemake(folder, "--cores", "2", "--until", "fit_topics")
    last = until.stderr.strip().splitlines()[-1]
    assert last.startswith("papertopics: stopped early as asked (--until fit_topics)"), last
    assert "topics in" not in until.stderr  # no metrics of the previous run quoted
    assert history_at(folder) == first != snapshot_name(folder)

    run_snakemake(folder, "--cores", "2")
    assert history_at(folder) == snapshot_name(folder) != first
    seen = pd.read_csv(folder / "results/topics/topics.csv")
    seen_sizes = sorted(seen.loc[seen["topic"] >= 0, "size"])
    assert len(seen_sizes) == 3

    config.write_text(base + "agglomerative:\n  n_topics: 5\n")
    run_snakemake(folder, "--cores", "2")
    changes = pd.read_csv(folder / "results/topics/changes.csv")
    previous = changes[(changes["topic"] >= 0) & (changes["prev_size"].fillna(0) > 0)]
    # what changed is measured against the 3-topic run the user saw, not the one before it
    assert sorted(previous["prev_size"].astype(int)) == seen_sizes, changes
