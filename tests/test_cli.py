"""The `papertopics` command: run a folder of listings through the packaged workflow, open the report."""

from __future__ import annotations

import errno
import os
import re
import shutil
import signal
import subprocess
import sys
import time
import tomllib
import zipfile
from pathlib import Path

import openpyxl
import pytest
from conftest import REPO, SEEDS, run_snakemake, snakemake_env

from papertopics.errors import ConfigError
from papertopics.runtime import cli, recovery

FIXTURES = REPO / "tests" / "fixtures"


def papertopics_command(folder: Path, *args: str, timeout: int = 900) -> subprocess.CompletedProcess:
    """`papertopics ARGS` in `folder`, as the installed console script runs it."""
    return subprocess.run(
        [sys.executable, "-m", "papertopics", *args],
        cwd=folder,
        env=snakemake_env(),
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def test_pyproject_installs_the_command():
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    assert project["project"]["scripts"] == {"papertopics": "papertopics.runtime.cli:main"}
    assert cli.workflow_root() == REPO  # a checkout / editable install runs the repository's workflow


def test_help_lists_what_a_researcher_needs(capsys):
    with pytest.raises(SystemExit):
        cli.main(["run", "--help"])
    text = capsys.readouterr().out
    for needed in ("LISTING", "--cores", "--config KEY=VALUE", "--directory", "--dry-run", ".bib", ".xlsx"):
        assert needed in text, needed
    # every format of the ingest registry with its extensions (PubMed's .nbib, WoS's .xls, ...)
    from papertopics.ingest.formats import REGISTRY

    flat = " ".join(text.split())
    for fmt in REGISTRY.values():
        assert f"{fmt.name} (" in flat, fmt.name
        for ext in filter(None, fmt.extensions):
            assert ext in flat, ext
    assert "medline (.nbib .medline; .txt by content)" in flat
    with pytest.raises(SystemExit):
        cli.main(["open", "--help"])
    assert "results/report/index.html" in capsys.readouterr().out


def test_first_run_writes_a_config_naming_the_listings(tmp_path, capsys):
    shutil.copy(FIXTURES / "zotero.bib", tmp_path / "my library.bib")
    outside = tmp_path.parent / f"{tmp_path.name}-outside.ris"
    shutil.copy(FIXTURES / "scopus.ris", outside)
    cli.prepare_config(
        tmp_path,
        [
            cli._listing_entry(str(tmp_path / "my library.bib"), tmp_path),
            cli._listing_entry(str(outside), tmp_path),
        ],
    )
    text = (tmp_path / "config.yaml").read_text(encoding="utf-8")
    assert text.endswith(f"listings:\n- my library.bib\n- {outside}\n")
    assert "papertopics never rewrites it" in capsys.readouterr().err
    # a second run uses it as it is; a listing it does not name is refused, the file untouched
    cli.prepare_config(tmp_path, ["my library.bib"])
    other = tmp_path / "other.csv"
    other.write_text("abstract\nSomething.\n", encoding="utf-8")
    with pytest.raises(cli.CliError, match=r"config.yaml does not name other.csv; add `  - other.csv` under"):
        cli.prepare_config(tmp_path, ["other.csv"])
    assert (tmp_path / "config.yaml").read_text(encoding="utf-8") == text


def test_bad_command_lines_are_one_line_errors(tmp_path):
    with pytest.raises(cli.CliError, match=r"^nope.bib: file not found$"):
        cli._listing_entry("nope.bib", tmp_path)
    with pytest.raises(cli.CliError, match="no config.yaml and no listing given"):
        cli.prepare_config(tmp_path, [])
    pdf = tmp_path / "paper.pdf"
    pdf.write_bytes(b"%PDF")
    with pytest.raises(Exception, match=r"paper.pdf: unknown extension '.pdf'; set 'format'"):
        cli.prepare_config(tmp_path, ["paper.pdf"])
    assert not (tmp_path / "config.yaml").exists()  # nothing written for a listing that cannot be read
    assert cli.parse_overrides(
        ["random_state=7", "umap.n_neighbors=10", "clustering.method=agglomerative"]
    ) == {
        "random_state": 7,
        "umap": {"n_neighbors": 10},
        "clustering": {"method": "agglomerative"},
    }
    with pytest.raises(ConfigError, match=r"^--config: umap: unknown key 'n_neighbours'"):
        cli.parse_overrides(["umap.n_neighbours=10"])
    with pytest.raises(cli.CliError, match="expected KEY=VALUE"):
        cli.parse_overrides(["random_state"])
    with pytest.raises(cli.CliError, match="no report yet; run `papertopics run LISTING...`"):
        cli.open_report(tmp_path, browse=False)


@pytest.mark.slow
def test_papertopics_run_on_a_zotero_export_and_seed_listings(tmp_path):
    """A new user's folder: a Zotero .bib, a Scopus .ris and two text listings, one command."""
    shutil.copy(FIXTURES / "zotero.bib", tmp_path / "my-library.bib")
    shutil.copy(FIXTURES / "scopus.ris", tmp_path / "scopus.ris")
    for seed in SEEDS:
        shutil.copy(seed, tmp_path / seed.name)
    listings = ["my-library.bib", "scopus.ris", *(seed.name for seed in SEEDS)]
    result = papertopics_command(tmp_path, "run", *listings, "--cores", "2", "--config", "random_state=7")
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-6000:]
    lines = output.strip().splitlines()
    assert lines[-2].startswith("papertopics: ") and " documents from 4 listings;" in lines[-2]
    assert lines[-1] == f"papertopics: report: {tmp_path / 'results/report/index.html'}"
    assert "do not become documents: 1 empty abstract: line 24 (chen_no_abstract_2024)" in output
    assert (
        (tmp_path / "config.yaml")
        .read_text(encoding="utf-8")
        .endswith("listings:\n" + "".join(f"- {name}\n" for name in listings))
    )
    documents = (tmp_path / "results/topics/document_topics.csv").read_text(encoding="utf-8")
    assert "Schrödinger bridges for Pokémon image generation" in documents
    assert "Federated learning under label shift" in documents
    book = openpyxl.load_workbook(tmp_path / "results/topics/topics.xlsx", read_only=True)
    # the listings carry years, venues and authors: their sheets follow the two of every workbook
    assert book.sheetnames == [
        "topics",
        "documents",
        "over time",
        "trends",
        "venues and authors",
        "authors",  # the listing's most productive authors (65b)
        "thematic map",
        "main information",  # bibliometrix's first table (analyses.main_information)
        "data",  # what each listing holds (report.provenance)
    ]
    # the --config value reached the run; a second run has nothing to do
    assert "random_state: 7" in (tmp_path / cli.CLI_CONFIG).read_text(encoding="utf-8")
    lock = tmp_path / ".snakemake/locks/0.output.lock"  # a stale lock: a dry run only looks
    lock.parent.mkdir(parents=True, exist_ok=True)
    lock.write_text("results/report/index.html\n")
    again = papertopics_command(tmp_path, "run", "--config", "random_state=7", "--", "--dry-run")
    assert again.returncode == 0 and "Nothing to be done" in again.stdout + again.stderr
    assert lock.exists() and "papertopics: removed" not in again.stderr
    lock.unlink()
    opened = papertopics_command(tmp_path, "open", "--print-only")
    assert opened.stdout.strip() == str(tmp_path / "results/report/index.html")


