"""Every failure recoverable with a plain rerun, and runs that end with the lines that matter.

Unit tests first (locks, damaged files, history, full disk, end-of-run lines); then three DAG
runs on a copy of the seed run: a failed run, a kill -9 mid-report, a garbage intermediate.
"""

from __future__ import annotations

import errno
import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import time
import types
import warnings
from collections import namedtuple
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import REPO, SNAKEMAKE, make_corpus_dir, run_snakemake, snakemake_env

from papertopics.errors import PapertopicsError
from papertopics.ingest.listings import ListingWarning
from papertopics.report import render
from papertopics.runtime import folder_lock, recovery, scripting
from papertopics.runtime.run_summary import error_lines, failed_jobs, release_exit, success_lines
from papertopics.topics.history import load_snapshot, save_snapshot, stable_topic_ids
from papertopics.topics.snapshot_store import advance_history


def make_lock(workdir: Path) -> Path:
    lock = workdir / ".snakemake/locks/0.output.lock"
    lock.parent.mkdir(parents=True, exist_ok=True)
    lock.write_text("results/report/index.html\n")
    return lock


# --- 5. locks: stale ones go, live ones stay and are named ------------------------------------


def test_stale_lock_is_removed_live_lock_is_kept(tmp_path):
    lock = make_lock(tmp_path)
    said = []
    assert recovery.recover(tmp_path, say=said.append) is None
    assert not lock.exists()
    assert "removed the lock left by an interrupted run" in said[0]

    make_lock(tmp_path)  # a Snakemake (job) process working in the folder: its lock stays
    other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)", "snakemake"], cwd=tmp_path)
    try:
        for _ in range(50):  # until the child shows its cwd and command line
            live = recovery.recover(tmp_path, say=said.append)
            if live:
                break
            make_lock(tmp_path)
            time.sleep(0.1)
        assert live is not None and live.pid == other.pid
        assert lock.exists()
        advice = live.advice(tmp_path, ["snakemake", "--cores", "4"])
        assert f"kill {other.pid}" in advice and "--unlock" not in advice
    finally:
        other.kill()
        other.wait()


def test_lock_taken_on_another_host_is_kept_and_the_command_given(tmp_path):
    lock = make_lock(tmp_path)
    owner = tmp_path / recovery.OWNER_FILE
    owner.parent.mkdir(parents=True, exist_ok=True)
    owner.write_text(json.dumps({"host": "login-node-7", "pid": 1}))
    live = recovery.recover(tmp_path, say=lambda line: None)
    assert live is not None and lock.exists()
    assert live.advice(tmp_path, ["/venv/bin/snakemake", "--cores", "4"]).endswith(
        "run: snakemake --cores 4 --unlock   and then rerun"
    )


def test_a_run_holding_the_folder_is_named_and_the_folder_left_alone(tmp_path):
    """recover() (the Snakefile, plain snakemake) refuses with one line while another process
    holds the folder's run lock; on another host the line gives no `kill`."""
    lock = make_lock(tmp_path)  # the live run's Snakemake lock: not stale, must stay
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from papertopics.runtime.recovery import hold_folder; "
            "hold_folder(sys.argv[1]); print('held', flush=True); time.sleep(60)",
            str(tmp_path),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(SystemExit) as stopped:
            recovery.recover(tmp_path, say=lambda line: None)
        assert str(stopped.value.code).startswith(
            f"papertopics error: another run is working in {tmp_path.resolve()} (pid {holder.pid}, started "
        )
        assert f"kill {holder.pid}" in str(stopped.value.code) and lock.exists()
    finally:
        holder.kill()
        holder.wait()
    elsewhere = folder_lock._busy_message(tmp_path, {"host": "login-node-7", "pid": 12})
    assert "on host login-node-7" in elsewhere and "kill" not in elsewhere


# --- 7. damaged intermediates are removed (rebuilt), a damaged history reads as none ----------


