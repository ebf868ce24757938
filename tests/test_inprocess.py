"""Light jobs run one package function in Snakemake's own process, from a `run:` block
(papertopics.runtime.inprocess.run_job): the function reads its job's names, logs to its rule's log
only, and fails the way a job does."""

import importlib
import logging
import os
import re
import sys
import threading
import traceback
import warnings
from pathlib import Path

import pytest
from snakemake.iocontainers import InputFiles, Log, OutputFiles, Params
from threadpoolctl import threadpool_info

from papertopics.errors import ListingError
from papertopics.runtime.inprocess import in_process, run_job
from papertopics.runtime.scripting import JobFailed


def count_words_job(job, log):
    """A light job as the package's are written (`<rule>_job(job, log)`)."""
    import numpy  # noqa: F401 - its BLAS pool is what the cap acts on

    if job.params.fail == "exit":
        raise SystemExit(3)
    if job.params.fail:
        raise ListingError("papers.csv: line 2: no text")
    log.info("words in %s: %d", job.rule, len(Path(job.input.text).read_text().split()))
    logging.getLogger("papertopics.anything").info("a library logger, same thread")
    warnings.warn("a warning in the job", stacklevel=1)
    pools = sorted({pool["num_threads"] for pool in threadpool_info()})
    Path(job.output[0]).write_text(f"{in_process()} {pools} {job.threads}")


def job_names(tmp_path, fail=False):
    """input, output, params, threads, log as a `run:` block sees them."""
    (tmp_path / "in.txt").write_text("three short words")
    return (
        InputFiles(fromdict={"text": str(tmp_path / "in.txt")}),
        OutputFiles([str(tmp_path / "out.txt")]),
        Params(fromdict={"fail": fail}),
        1,
        Log([str(tmp_path / "job.log")]),
    )


def test_a_job_run_in_process_reads_its_names_and_logs_only_its_own_records(tmp_path):
    main_module, argv = sys.modules["__main__"], list(sys.argv)
    root = logging.getLogger()
    handlers, level, environment = list(root.handlers), root.level, dict(os.environ)
    other = logging.getLogger("another_job")
    stop = threading.Event()

    def another_job():  # a job in another thread of the same process, logging all the while
        while not stop.is_set():
            other.warning("not this job's record")
            warnings.warn_explicit("not this job's warning", UserWarning, "elsewhere.py", 1)

    neighbour = threading.Thread(target=another_job)
    with warnings.catch_warnings(record=True) as shown:  # what the process shows, as Python would
        warnings.simplefilter("always")
        neighbour.start()
        try:
            run_job(count_words_job, *job_names(tmp_path))
        finally:
            stop.set()
            neighbour.join()
        warnings.warn("after the job", stacklevel=1)
    # the job's warning went to its log only; other threads' and later ones are shown as before
    assert {str(w.message) for w in shown} == {"not this job's warning", "after the job"}
    # the rule's thread cap on BLAS (as Snakemake's variables cap a script: job)
    assert (tmp_path / "out.txt").read_text() == "True [1] 1"
    log = (tmp_path / "job.log").read_text()
    assert "count_words: words in count_words: 3" in log  # the rule's name, from `<rule>_job`
    assert "papertopics.anything: a library logger, same thread" in log
    assert "not this job's record" not in log
    assert "UserWarning: a warning in the job (" in log and "not this job's warning" not in log
    # nothing process-wide is left changed: Snakemake's own logging, thread caps, the flag
    assert root.handlers == handlers and root.level in (level, logging.INFO)
    assert dict(os.environ) == environment
    assert sys.modules["__main__"] is main_module and sys.argv == argv
    assert not in_process()