@pytest.mark.slow
def test_a_wheel_carries_the_workflow(tmp_path):
    """`pip install .` (a wheel, not editable) must find the Snakefile inside the package."""
    built = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(tmp_path),
            str(REPO),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    (wheel,) = tmp_path.glob("papertopics-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in (
        "papertopics/_workflow/Snakefile",
        "papertopics/_workflow/profiles/default/config.yaml",
        "papertopics/_workflow/workflow/rules/common.smk",
        "papertopics/_workflow/workflow/scripts/reduce_embeddings.py",
        "papertopics/schemas/config.schema.yaml",
        "papertopics/report/assets/scripts/start.js",  # the report script's parts
        "papertopics/topics/names/title_use.tsv.gz",  # the names' title weights
    ):
        assert needed in names, needed
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    assert "papertopics = papertopics.runtime.cli:main" in zipfile.ZipFile(wheel).read(entry_points).decode()
    # unpacked as site-packages would hold it, the package finds its own copy first
    site = tmp_path / "site"
    zipfile.ZipFile(wheel).extractall(site)
    found = subprocess.run(
        [sys.executable, "-c", "from papertopics.runtime.cli import workflow_root; print(workflow_root())"],
        cwd=tmp_path,
        env={**snakemake_env(), "PYTHONPATH": str(site)},
        capture_output=True,
        text=True,
    )
    assert found.stdout.strip() == str(site / "papertopics" / "_workflow"), found.stderr


