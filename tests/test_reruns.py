"""Reruns after a failure or a partial run give what a fresh folder gives (real Snakemake runs)."""

from __future__ import annotations

import ast
import gzip
import hashlib
import json
import os
import re
import shutil
import subprocess
from importlib.metadata import version
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import REPO, SNAKEMAKE, make_corpus_dir, run_snakemake, snakemake_env

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


def _checkout_copy(root: Path) -> Path:
    """The repository's Snakefile, workflow, profile and package, copied to `root`."""
    root.mkdir(parents=True)
    skip = shutil.ignore_patterns("__pycache__", "*.egg-info")
    for name in ("Snakefile", "workflow", "profiles", "src"):
        source = REPO / name
        if source.is_dir():
            shutil.copytree(source, root / name, ignore=skip)
        else:
            shutil.copy2(source, root / name)
    return root


def _dry_run(checkout: Path, folder: Path, *paths: Path, dry: bool = True) -> tuple[set[str], str]:
    """The rules a dry run with `checkout`'s Snakefile and package plans in `folder` (`paths` first
    on the Python path), and stderr; with `dry` False, the rules a real run ran."""
    env = snakemake_env()
    env["PYTHONPATH"] = os.pathsep.join([*map(str, paths), str(checkout / "src"), env["PYTHONPATH"]])
    command = [*SNAKEMAKE, "--snakefile", str(checkout / "Snakefile"), "--directory", str(folder)]
    result = subprocess.run(
        [*command, "--cores", "1", *(["--dry-run"] if dry else [])],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr[-4000:]
    table = (result.stdout + result.stderr).split("Job stats:")[-1]
    planned = {m.group(1) for m in re.finditer(r"^(\w+)\s+\d+\s*$", table, re.M)} - {"total", "all"}
    return planned if "Job stats:" in result.stdout + result.stderr else set(), result.stderr


def test_an_edited_helper_of_fit_topics_reruns_fit_topics(seed_run, tmp_path):
    """fit_topics calls merge_clusters from another module: editing that module (in a copy of
    the repository) reruns fit_topics and what reads its tables, nothing upstream, and says
    which module changed. The copy itself (the same code at another path, as a reinstall)
    reruns nothing."""
    folder = tmp_path / "folder"
    shutil.copytree(seed_run, folder, symlinks=True)
    checkout = _checkout_copy(tmp_path / "checkout")
    assert _dry_run(checkout, folder)[0] == set()

    fit = ast.parse((checkout / "src/papertopics/topics/fit.py").read_text())
    helper = next(
        node.module
        for node in ast.walk(fit)
        if isinstance(node, ast.ImportFrom) and "merge_clusters" in {alias.name for alias in node.names}
    )
    assert helper != "papertopics.topics.fit"
    module = checkout / "src" / Path(*helper.split(".")).with_suffix(".py")
    module.write_text(module.read_text() + "\n# an edit of merge_clusters' module\n")

    planned, said = _dry_run(checkout, folder)
    fit_and_after = {
        "fit_topics",
        "curate_topics",
        "evaluate_topics",
        "render_report",
        "bundle_report",
        "write_workbook",
        "describe_topics",
        "advance_history",
        "draw_figures",
        "write_vosviewer",
        "write_references",
    }
    assert planned == fit_and_after
    changed = module.relative_to(checkout / "src/papertopics").as_posix()
    line = f"papertopics: package files or libraries changed since the last run here: {changed};"
    assert said.count(line) == 1
    again, said_again = _dry_run(checkout, folder)
    assert again == fit_and_after  # a dry run does not lose the rerun
    assert line in said_again  # nor the line (issue 60)

    # edit, dry run, revert: nothing changed since the last run, and nothing says so (issue 57)
    module.write_text(module.read_text().removesuffix("\n# an edit of merge_clusters' module\n"))
    ran, said = _dry_run(checkout, folder, dry=False)
    assert ran == set()
    assert "Nothing to be done" in said
    assert "changed since the last run" not in said


def test_a_rebuilt_name_data_file_or_a_library_upgrade_reruns_the_jobs_it_shapes(seed_run, tmp_path):
    """name_index.pkl bakes in topics/names/*.tsv.gz: rebuilding one reruns index_phrases and
    fit_topics (and what follows); a newer scikit-learn (a pretend one, by its metadata) reruns
    the jobs importing it; each says what changed in one line."""
    folder = tmp_path / "folder"
    shutil.copytree(seed_run, folder, symlinks=True)
    checkout = _checkout_copy(tmp_path / "checkout")
    after_fit = {"fit_topics", "curate_topics", "evaluate_topics", "render_report", "bundle_report"}
    after_fit |= {"write_workbook", "describe_topics", "draw_figures", "advance_history"}
    after_fit |= {"write_vosviewer", "write_references"}  # the VOSviewer and reference-manager files
    names = checkout / "src/papertopics/topics/names"
    for data in sorted(names.glob("*.tsv.gz")):
        saved = data.read_bytes()
        data.write_bytes(gzip.compress(gzip.decompress(saved), compresslevel=1, mtime=0))
        planned, said = _dry_run(checkout, folder)
        assert planned == {"index_phrases", "embed_phrases", *after_fit}, data.name
        changed = f"topics/names/{data.name}"
        assert f"changed since the last run here: {changed}; the jobs that use them rerun" in said
        data.write_bytes(saved)
    assert _dry_run(checkout, folder)[0] == set()

    fake = tmp_path / "site"
    metadata = fake / "scikit_learn-99.0.dist-info" / "METADATA"
    metadata.parent.mkdir(parents=True)
    metadata.write_text("Metadata-Version: 2.1\nName: scikit-learn\nVersion: 99.0\n")
    planned, said = _dry_run(checkout, folder, fake)
    assert {"count_terms", "reduce_embeddings", "cluster_documents", *after_fit} <= planned
    assert not {"parse_listing", "build_corpus", "embed_shard", "index_phrases"} & planned
    assert f"scikit-learn {version('scikit-learn')} -> 99.0; the jobs that use them rerun" in said