def test_damaged_intermediates_are_removed_others_kept(tmp_path):
    results = tmp_path / "results"
    for folder in ("embed", "corpus", "cluster", "cache/embeddings", "topics/history/abc"):
        (results / folder).mkdir(parents=True)
    pd.DataFrame({"doc_id": ["a"], "text": ["x"]}).to_parquet(results / "corpus/corpus.parquet")
    (results / "corpus/corpus_stats.json").write_text('{"n_documents": 1}')
    (results / "embed/embeddings.parquet").write_bytes(b"garbage" * 100)
    (results / "cluster/params.json").write_text('{"method": "agglo')  # truncated
    (results / "cache/embeddings/chunk.parquet").write_bytes(b"garbage")  # the cache checks itself
    (results / "topics/history/abc/topics.parquet").write_bytes(b"garbage")  # read with a warning
    # what papertopics' jobs wrote, as script_run notes it before each job
    recovery.record_written(
        [
            "results/corpus/corpus.parquet",
            "results/corpus/corpus_stats.json",
            "results/embed/embeddings.parquet",
            "results/cluster/params.json",
            "results/topics/history/abc/topics.parquet",
        ],
        tmp_path,
    )
    assert not (tmp_path / recovery.WRITTEN).exists()  # not a Snakemake folder: nothing noted
    (tmp_path / ".snakemake").mkdir()
    recovery.record_written(["results/corpus/corpus.parquet", "results/corpus/corpus_stats.json"], tmp_path)
    recovery.record_written(["results/embed/embeddings.parquet", "results/cluster/params.json"], tmp_path)
    recovery.record_written(["results/topics/history/abc/topics.parquet", "/elsewhere/x.json"], tmp_path)
    # a user's own files under results/ that no parser here reads: never papertopics' to delete
    (results / "analysis").mkdir()
    (results / "analysis/records.json").write_text('{"a": 1}\n{"a": 2}\n')  # JSON Lines
    (results / "analysis/empty.json").write_text("")
    (results / "analysis/table.parquet").write_text("a,b\n1,2\n")  # a CSV named .parquet
    (results / "dump.json").write_text('{"text": "an abstract"}\n{"text": "another"}\n')
    said = []
    recovery.recover(tmp_path, say=said.append)
    left = {p.relative_to(results).as_posix() for p in results.rglob("*") if p.is_file()}
    assert left == {
        "corpus/corpus.parquet",
        "corpus/corpus_stats.json",
        "cache/embeddings/chunk.parquet",
        "topics/history/abc/topics.parquet",
        "analysis/records.json",
        "analysis/empty.json",
        "analysis/table.parquet",
        "dump.json",
    }
    assert len(said) == 2 and all(line.startswith("papertopics: removed damaged results/") for line in said)
    assert any("results/embed/embeddings.parquet" in line for line in said)
    # the list holds each path once after a run (it would grow by a run's outputs per run)
    assert (tmp_path / recovery.WRITTEN).read_text().splitlines() == [
        "results/cluster/params.json",
        "results/corpus/corpus.parquet",
        "results/corpus/corpus_stats.json",
        "results/embed/embeddings.parquet",
        "results/topics/history/abc/topics.parquet",
    ]


def test_a_listing_inside_results_is_refused_with_one_line(tmp_path):
    (tmp_path / "results").mkdir()
    (tmp_path / "results/dump.json").write_text('{"text": "an abstract"}\n')
    assert recovery.listing_inside_results("papers.csv", tmp_path) is None
    assert recovery.listing_inside_results(tmp_path.parent / "papers.csv", tmp_path) is None
    assert recovery.listing_inside_results("results-2024/papers.csv", tmp_path) is None
    with pytest.raises(PapertopicsError, match=r"^results/dump.json: a listing inside results/, the folder"):
        recovery.refuse_listings_in_results(["papers.csv", "results/dump.json"], tmp_path)
    (tmp_path / "config.yaml").write_text("listings:\n  - {path: results/dump.json, format: jsonl}\n")
    result = run_snakemake(tmp_path, "-n", check=False, timeout=120)
    assert result.returncode == 1
    assert result.stderr.strip().splitlines()[-1] == (
        "papertopics error: results/dump.json: a listing inside results/, the folder papertopics writes "
        f"its results to; move it out of results/ (e.g. to {tmp_path / 'dump.json'}) and name it there"
    )
    assert (tmp_path / "results/dump.json").exists()


def snapshot_of(labels: dict[int, str], seed: int = 0):
    rng = np.random.default_rng(seed)
    doc_ids = [f"d{i}" for i in range(12)]
    assigned = np.array([0] * 6 + [1] * 6)
    _, _, _, snapshot, meta = stable_topic_ids(
        doc_ids, assigned, labels, rng.normal(size=(12, 4)), None, "cfg"
    )
    return snapshot, meta


