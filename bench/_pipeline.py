"""Helpers shared by the pipeline benchmarks: run the DAG on a corpus folder and read its timings."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# A worktree sits beside other worktrees, not beside shared/: PAPERTOPICS_SHARED points there.
SHARED = Path(os.environ.get("PAPERTOPICS_SHARED", REPO.parent / "shared"))
DATA = SHARED / "data"

from papertopics.runtime.environment import runtime_environment  # noqa: E402

runtime_environment(REPO)  # this process and every benchmark that imports this module


def env() -> dict[str, str]:
    e = dict(runtime_environment(REPO, dict(os.environ)))
    # this checkout's package in the Snakefile's process and in every job, as the tests run it
    e["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO / "src"), e.get("PYTHONPATH")]))
    e["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), e.get("PATH", "")])
    return e


def snakemake(workdir: Path, *args: str, cores: int = 2) -> tuple[float, str]:
    """Run the repo's Snakefile on workdir; returns (wall seconds, combined output)."""
    command = [
        sys.executable,
        "-m",
        "snakemake",
        "--snakefile",
        str(REPO / "Snakefile"),
        "--directory",
        str(workdir),
        "--configfile",
        str(workdir / "config.yaml"),
        "--cores",
        str(cores),
        *args,
    ]
    start = time.perf_counter()
    result = subprocess.run(command, env=env(), capture_output=True, text=True)
    wall = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"snakemake failed in {workdir}:\n{result.stderr[-5000:]}")
    return wall, result.stdout + result.stderr


def rules_run(output: str) -> list[str]:
    """Rule names of the jobs a Snakemake run executed, from its log."""
    names = []
    for line in output.splitlines():
        line = line.strip()
        if line.startswith(("rule ", "localrule ", "checkpoint ", "localcheckpoint ")) and line.endswith(":"):
            name = line.split()[1].rstrip(":")
            if name != "all":
                names.append(name)
    return names


def embedded(workdir: Path) -> dict:
    metrics = json.loads((workdir / "results" / "metrics.json").read_text())
    return metrics["embedding"]


def rule_benchmarks(workdir: Path) -> dict[str, dict[str, float]]:
    """Per rule: summed seconds and peak RSS (MiB) over its jobs' benchmark files."""
    out: dict[str, dict[str, float]] = {}
    for path in sorted((workdir / "results" / "benchmarks").rglob("*.tsv")):
        rule = path.parent.name if path.parent.name != "benchmarks" else path.stem
        with path.open() as handle:
            row = next(csv.DictReader(handle, delimiter="\t"))
        entry = out.setdefault(rule, {"seconds": 0.0, "max_rss_mib": 0.0, "jobs": 0})
        entry["seconds"] += float(row["s"])
        rss = row.get("max_rss", "NA")
        entry["max_rss_mib"] = max(entry["max_rss_mib"], float(rss) if rss not in ("NA", "-") else 0.0)
        entry["jobs"] += 1
    return out


def print_table(rows: list[dict], columns: list[str]) -> None:
    widths = {c: max(len(c), *(len(str(r.get(c, ""))) for r in rows)) for c in columns}
    print("  ".join(c.ljust(widths[c]) for c in columns))
    for r in rows:
        print("  ".join(str(r.get(c, "")).ljust(widths[c]) for c in columns))


def print_stages(stages: dict[str, dict[str, float]]) -> None:
    """rule_benchmarks' figures as a table: per rule its jobs, seconds and peak RSS."""
    rows = [
        {
            "rule": rule,
            "jobs": v["jobs"],
            "seconds": f"{v['seconds']:.1f}",
            "peak_rss_mib": f"{v['max_rss_mib']:.0f}",
        }
        for rule, v in stages.items()
    ]
    print_table(rows, ["rule", "jobs", "seconds", "peak_rss_mib"])