# --- round 4: what a hostile but realistic user meets through the command ----------------------


def lines_of(result: subprocess.CompletedProcess) -> list[str]:
    """The command's own lines (Snakemake's note about the profile it reads left out)."""
    return [
        line
        for line in (result.stdout + result.stderr).splitlines()
        if line.strip() and not line.startswith(("Using workflow specific profile", "Config file "))
    ]


@pytest.mark.parametrize(
    ("config_text", "extra", "expected"),
    [
        (  # the README's own misspelt key
            "listings:\n  - a.txt\numap:\n  n_neighbours: 10\n",
            [],
            r"^papertopics error: .*/config.yaml: umap: unknown key 'n_neighbours' \(allowed: .*n_neighbors",
        ),
        (
            "listings: [a.txt\numap: {\n",
            [],
            r"^papertopics error: .*/config.yaml: line 2, column \d+: YAML syntax error",
        ),
        (
            "listings: a.txt\n",
            [],
            r"^papertopics error: .*/config.yaml: listings: expected array, got 'a.txt'$",
        ),
        ("listings:\n  - deleted.txt\n", [], r"^papertopics error: deleted.txt: matches no file"),
        ("listings:\n  - '*.csv'\n", [], r"^papertopics error: \*.csv: matches no file"),
        (
            "listings:\n  - a.txt\n",
            ["--config", "listings=[x.csv]"],
            r"^papertopics error: x.csv: matches no file",
        ),
        (
            "listings:\n  - a.txt\n",
            ["--", "--config", "listings=[x.csv]"],
            r"^papertopics error: x.csv: matches no file",
        ),
    ],
    ids=[
        "misspelt-key",
        "yaml-syntax",
        "listings-a-string",
        "deleted-listing",
        "empty-glob",
        "config",
        "snakemake-config",
    ],
)
def test_every_config_error_is_the_line_plain_snakemake_prints(tmp_path, config_text, extra, expected):
    """Each prints one line (the Snakefile's `papertopics error:`), not rc 1 and silence."""
    shutil.copy(SEEDS[0], tmp_path / "a.txt")
    (tmp_path / "config.yaml").write_text(config_text, encoding="utf-8")
    options, after = (extra, []) if "--" not in extra else ([], extra)
    result = papertopics_command(tmp_path, "run", *options, "--dry-run", *after, timeout=120)
    lines = lines_of(result)
    assert result.returncode == 1 and len(lines) == 1, lines
    assert re.search(expected, lines[0]), lines[0]
    plain = subprocess.run(
        [sys.executable, "-m", "snakemake", "--snakefile", str(REPO / "Snakefile"), "-n", *after[1:]],
        cwd=tmp_path,
        env=snakemake_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    if not options:  # the same line as plain snakemake's
        assert lines[0] in plain.stderr.splitlines(), plain.stderr[-2000:]


def test_a_config_listing_a_number_beside_a_listing_argument_is_one_line(tmp_path):
    shutil.copy(SEEDS[0], tmp_path / "a.txt")
    (tmp_path / "config.yaml").write_text("listings: 5\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"config.yaml: listings: expected array, got 5$"):
        cli.prepare_config(tmp_path, ["a.txt"])


def test_a_listing_inside_results_is_refused_before_anything_is_written(tmp_path):
    (tmp_path / "results").mkdir()
    (tmp_path / "results/dump.txt").write_text("An abstract.\n", encoding="utf-8")
    result = papertopics_command(tmp_path, "run", "results/dump.txt", timeout=120)
    assert result.returncode == 1 and lines_of(result) == [
        "papertopics error: results/dump.txt: a listing inside results/, the folder papertopics writes its "
        f"results to; move it out of results/ (e.g. to {tmp_path / 'dump.txt'}) and name it there"
    ]
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["dump.txt", "results"]


def test_a_folder_that_cannot_be_one_is_one_line(tmp_path, capsys, monkeypatch):
    shutil.copy(SEEDS[0], tmp_path / "a.txt")
    (tmp_path / "afile.txt").write_text("not a folder", encoding="utf-8")
    for folder, why in (("afile.txt", "a file, not a folder"), ("afile.txt/sub", "is a file, not a folder")):
        assert cli.main(["run", str(tmp_path / "a.txt"), "-d", str(tmp_path / folder), "-n"]) == 1
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and err[0].startswith("papertopics error: ") and why in err[0], err
    # a read-only folder (a mounted share): Errno 30 where the lock is made, before anything else
    shared = tmp_path / "read-only"
    shared.mkdir()
    shutil.copy(SEEDS[0], shared / "a.txt")
    real_open = os.open

    def read_only(path, *args, **kwargs):
        if str(path).startswith(str(shared)) and args and args[0] & os.O_CREAT:
            raise OSError(errno.EROFS, "Read-only file system", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", read_only)
    assert cli.main(["run", str(shared / "a.txt"), "-d", str(shared)]) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        f"papertopics error: {shared}: cannot write there (Read-only file system: "
        f"{shared / recovery.RUN_LOCK}); run in a folder you can write to "
        "(copy the listings and config.yaml there)"
    ]
    assert not (shared / "config.yaml").exists()


def test_two_runs_in_one_folder_the_second_refuses_with_one_line(tmp_path):
    """Two real `papertopics run`s 0.3 s apart, then a plain snakemake: one run works, the others
    say who does and touch nothing; once it is gone (kill -9), the folder is free again."""
    for seed in SEEDS:
        shutil.copy(seed, tmp_path / seed.name)
    first = subprocess.Popen(
        [sys.executable, "-m", "papertopics", "run", *(seed.name for seed in SEEDS), "--cores", "1"],
        cwd=tmp_path,
        env=snakemake_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        lock = tmp_path / recovery.RUN_LOCK
        for _ in range(300):  # until the first run holds the folder
            if (tmp_path / "config.yaml").is_file() and f'"pid": {first.pid}' in lock.read_text():
                break
            time.sleep(0.1)
        assert first.poll() is None
        config = (tmp_path / "config.yaml").read_text(encoding="utf-8")
        second = papertopics_command(tmp_path, "run", "--config", "agglomerative.n_topics=5", timeout=120)
        plain = run_snakemake(tmp_path, "--cores", "1", check=False, timeout=120)
        for result in (second, plain):
            lines = lines_of(result)
            assert result.returncode == 1 and len(lines) == 1, lines
            assert lines[0].startswith(
                f"papertopics error: another run is working in {tmp_path} (pid {first.pid}, "
            )
            assert f"papertopics run {SEEDS[0].name}" in lines[0] and f"kill {first.pid}" in lines[0]
        assert first.poll() is None  # the first run goes on, its folder as it left it
        assert (tmp_path / "config.yaml").read_text(encoding="utf-8") == config
        assert not (tmp_path / cli.CLI_CONFIG).exists()  # the second's --config reached nothing
        looked = papertopics_command(tmp_path, "run", "--config", "random_state=3", "--dry-run", timeout=120)
        assert looked.returncode == 0, lines_of(looked)  # a dry run may look meanwhile
        assert not list((tmp_path / cli.CLI_CONFIG).parent.glob("cli-config*"))
    finally:
        os.killpg(first.pid, signal.SIGKILL)  # the run and its jobs, as kill -9 would
        first.wait()
    recovery.hold_folder(tmp_path)  # free again: the OS dropped the dead run's lock
    recovery.release_folder(tmp_path)


def test_cores_zero_is_refused_with_one_line(tmp_path, capsys):
    shutil.copy(SEEDS[0], tmp_path / "a.txt")
    for cores in ("0", "-2", "four"):
        assert cli.main(["run", str(tmp_path / "a.txt"), "-d", str(tmp_path), "--cores", cores]) == 1
        assert capsys.readouterr().err.strip().splitlines() == [
            f"papertopics error: --cores {cores}: give a number of CPU cores of at least 1, "
            "or 'all' for every core"
        ]
    assert cli._cores("all") == "all" and cli._cores(" 8 ") == "8"
    assert not (tmp_path / "config.yaml").exists()


def test_a_listing_its_file_name_cannot_name_is_named_by_the_command(tmp_path):
    """`a;b.csv`, and lib.bib beside lib.ris, run from the command line (no hand-written config)."""
    assert cli.named_entries(
        ["a;b.txt", "lib.bib", "lib.ris", "x/acc.csv", "y/acc.csv", "*.txt", "c.txt"]
    ) == [
        {"path": "a;b.txt", "name": "a_b"},
        {"path": "lib.bib", "name": "lib.bib"},
        {"path": "lib.ris", "name": "lib.ris"},
        "x/acc.csv",  # same file name in two folders: the folders tell them apart (x-acc, y-acc)
        "y/acc.csv",
        "*.txt",
        "c.txt",
    ]
    shutil.copy(SEEDS[0], tmp_path / "a;b.txt")
    shutil.copy(FIXTURES / "zotero.bib", tmp_path / "lib.bib")
    shutil.copy(FIXTURES / "scopus.ris", tmp_path / "lib.ris")
    result = papertopics_command(tmp_path, "run", "a;b.txt", "lib.bib", "lib.ris", "--dry-run", timeout=120)
    assert result.returncode == 0, lines_of(result)[-5:]
    assert "papertopics: a;b.txt is the listing 'a_b' (change its `name:` in config.yaml to rename it)" in (
        result.stderr
    )
    assert "parse_listing" in result.stdout + result.stderr
    assert (
        (tmp_path / "config.yaml")
        .read_text(encoding="utf-8")
        .endswith(
            "listings:\n- path: a;b.txt\n  name: a_b\n- path: lib.bib\n  name: lib.bib\n"
            "- path: lib.ris\n  name: lib.ris\n"
        )
    )
    again = papertopics_command(tmp_path, "run", "a;b.txt", "--dry-run", timeout=120)  # named: runs
    assert again.returncode == 0, lines_of(again)[-5:]


def test_a_profile_of_the_users_own_in_the_folder_does_not_replace_the_packages(tmp_path):
    shutil.copy(SEEDS[0], tmp_path / "a.txt")
    own = tmp_path / "profiles/default"
    own.mkdir(parents=True)
    (own / "config.yaml").write_text("age: 33\n", encoding="utf-8")  # not Snakemake's at all
    result = papertopics_command(tmp_path, "run", "a.txt", "--dry-run", timeout=120)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-3000:]
    assert "unrecognized arguments" not in output
    assert f"Using workflow specific profile {REPO / 'profiles/default'} " in output
    assert (
        f"papertopics: runs with its own profile {REPO / 'profiles/default'}, not {own} (to use that one: "
        f"papertopics run -- --workflow-profile {own})"
    ) in output
    (own / "config.yaml").write_text("cores: 1\n", encoding="utf-8")
    chosen = papertopics_command(
        tmp_path, "run", "--dry-run", "--", "--workflow-profile", str(own), timeout=120
    )
    assert (
        chosen.returncode == 0 and f"Using workflow specific profile {own} " in chosen.stdout + chosen.stderr
    )


@pytest.mark.slow
def test_ctrl_c_is_reported_as_interrupted(tmp_path):
    """SIGINT to the run's process group, as Ctrl-C in a terminal sends it, while a job runs."""
    for seed in SEEDS:
        shutil.copy(seed, tmp_path / seed.name)
    run = subprocess.Popen(
        [sys.executable, "-m", "papertopics", "run", *(seed.name for seed in SEEDS), "--cores", "1"],
        cwd=tmp_path,
        env=snakemake_env(),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),  # as a terminal's foreground job
    )
    try:
        for _ in range(3000):
            if list((tmp_path / "results/logs/embed_shard").glob("*.log")):
                break
            time.sleep(0.1)
        time.sleep(1)
        os.killpg(run.pid, signal.SIGINT)
        output, _ = run.communicate(timeout=300)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.wait()
    lines = output.strip().splitlines()
    assert run.returncode != 0
    assert lines[-1].startswith("papertopics: interrupted (Ctrl-C)"), lines[-5:]
    assert lines[-1].endswith("; rerun the same command to finish (the steps already done are kept)")
    assert not any(line.startswith("papertopics error:") for line in lines), lines[-8:]
