"""The `papertopics` command: run a folder of listings through the packaged workflow, open the report."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import openpyxl
import pytest
from conftest import SEEDS, snakemake_env

from papertopics.errors import ConfigError
from papertopics.runtime import cli

REPO = Path(__file__).resolve().parents[1]
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
    assert "skipped 1 record(s) with an empty abstract: line 24 (chen_no_abstract_2024)" in output
    assert (
        (tmp_path / "config.yaml")
        .read_text(encoding="utf-8")
        .endswith("listings:\n" + "".join(f"- {name}\n" for name in listings))
    )
    documents = (tmp_path / "results/topics/document_topics.csv").read_text(encoding="utf-8")
    assert "Schrödinger bridges for Pokémon image generation" in documents
    assert "Federated learning under label shift" in documents
    book = openpyxl.load_workbook(tmp_path / "results/topics/topics.xlsx", read_only=True)
    assert book.sheetnames == ["topics", "documents"]
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
        "papertopics/report/assets/report.js",
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