def test_history_advances_atomically_and_damage_reads_as_a_fresh_start(tmp_path, caplog):
    history = tmp_path / "history"
    first, second = tmp_path / "first", tmp_path / "second"
    save_snapshot(first, *snapshot_of({0: "a", 1: "b"}))
    save_snapshot(second, *snapshot_of({0: "c", 1: "d"}, seed=1))
    assert load_snapshot(history) is None  # first run
    advance_history(first, history)
    name = advance_history(second, history)
    snapshot, meta = load_snapshot(history)
    assert set(snapshot.topics["label"]) >= {"c", "d"}
    assert sorted(p.name for p in history.iterdir()) == sorted([name, "current.json"])  # old one gone

    (history / name / "topics.parquet").write_bytes(b"not parquet")
    with caplog.at_level(logging.WARNING):
        assert load_snapshot(history) is None
    assert "topics.parquet" in caplog.text or name in caplog.text
    assert "starting topic ids afresh" in caplog.text
    (history / "current.json").write_text("{")
    assert load_snapshot(history) is None


def test_history_in_the_former_flat_layout_is_still_read(tmp_path):
    save_snapshot(tmp_path, *snapshot_of({0: "a", 1: "b"}))
    assert load_snapshot(tmp_path) is not None


# --- 8. a full disk: one line naming where; no partial report file ----------------------------


def fake_job(tmp_path, **params):
    log = tmp_path / "job.log"
    return types.SimpleNamespace(
        rule="render_report",
        threads=1,
        log=[str(log)],
        output=[str(tmp_path / "results/report/index.html")],
        params=types.SimpleNamespace(items=lambda: params.items()),
    )


def test_no_space_left_is_one_line_naming_the_place(tmp_path, capsys):
    job = fake_job(tmp_path)
    with pytest.raises(SystemExit) as stop:
        with scripting.script_run(job):
            raise OSError(
                errno.ENOSPC, "No space left on device", str(tmp_path / "results/report/plotly.min.js")
            )
    assert stop.value.code == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("papertopics error: no space left on /")
    assert "results/report/plotly.min.js" in err[0]
    assert err[0] in (tmp_path / "job.log").read_text()


def test_an_unexpected_error_leaves_its_traceback_in_the_rule_log(tmp_path):
    """A bug (not bad input) still raises with its traceback, and the rule's log keeps it."""
    with pytest.raises(TypeError):
        with scripting.script_run(fake_job(tmp_path)):
            raise TypeError("pack_documents() got multiple values for argument 'threads'")
    log = (tmp_path / "job.log").read_text()
    assert "Traceback (most recent call last)" in log
    assert "TypeError: pack_documents() got multiple values for argument 'threads'" in log


def test_openvino_iostream_error_on_a_full_disk_says_so(tmp_path, monkeypatch):
    error = RuntimeError(
        "Exception from src/core/src/pass/serialize.cpp:1330:\nbasic_ios::clear: iostream error"
    )
    cache = tmp_path / "cache"
    cache.mkdir()
    Usage = namedtuple("Usage", "total used free")
    monkeypatch.setattr(shutil, "disk_usage", lambda path: Usage(10**12, 10**12, 10 * 2**20))
    message = scripting.disk_full_message(error, [cache])
    assert message.startswith("no space left on /") and str(cache) in message and "10 MB free" in message
    monkeypatch.setattr(shutil, "disk_usage", lambda path: Usage(10**12, 0, 10**12))
    assert scripting.disk_full_message(error, [cache]) is None  # plenty of space: not a full disk
    assert scripting.disk_full_message(ValueError("bad value"), [cache]) is None


def test_a_full_cache_elsewhere_is_the_place_named(tmp_path, monkeypatch, capsys):
    """The embedding cache on another, full filesystem: the message names the cache, not
    results/ (an error without a file name: pyarrow's, OpenVINO's)."""
    cache = tmp_path / "elsewhere" / "cache"
    cache.mkdir(parents=True)
    Usage = namedtuple("Usage", "total used free")
    real_usage = shutil.disk_usage
    monkeypatch.setattr(
        shutil,
        "disk_usage",
        lambda path: Usage(10**12, 10**12, 2**20) if "elsewhere" in str(path) else real_usage(path),
    )
    job = fake_job(tmp_path)
    job.output = [str(tmp_path / "results/embed/shards/0.parquet")]
    with pytest.raises(SystemExit):
        with scripting.script_run(job, writes=[cache]):
            raise OSError(errno.ENOSPC, "No space left on device")
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and f"(writing {cache}, 1 MB free)" in err[0], err