def test_bad_input_in_process_is_one_line_and_fails_the_job_not_the_process(tmp_path, capsys):
    """SystemExit would escape Snakemake's job thread (the run would wait forever): JobFailed."""
    with pytest.raises(JobFailed) as failed:
        run_job(count_words_job, *job_names(tmp_path, fail=True))
    line = "papertopics error: papers.csv: line 2: no text"
    assert str(failed.value) == line
    frames = traceback.extract_tb(failed.value.__traceback__)
    # what Snakemake shows under the line: run_job raising, not the job's own frames
    assert frames[-1].filename.endswith("inprocess.py") and "count_words_job" not in {f.name for f in frames}
    assert capsys.readouterr().err.strip().splitlines() == [line]
    assert line in (tmp_path / "job.log").read_text()
    assert not (tmp_path / "out.txt").exists()


def test_a_job_that_exits_fails_instead_of_hanging_the_run(tmp_path):
    """SystemExit escapes Snakemake's job thread: the run would wait forever for the job."""
    with pytest.raises(JobFailed, match="count_words exited with status 3"):
        run_job(count_words_job, *job_names(tmp_path, fail="exit"))
    assert not in_process()


def test_every_light_rule_calls_a_job_function_of_the_module_it_names_as_input():
    """Each `run:` block imports `<rule>_job` from the module its `code` param names, so editing
    that module reruns the job; the light rules' scripts are gone."""
    repo = Path(__file__).resolve().parents[1]
    rules = {  # rule name -> its text, up to the next rule or the end of its file
        chunk.split(":")[0]: chunk.split("\n\n\n")[0]
        for path in sorted((repo / "workflow/rules").glob("*.smk"))
        for chunk in re.split(r"^(?:rule|checkpoint) ", path.read_text(), flags=re.M)[1:]
    }
    light = {name: chunk for name, chunk in rules.items() if "run:" in chunk}
    assert set(light) == {
        "cluster_documents",
        "assess_stability",
        "fit_topics",
        "curate_topics",
        "pin_topics",
        "evaluate_topics",
        "render_report",
        "bundle_report",
        "advance_history",
        "describe_topics",
        "write_references",
        "write_vosviewer",
    }
    for rule, chunk in light.items():
        code_module = re.search(r'code=job_module\("([\w.]+)"\)', chunk).group(1)
        block = chunk.split("run:\n")[1].split()
        assert block == ["from", code_module, "import", f"{rule}_job", f"run_job({rule}_job,"] + (
            "input, output, params, threads, log)".split()
        ), rule
        assert callable(getattr(importlib.import_module(code_module), f"{rule}_job"))
        assert not (repo / "workflow/scripts" / f"{rule}.py").exists()
    assert all("script:" in chunk for name, chunk in rules.items() if name not in light)
    # every script rule's code param is its script's import closure (common.smk's script_code)
    for name, chunk in rules.items():
        script = re.search(r'"\.\./scripts/(\w+)\.py"', chunk)
        if name not in light and script:
            assert f'code=script_code("{script.group(1)}")' in chunk, name


def test_each_light_rule_sits_in_the_file_of_its_stage_and_common_smk_stays_small():
    """A `run:` rule is in `<stage>.smk` of the package stage its job function lives in
    (describe_topics: analyses.smk, advance_history: topics.smk); write_workbook, which writes the report's
    workbook, in report.smk; common.smk keeps only what every stage shares (issue 60)."""
    repo = Path(__file__).resolve().parents[1]
    where = {
        chunk.split(":")[0]: (path.stem, chunk.split("\n\n\n")[0])
        for path in sorted((repo / "workflow/rules").glob("*.smk"))
        for chunk in re.split(r"^(?:rule|checkpoint) ", path.read_text(), flags=re.M)[1:]
    }
    for rule, (stage, chunk) in where.items():
        module = re.search(r'job_module\("papertopics\.(\w+)\.', chunk)
        if "run:" in chunk:
            assert stage == module.group(1), (rule, stage)
    assert where["describe_topics"][0] == "analyses" and where["advance_history"][0] == "topics"
    assert where["write_workbook"][0] == "report"
    assert len((repo / "workflow/rules/common.smk").read_text().splitlines()) <= 120
