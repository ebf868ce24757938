"""Light jobs run their script in Snakemake's own process (papertopics.runtime.inprocess): the script gets
the object `script:` would give it, logs to its rule's log only, and fails the way a job does."""

import logging
import os
import sys
import threading
import traceback
import warnings

import pytest
import threadpoolctl  # noqa: F401 - its import sets KMP_DUPLICATE_LIB_OK, as scikit-learn's does
from snakemake.iocontainers import InputFiles, Log, OutputFiles, Params, Wildcards

from papertopics.runtime.inprocess import in_process, run_script
from papertopics.runtime.scripting import JobFailed

SCRIPT = """
import logging
import warnings
from pathlib import Path

import numpy  # noqa: F401 - its BLAS pool is what the cap acts on
from threadpoolctl import threadpool_info

from papertopics.errors import ListingError
from papertopics.runtime.inprocess import in_process
from papertopics.runtime.scripting import script_run

if snakemake.params.fail == "exit":
    raise SystemExit(3)
with script_run(snakemake) as log:
    if snakemake.params.fail:
        raise ListingError("papers.csv: line 2: no text")
    log.info("words in %s: %d", snakemake.rule, len(Path(snakemake.input.text).read_text().split()))
    logging.getLogger("papertopics.anything").info("a library logger, same thread")
    warnings.warn("a warning in the job", stacklevel=1)
    pools = sorted({pool["num_threads"] for pool in threadpool_info()})
    Path(snakemake.output[0]).write_text(f"{snakemake.wildcards.listing} {in_process()} {pools} {__name__}")
"""


def job(tmp_path, fail=False):
    script = tmp_path / "count_words.py"
    script.write_text(SCRIPT)
    (tmp_path / "in.txt").write_text("three short words")
    args = (
        InputFiles(fromdict={"script": str(script), "text": str(tmp_path / "in.txt")}),
        OutputFiles([str(tmp_path / "out.txt")]),
        Params(fromdict={"fail": fail}),
        Wildcards(fromdict={"listing": "neurips"}),
        1,
        {},
        Log([str(tmp_path / "job.log")]),
        "count_words",
        {},
    )
    return script, args


def test_a_script_run_in_process_reads_its_job_and_logs_only_its_own_records(tmp_path):
    script, args = job(tmp_path)
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
            run_script(*args)
        finally:
            stop.set()
            neighbour.join()
        warnings.warn("after the job", stacklevel=1)
    # the job's warning went to its log only; other threads' and later ones are shown as before
    assert {str(w.message) for w in shown} == {"not this job's warning", "after the job"}
    # the rule's thread cap on BLAS (as Snakemake's variables cap a script: job), not __main__
    assert (tmp_path / "out.txt").read_text() == "neurips True [1] papertopics_job_count_words"
    log = (tmp_path / "job.log").read_text()
    assert "count_words: words in count_words: 3" in log
    assert "papertopics.anything: a library logger, same thread" in log
    assert "not this job's record" not in log
    assert "UserWarning: a warning in the job (" in log and "not this job's warning" not in log
    # nothing process-wide is left changed: Snakemake's own logging, thread caps, the flag
    assert root.handlers == handlers and root.level in (level, logging.INFO)
    assert dict(os.environ) == environment
    assert sys.modules["__main__"] is main_module and sys.argv == argv
    assert not in_process()


def test_bad_input_in_process_is_one_line_and_fails_the_job_not_the_process(tmp_path, capsys):
    """SystemExit would escape Snakemake's job callback (the run would wait forever): JobFailed."""
    script, args = job(tmp_path, fail=True)
    with pytest.raises(JobFailed) as failed:
        run_script(*args)
    line = "papertopics error: papers.csv: line 2: no text"
    assert str(failed.value) == line
    frames = [frame.filename for frame in traceback.extract_tb(failed.value.__traceback__)]
    assert frames[-1].endswith("inprocess.py") and str(script) not in frames  # Snakemake shows these
    assert capsys.readouterr().err.strip().splitlines() == [line]
    assert line in (tmp_path / "job.log").read_text()
    assert not (tmp_path / "out.txt").exists()


def test_a_script_that_exits_fails_its_job_instead_of_hanging_the_run(tmp_path):
    """SystemExit escapes Snakemake's job callback: the run would wait forever for the job."""
    _, args = job(tmp_path, fail="exit")
    with pytest.raises(JobFailed, match="count_words exited with status 3"):
        run_script(*args)
    assert not in_process()