def test_a_cache_that_cannot_be_written_is_one_line_naming_it(tmp_path, monkeypatch):
    """Read-only (EROFS: simulated, root writes anywhere) or not a folder: a ConfigError that
    names the cache and what to do, whichever write met it first."""
    from papertopics.embed import user_cache
    from papertopics.errors import ConfigError

    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(
        ConfigError,
        match=rf"the embedding cache {blocker / 'cache'} cannot be written \(Not a directory\); make it "
        r"writable, or point PAPERTOPICS_CACHE_DIR",
    ):
        with user_cache.cache_errors(blocker / "cache"):
            (blocker / "cache").mkdir(parents=True)
    cache = tmp_path / "ro"
    cache.mkdir()

    def read_only(*args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system", str(cache / ".probe"))

    monkeypatch.setattr(user_cache.tempfile, "NamedTemporaryFile", read_only)
    with pytest.raises(ConfigError, match=r"cannot be written \(Read-only file system\)"):
        with user_cache.cache_errors(cache):
            raise RuntimeError("basic_ios::clear: iostream error")  # OpenVINO's IR save
    monkeypatch.undo()
    with pytest.raises(RuntimeError):  # a writable cache: the error is not about it
        with user_cache.cache_errors(cache):
            raise RuntimeError("something else")


def test_a_full_disk_leaves_no_partial_report_file(tmp_path, monkeypatch):
    """plotly.min.js and every page go through a temporary name: a failed copy leaves none."""
    real_copy = shutil.copyfile

    def copy_half_then_fail(source, target, **kwargs):
        with open(source, "rb") as src, open(target, "wb") as dst:
            dst.write(src.read(100_000))
        raise OSError(errno.ENOSPC, "No space left on device", str(target))

    monkeypatch.setattr(shutil, "copyfile", copy_half_then_fail)
    with pytest.raises(OSError):
        render.copy_assets(tmp_path)
    assert list(tmp_path.iterdir()) == []  # no half plotly.min.js, no temporary file
    monkeypatch.setattr(shutil, "copyfile", real_copy)
    assert (render.copy_assets(tmp_path)[0]).stat().st_size == render.plotly_js_path().stat().st_size


# --- end-of-run lines and warnings -----------------------------------------------------------


def test_end_of_run_lines(tmp_path):
    log_a, log_b = tmp_path / "a.log", tmp_path / "b.log"
    log_a.write_text("INFO start\npapertopics error: a.csv: line 2: no text\n")
    log_b.write_text("Traceback (most recent call last):\n  ...\nValueError: boom\n")
    assert error_lines({"parse_listing listing=a": [str(log_a)], "fit_topics": [str(log_b)]}) == [
        "papertopics error: a.csv: line 2: no text",
        f"papertopics error: fit_topics failed: ValueError: boom (log: {log_b})",
    ]
    metrics = tmp_path / "metrics.json"
    metrics.write_text(
        json.dumps({"n_documents": 37, "n_listings": 2, "n_topics": 6, "outlier_share": 0.081})
    )
    index = tmp_path / "index.html"
    index.write_text("<html>")
    assert success_lines(metrics, index) == [
        "papertopics: 6 topics in 37 documents from 2 listings; 8% outliers",
        f"papertopics: report: {index}",
    ]


def test_failed_jobs_are_read_from_snakemakes_complete_log(tmp_path, monkeypatch):
    """onerror gets Snakemake's complete log (a list of paths since Snakemake 8): its "Error in
    rule" entries name the failed jobs and their logs, whose one-line errors end the run."""
    monkeypatch.chdir(tmp_path)  # the log names paths relative to the corpus folder
    job_log = tmp_path / "results/logs/parse_listing/bad.log"
    job_log.parent.mkdir(parents=True)
    job_log.write_text("INFO reading\npapertopics error: bad.csv: line 2: no text\n")
    complete = tmp_path / "run.snakemake.log"
    complete.write_text(
        "[Thu Dec  3 17:51:08 2026]\n"
        "Error in rule parse_listing:\n"
        "    message: None\n"
        "    jobid: 3\n"
        "    output: results/parse/bad.parquet\n"
        f"    log: {job_log} (check log file(s) for error details)\n"
        "    wildcards: listing=bad\n"
        "RuleException:\n"
        "Error in rule render_report:\n"
        "    jobid: 9\n"
        "    log: results/logs/render_report.log (check log file(s) for error details)\n"
        "Exiting because a job execution failed. Look above for error messages\n"
    )
    assert failed_jobs([str(complete)]) == {
        "parse_listing listing=bad": [str(job_log)],
        "render_report": ["results/logs/render_report.log"],
    }
    assert failed_jobs(str(complete)) == failed_jobs([str(complete)])  # Snakemake 7's single path
    assert error_lines(failed_jobs([str(complete)])) == [
        "papertopics error: bad.csv: line 2: no text",
        "papertopics error: render_report failed; see the Snakemake output above "
        "(results/logs/render_report.log)",
    ]
    assert failed_jobs([str(tmp_path / "missing.log")]) == {}


def test_ctrl_c_is_reported_as_interrupted_not_as_a_failed_step(tmp_path):
    job_log = tmp_path / "reduce_embeddings.log"
    job_log.write_text("2026-12-05 08:00:00,000 INFO reduce_embeddings: fitting UMAP\n")
    log = tmp_path / "snakemake.log"
    log.write_text(
        "Terminating processes on user request, this might take some time.\n"
        "Error in rule reduce_embeddings:\n    jobid: 7\n"
        f"    log: {job_log} (check log file(s) for error details)\n"
    )
    failed = failed_jobs(str(log))
    assert list(failed) == ["reduce_embeddings"] and failed.interrupted
    assert error_lines(failed) == [
        "papertopics: interrupted (Ctrl-C) while reduce_embeddings ran; rerun the same command to finish "
        "(the steps already done are kept)"
    ]
    log.write_text(log.read_text().split("\n", 1)[1])  # a real failure: its step and last line
    assert error_lines(failed_jobs(str(log)))[0].startswith("papertopics error: reduce_embeddings failed: ")


def test_warnings_are_one_clean_line(tmp_path):
    with scripting.script_run(fake_job(tmp_path)):
        format_warning = warnings.formatwarning
    script = "/corpus/.snakemake/scripts/tmpk3x9.parse_listing.py"
    assert (
        format_warning("a.txt: record 3 is empty\n  (skipped)", ListingWarning, script, 15)
        == "ListingWarning: a.txt: record 3 is empty (skipped)"
    )
    assert (
        format_warning("n_jobs value 1 overridden", UserWarning, "/venv/umap/umap_.py", 1952)
        == "UserWarning: n_jobs value 1 overridden (umap/umap_.py:1952)"
    )


# --- DAG runs ---------------------------------------------------------------------------------


def copy_run(seed_run: Path, target: Path) -> Path:
    shutil.copytree(seed_run, target, symlinks=True, ignore=shutil.ignore_patterns("cache"))
    return target


@pytest.mark.slow
def test_failed_run_ends_with_the_papertopics_error(tmp_path):
    workdir = make_corpus_dir(tmp_path / "bad", "listings:\n  - papers.csv\n")
    (workdir / "papers.csv").write_text("foo,bar\n1,2\n", encoding="utf-8")
    result = run_snakemake(workdir, "--cores", "1", check=False)
    assert result.returncode != 0
    last = result.stderr.strip().splitlines()[-1]
    assert last.startswith("papertopics error: ") and "papers.csv" in last and "no text column" in last, last


@pytest.mark.slow
def test_kill_9_mid_report_then_a_plain_rerun_recovers(seed_run, tmp_path):
    """kill -9 while the report is written, after a refit: the history stays where it was, the
    lock and incomplete pages stay behind; a plain rerun (no --unlock, no --rerun-incomplete)
    finishes, ends with the summary and the report's path, and only then advances the history."""
    workdir = copy_run(seed_run, tmp_path / "killed")
    pointer = workdir / "results/topics/history/current.json"
    before = pointer.read_text()
    with open(workdir / "config.yaml", "a", encoding="utf-8") as config:
        config.write("representation:\n  label_terms: 2\n")  # refits topics: a new snapshot
    report_log = workdir / "results/logs/render_report.log"
    report_log.unlink()
    command = [
        *SNAKEMAKE,
        "--snakefile",
        str(REPO / "Snakefile"),
        "--directory",
        str(workdir),
        "--configfile",
        str(workdir / "config.yaml"),
        "--cores",
        "2",
    ]
    run = subprocess.Popen(
        command,
        cwd=workdir,
        env=snakemake_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        deadline = time.time() + 600
        while time.time() < deadline and run.poll() is None:
            if report_log.exists() and "index.html:" in report_log.read_text():
                break
            time.sleep(0.2)
        assert run.poll() is None, "the run ended before the report was being written"
    finally:
        os.killpg(run.pid, signal.SIGKILL)
        run.wait()
    assert list((workdir / ".snakemake/locks").glob("*.lock")), "kill -9 should leave Snakemake's lock"
    assert pointer.read_text() == before, "the history advanced although the run did not finish"

    result = run_snakemake(workdir, "--cores", "2")
    lines = result.stderr.strip().splitlines()
    assert "removed the lock left by an interrupted run" in result.stderr
    assert lines[-2].startswith("papertopics: ") and "topics in 37 documents from 2 listings" in lines[-2]
    assert lines[-1] == f"papertopics: report: {workdir / 'results/report/index.html'}"
    assert pointer.read_text() != before
    meta = json.loads(
        (pointer.parent / json.loads(pointer.read_text())["snapshot"] / "meta.json").read_text()
    )
    assert meta == json.loads((workdir / "results/topics/snapshot/meta.json").read_text())


@pytest.mark.slow
def test_looking_leaves_the_folder_alone_a_run_recovers_it(seed_run, tmp_path):
    """A dry run and --lint only look: a stale lock and a garbage intermediate stay, and no
    recovery line is printed. The next run removes both and rebuilds the intermediate."""
    workdir = copy_run(seed_run, tmp_path / "garbage")
    lock = make_lock(workdir)
    embeddings = workdir / "results/embed/embeddings.parquet"
    embeddings.write_bytes(b"\x00garbage" * 1000)
    for look in (["--cores", "1", "--dry-run"], ["-np"], ["--lint"]):
        result = run_snakemake(workdir, *look, check=False)
        assert "papertopics: removed" not in result.stdout + result.stderr, look
        assert lock.exists() and embeddings.read_bytes() == b"\x00garbage" * 1000, look
    result = run_snakemake(workdir, "--cores", "1", "--until", "gather_embeddings")
    assert "removed the lock left by an interrupted run" in result.stderr
    assert "removed damaged results/embed/embeddings.parquet" in result.stderr
    assert not lock.exists()
    assert pd.read_parquet(embeddings).equals(pd.read_parquet(seed_run / "results/embed/embeddings.parquet"))


def test_only_a_command_that_runs_jobs_recovers():
    """Read with Snakemake's own parser: short flags together (-np), either dry-run spelling."""
    assert recovery.runs_jobs(["snakemake", "--cores", "4"])
    assert recovery.runs_jobs(["/venv/lib/snakemake/__main__.py", "--cores", "2", "--rerun-incomplete"])
    for looks in (
        ["-n"],
        ["-np"],
        ["--dryrun", "--cores", "2"],
        ["--lint"],
        ["--lint", "json"],
        ["--report", "report.zip"],
        ["--report"],
        ["--dag"],
        ["--summary"],
        ["--unlock"],
        ["--touch", "--cores", "1"],
        ["--executor", "dryrun"],
    ):
        assert not recovery.runs_jobs(["snakemake", *looks]), looks
    assert recovery.runs_jobs(["pytest", "-n", "2"])  # not Snakemake's command line: as before


def test_a_damaged_input_is_one_line_naming_it(tmp_path, capsys):
    """Damage the parse-time sweep missed (or made mid-run) fails with the file named."""
    damaged = tmp_path / "embeddings.parquet"
    damaged.write_bytes(b"\x00garbage" * 100)
    job = fake_job(tmp_path)
    job.input = [str(damaged)]
    with pytest.raises(SystemExit):
        with scripting.script_run(job):
            pd.read_parquet(damaged)
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"papertopics error: {damaged} is damaged (")
    assert err[0].endswith("delete it and rerun, the run rebuilds it")


def test_the_schedulers_last_wake_up_does_not_hold_the_exit():
    """Snakemake re-arms a non-daemon 1 s timer after every scheduling pass; the interpreter
    waited for the last one after every run that ran a job. Only Snakemake's are cancelled."""
    import threading

    def wake_up():
        pass

    wake_up.__module__ = "snakemake.scheduling.job_scheduler"  # as the scheduler's lambda reads
    scheduler_timer = threading.Timer(30, wake_up)
    other_timer = threading.Timer(30, lambda: None)
    scheduler_timer.start()
    other_timer.start()
    try:
        assert release_exit() == 1
        scheduler_timer.join(timeout=5)
        assert not scheduler_timer.is_alive()
        assert other_timer.is_alive()  # somebody else's timer is left alone
    finally:
        scheduler_timer.cancel()
        other_timer.cancel()


def test_our_warnings_are_repeated_at_the_end_of_a_run(tmp_path):
    """A listing's warning printed mid-run among Snakemake's lines is read again at the end,
    once; library warnings and logs of jobs an earlier run ran are left alone."""
    import os
    import time

    from papertopics.runtime.run_summary import warning_lines

    logs = tmp_path / "logs"
    (logs / "parse_listing").mkdir(parents=True)
    old = logs / "fit_topics.log"
    old.write_text("2026-01-01 10:00:00,000 WARNING fit_topics: from an earlier run\n")
    os.utime(old, (time.time() - 3600, time.time() - 3600))
    started = time.time() - 1
    (logs / "parse_listing" / "a.log").write_text(
        "2026-01-01 10:00:00,000 INFO parse_listing: 3 abstracts\n"
        "2026-01-01 10:00:00,000 WARNING py.warnings: ListingWarning: a.jsonl: skipped 1 record(s) "
        "with an empty abstract: line 1\n"
        "2026-01-01 10:00:00,000 WARNING py.warnings: FutureWarning: a library's (x.py:3)\n"
    )
    (logs / "cluster_documents.log").write_text(
        "2026-01-01 10:00:00,000 WARNING papertopics.cluster: hdbscan.min_cluster_size: 500 is more\n"
        "2026-01-01 10:00:00,000 WARNING papertopics.cluster: hdbscan.min_cluster_size: 500 is more\n"
    )
    assert warning_lines(logs, started) == [
        "papertopics warning: hdbscan.min_cluster_size: 500 is more",
        "papertopics warning: a.jsonl: skipped 1 record(s) with an empty abstract: line 1",
    ]


def test_snakemake_still_leaves_a_timer_at_the_end_of_a_run(tmp_path):
    """The canary for release_exit: Snakemake (9.27: 1.0 s) still has its scheduler's timer
    pending when onsuccess runs. If this fails, a Snakemake release stopped doing so and
    release_exit can go."""
    (tmp_path / "Snakefile").write_text(
        "import sys\n"
        "from papertopics.runtime.run_summary import release_exit\n"
        "rule done:\n"
        "    output: 'done.txt'\n"
        "    run:\n"
        "        open(output[0], 'w').close()\n"
        "onsuccess:\n"
        "    print('timers cancelled:', release_exit(), file=sys.stderr)\n"
    )
    result = subprocess.run(
        [*SNAKEMAKE, "--cores", "1", "--force-use-threads", "--workflow-profile", "none"],
        cwd=tmp_path,
        env=snakemake_env(),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    assert "timers cancelled: 1" in result.stderr


@pytest.mark.parametrize(
    "mine",
    [
        "results/topics/model/notes.txt",
        "results/topics/snapshot/mine.csv",
        "results/topics/history/mine/a.txt",
        "results/report/data/mine.txt",  # issue 57 case 7: every directory() output, not only the model's
        "results/report_data/data/notes.md",
        "results/report_data/mine.csv",
        "results/report_bundle/topic-report/notes.html",
        "results/report/figures/my_plot.png",  # issue 65 item 16: draw_figures' folder too
        "results/report_bundle/topic-report/figures/my_plot.png",
    ],
)
def test_a_file_of_yours_in_a_folder_the_pipeline_replaces_is_refused_before_anything_goes(tmp_path, mine):
    """Issue 51 row 7: a file of the user's in results/topics/model/ (snapshot/, history/mine/)
    was deleted on the next rerun, silently. The run stops with one line; nothing is deleted."""
    (tmp_path / "results/topics/model").mkdir(parents=True)
    (tmp_path / "results/topics/model/config.json").write_text("{}")
    (tmp_path / "results/topics/history/abc").mkdir(parents=True)
    (tmp_path / "results/topics/history/abc/meta.json").write_text("{}")
    (tmp_path / "results/topics/history/current.json").write_text("{}")
    for own in ["report/data/docs-0.js", "report_data/data/headlines.js", "report_data/documents.json"]:
        (tmp_path / "results" / own).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "results" / own).write_text("x")
    for own in ["figures/document_map.svg", "figures/over_time.png"]:  # draw_figures'
        (tmp_path / "results/report" / own).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "results/report" / own).write_text("x")
    for own in ["index.html", "plotly.min.js", "report.js", "data/docs-12.js", "figures/document_map.png"]:
        (tmp_path / "results/report" / own).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "results/report" / own).write_text("x")
        (tmp_path / "results/report_bundle/topic-report" / own).parent.mkdir(parents=True, exist_ok=True)
        os.link(tmp_path / "results/report" / own, tmp_path / "results/report_bundle/topic-report" / own)
    assert recovery.recover(tmp_path, say=lambda line: None) is None  # papertopics' own files only
    recovery.release_folder(tmp_path)
    path = tmp_path / mine
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("my notes")
    with pytest.raises(SystemExit) as stop:
        recovery.recover(tmp_path, say=lambda line: None)
    recovery.release_folder(tmp_path)
    assert str(stop.value).startswith(f"papertopics error: {mine}: not a file papertopics wrote"), stop.value
    from papertopics.report.document_data import CHUNK_FOLDER, HEADLINES_FILE
    from papertopics.report.figures import FIGURES
    from papertopics.runtime import owned_folders

    assert (owned_folders.CHUNK_FOLDER, owned_folders.DATA_FILES[0]) == (CHUNK_FOLDER, HEADLINES_FILE)
    assert owned_folders.FIGURE_NAMES == tuple(FIGURES)
    assert "\n" not in str(stop.value) and path.read_text() == "my notes"


