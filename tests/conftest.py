"""Shared fixtures: one real pipeline run on the seeds, reused by every test that reads results."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from papertopics.runtime.environment import runtime_environment

REPO = Path(__file__).resolve().parents[1]
SHARED = REPO.parent / "shared"
SEEDS = sorted((REPO / "seeds").glob("*.txt"))
SNAKEMAKE = [sys.executable, "-m", "snakemake"]
runtime_environment(REPO)  # this process too: in-process UMAP and embedding tests
# The converted model and the vectors go to a per-user cache folder (papertopics.embed.user_cache):
# one fresh folder per test session, so tests neither read nor fill the developer's cache.
os.environ["PAPERTOPICS_CACHE_DIR"] = tempfile.mkdtemp(prefix="papertopics-test-cache-")


def snakemake_env() -> dict[str, str]:
    env = dict(runtime_environment(REPO, dict(os.environ)))
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO / "src"), env.get("PYTHONPATH")]))
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    return env


def shared_export(tmp_path: Path, name: str) -> Path:
    """An export of ../shared/data/exports (`name` as unzipped) in tmp_path, as a user has it;
    the test is skipped where ../shared is not beside the repository."""
    import gzip

    source = SHARED / "data" / "exports" / f"{name}.gz"
    if not source.exists():
        pytest.skip(f"{source} not found")
    path = tmp_path / name
    with gzip.open(source, "rb") as handle, open(path, "wb") as out:
        shutil.copyfileobj(handle, out)
    return path


def run_snakemake(
    workdir: Path, *args: str, check: bool = True, timeout: int = 900
) -> subprocess.CompletedProcess:
    """Run the repo's Snakefile on a corpus folder, as `snakemake --directory DIR` would."""
    command = [*SNAKEMAKE, "--snakefile", str(REPO / "Snakefile"), "--directory", str(workdir), *args]
    result = subprocess.run(
        command, cwd=workdir, env=snakemake_env(), capture_output=True, text=True, timeout=timeout
    )
    if check and result.returncode != 0:
        raise AssertionError(
            f"snakemake failed ({result.returncode}):\n{result.stdout[-4000:]}\n{result.stderr[-8000:]}"
        )
    return result


def make_corpus_dir(root: Path, config_text: str = "listings:\n  - seeds/*.txt\n") -> Path:
    """A corpus folder holding copies of the seed listings and a minimal config."""
    root.mkdir(parents=True, exist_ok=True)
    (root / "seeds").mkdir(exist_ok=True)
    for seed in SEEDS:
        shutil.copy(seed, root / "seeds" / seed.name)
    (root / "config.yaml").write_text(config_text, encoding="utf-8")
    return root


@pytest.fixture(scope="session")
def seed_run(tmp_path_factory) -> Path:
    """The whole DAG run once on the seeds with a config naming only `listings`."""
    workdir = make_corpus_dir(tmp_path_factory.mktemp("seed_run"))
    run_snakemake(workdir, "--cores", "2")
    return workdir


@pytest.fixture(autouse=True)
def _restore_environment():
    """Tests that run a workflow script in-process get its thread caps (NUMBA_NUM_THREADS=1, ...)
    in os.environ; numba refuses a changed thread count once its pool runs, so every test
    leaves the environment as it found it."""
    saved = dict(os.environ)
    yield
    os.environ.clear()
    os.environ.update(saved)
