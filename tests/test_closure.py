"""A rule's `code` param (runtime.closure.code_version): what its job runs, the package data those
modules read and the libraries that shape their output; a dry run consumes nothing (issue 60)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import REPO

from papertopics.runtime import closure
from papertopics.runtime.closure import code_version, manifest, record_path, script_modules

NAME_DATA = {"topics/names/title_use.tsv.gz", "topics/names/keyphrase_suffixes.tsv.gz"}


def script(name: str) -> list[str]:
    return script_modules(REPO / "workflow" / "scripts" / f"{name}.py")


def test_the_jobs_that_bake_the_name_data_in_hold_it_and_no_other_job_does():
    """title_use and keyphrase_suffixes are read by topics/names/score.py: index_phrases
    (name_index.pkl) and fit_topics rerun when one is rebuilt; parsing does not."""
    assert NAME_DATA <= set(manifest(script("index_phrases")))
    assert NAME_DATA <= set(manifest(["papertopics.topics.fit"]))
    assert not NAME_DATA & set(manifest(script("parse_listing")))
    assert not NAME_DATA & set(manifest(["papertopics.topics.snapshot_store"]))


def test_the_libraries_that_shape_a_job_are_part_of_its_code():
    assert {"umap-learn (library)", "scikit-learn (library)"} <= set(manifest(script("reduce_embeddings")))
    assert "bertopic (library)" in manifest(["papertopics.topics.fit"])
    assert "hdbscan (library)" in manifest(["papertopics.cluster.stage"])
    assert {"torch (library)", "openvino (library)", "sentence-transformers (library)"} <= set(
        manifest(script("embed_shard"))
    )
    assert not [entry for entry in manifest(["papertopics.topics.snapshot_store"]) if "library" in entry]


def test_a_library_upgrade_changes_the_code_and_names_both_versions(tmp_path, monkeypatch):
    modules = script("reduce_embeddings")
    before, changed, damaged = code_version("reduce", modules, tmp_path, record=True)
    assert (changed, damaged) == ([], None)  # the first run: nothing to compare with
    real = closure.library_version
    monkeypatch.setattr(closure, "library_version", lambda d: "99.0" if d == "umap-learn" else real(d))
    after, changed, _ = code_version("reduce", modules, tmp_path, record=True)
    assert after != before
    assert changed == [f"umap-learn {real('umap-learn')} -> 99.0"]
    assert code_version("reduce", modules, tmp_path, record=True)[1] == []  # said once per run


def test_a_dry_run_writes_nothing_and_says_what_changed_every_time(tmp_path):
    """A dry run (record=False) plans by the digest alone: the record keeps the last run's code,
    so the line comes again until a run that runs jobs; that run's record then matches."""
    modules = ["papertopics.topics.snapshot_store"]
    code_version("history", modules, tmp_path, record=True)
    path = tmp_path / record_path("history")
    edited = path.read_text().replace("topics/snapshot_store.py", "topics/old_store.py")
    path.write_text(edited)
    for _ in range(2):
        _, changed, _ = code_version("history", modules, tmp_path, record=False)
        assert changed == ["topics/old_store.py", "topics/snapshot_store.py"]
        assert path.read_text() == edited
    code_version("history", modules, tmp_path, record=True)
    assert code_version("history", modules, tmp_path, record=False)[1] == []


@pytest.mark.parametrize("record", [False, True])
def test_a_record_that_is_not_utf8_is_one_line_and_rebuilt(tmp_path, record):
    path = tmp_path / record_path("fit")
    path.parent.mkdir(parents=True)
    path.write_bytes(b"\xff\xfe not a record\n")
    digest, changed, damaged = code_version("fit", ["papertopics.topics.fit"], tmp_path, record=record)
    assert changed == []
    then = "rebuilt" if record else "the next run rebuilds it"
    assert damaged == f".snakemake/papertopics/code/fit.txt did not read (not UTF-8); {then}"
    assert path.read_text(encoding="utf-8", errors="replace").startswith("\ufffd") != record
    assert code_version("fit", ["papertopics.topics.fit"], tmp_path)[0] == digest


def test_the_same_code_in_another_folder_is_the_same_param(tmp_path):
    """Hashes of package-relative paths and versions: a moved or copied folder reruns nothing."""
    modules = ["papertopics.topics.fit"]
    here = code_version("fit", modules, tmp_path / "a", record=True)[0]
    assert code_version("fit", modules, tmp_path / "b")[0] == here
    assert all(not Path(entry).is_absolute() for entry in manifest(modules))


@pytest.mark.parametrize(
    "job, library",
    [
        (["papertopics.analyses.describe"], "statsmodels"),  # the trends' tests
        (["papertopics.analyses.describe"], "nameparser"),  # the authors
        (["papertopics.analyses.describe"], "pycountry"),  # the countries, named in the registry
        ("draw_figures", "matplotlib"),
        ("parse_listing", "rispy"),
        ("parse_listing", "bibtexparser"),
    ],
)
def test_a_job_takes_the_versions_of_the_libraries_its_modules_import(tmp_path, monkeypatch, job, library):
    """Issue 65, item 17: the libraries come from the job's closure, not a fixed list; an upgrade
    of one changes the code of the jobs that import it and names both versions."""
    modules = script(job) if isinstance(job, str) else job
    assert f"{library} (library)" in manifest(modules)
    before, _, _ = code_version("job", modules, tmp_path, record=True)
    real = closure.library_version
    monkeypatch.setattr(closure, "library_version", lambda d: "99.0" if d == library else real(d))
    after, changed, _ = code_version("job", modules, tmp_path, record=True)
    assert after != before and changed == [f"{library} {real(library)} -> 99.0"]
    # a job that does not import it keeps its code
    assert f"{library} (library)" not in manifest(["papertopics.topics.snapshot_store"])


def test_the_standard_library_and_the_workflow_engine_are_no_code_version():
    entries = [e for e in manifest(script("parse_listing")) if e.endswith("(library)")]
    assert entries and not {"snakemake (library)", "os (library)", "re (library)", "psutil (library)"} & set(
        entries
    )
    assert closure.top_level_imports("import os, numpy.linalg as la\nfrom scipy.stats import chi2\n") == {
        "os",
        "numpy",
        "scipy",
    }