def _finished_topic_tables(folder: Path) -> None:
    """topics.csv, document_topics.csv and pinned.csv as curate_topics leaves them (ledger too)."""
    topics = folder / "results/topics"
    topics.mkdir(parents=True)
    pd.DataFrame({"topic": [-1, 0, 1], "label": ["Outliers", "a", "b"], "size": [1, 2, 2]}).to_csv(
        topics / "topics.csv", index=False
    )
    pd.DataFrame({"doc_id": list("vwxyz"), "topic": [0, 0, 1, 1, -1], "title": list("VWXYZ")}).to_csv(
        topics / "document_topics.csv", index=False
    )
    (topics / "pinned.csv").write_text("topic,name,rank,similarity,doc_id,title,listings\n")
    (folder / ".snakemake/papertopics").mkdir(parents=True)
    (folder / ".snakemake/papertopics/written.txt").write_text(
        "".join(f"results/topics/{n}\n" for n in ("topics.csv", "document_topics.csv", "pinned.csv"))
    )
    old = time.time() - 60
    for path in topics.iterdir():
        os.utime(path, (old, old))


def test_a_hand_edited_document_topics_is_kept_aside_and_rebuilt_by_the_rerun(tmp_path):
    """Issue 57 case 9: load() said "rerun papertopics run there", but the rerun kept the edited
    document_topics.csv (Snakemake reruns for newer inputs, never for a changed output): the
    report showed "Topic 3 ... 0 documents" and load() still refused. Now the rerun keeps the edit
    as document_topics.edited.csv (nothing deleted) and rebuilds the table; one line says so."""
    _finished_topic_tables(tmp_path)
    table = tmp_path / "results/topics/document_topics.csv"
    edited = table.read_text().replace("x,1,X", "x,0,X")  # paper x moved from topic 1 to topic 0 by hand
    table.write_text(edited)
    said: list[str] = []
    assert recovery.recover(tmp_path, say=said.append) is None
    recovery.release_folder(tmp_path)
    assert not table.exists()  # so this run's curate_topics writes it again
    assert (tmp_path / "results/topics/document_topics.edited.csv").read_text() == edited
    assert said == [
        "papertopics: results/topics/document_topics.csv was edited (topic 0 has size 2, but "
        "document_topics.csv gives it 3 documents); kept as results/topics/document_topics.edited.csv, "
        "this run rebuilds it (steer topics in config.yaml: topics.names, topics.merge, topics.pinned)"
    ]


def test_tables_that_agree_or_are_only_copied_are_left_as_they_are(tmp_path):
    _finished_topic_tables(tmp_path)
    table = tmp_path / "results/topics/document_topics.csv"
    table.write_text(table.read_text().replace(",V\n", ",my own title\n"))  # a new mtime, sizes agree
    said: list[str] = []
    assert recovery.recover(tmp_path, say=said.append) is None
    recovery.release_folder(tmp_path)
    assert said == [] and "my own title" in table.read_text()


@pytest.mark.slow
def test_the_rerun_after_a_hand_edit_of_document_topics_gives_tables_load_reads(seed_run, tmp_path):
    """Issue 57 case 9, end to end: the advice load() gives (rerun) now fixes the folder."""
    from papertopics.results import load

    folder = tmp_path / "edited"
    shutil.copytree(seed_run, folder, symlinks=True)
    table = folder / "results/topics/document_topics.csv"
    documents = pd.read_csv(table)
    topics = sorted(t for t in documents["topic"].unique() if t >= 0)
    documents.loc[documents["topic"] == topics[0], "topic"] = topics[1]  # topic 0's papers moved by hand
    documents.to_csv(table, index=False)
    with pytest.raises(PapertopicsError, match="rerun `papertopics run` there"):
        _ = load(folder).topics
    result = run_snakemake(folder, "--cores", "2")
    assert "document_topics.csv was edited" in result.stdout + result.stderr
    assert (folder / "results/topics/document_topics.edited.csv").is_file()
    results = load(folder)
    assert int(results.topics.set_index("topic").loc[topics[0], "size"]) > 0
    assert " 0 documents" not in (folder / "results/report/index.html").read_text()
