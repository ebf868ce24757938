"""Tweak loop, two checkouts side by side: HDBSCAN, representation and report edits, alternating.

    .venv/bin/python bench/tweak_ab.py --before /tmp/old-checkout --corpus /tmp/bh/corpus \
        [--after .] [--rounds 3] [--workdir /tmp/tweak-ab]

e.g. this worktree against main on the NeurIPS 2023 run:
    .venv/bin/python bench/tweak_ab.py --before /work/main --after . \
        --corpus /work/runs/base-neurips --rounds 3

`--corpus` is a folder holding a finished run (config.yaml + results/, e.g. `by_hand.py`'s or
`reruns.py`'s NeurIPS 2023 folder); it is copied once per checkout, each copy is brought up
to date by its checkout's Snakefile, then each round applies the same three edits to both,
in alternating order, and times `snakemake --cores 2` as a user runs it (a cold process).
The machine's speed drifts by the hour, so only same-run ratios mean anything.
Goals (issue 15): HDBSCAN and representation edits <= 10 s, a report edit <= 3 s.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TWEAKS = {
    "hdbscan": "hdbscan:\n  min_cluster_size: {size}\n",
    "representation": "hdbscan:\n  min_cluster_size: {size}\nrepresentation:\n  label_terms: {terms}\n",
    "report": (
        "hdbscan:\n  min_cluster_size: {size}\nrepresentation:\n  label_terms: {terms}\n"
        "report:\n  title: Tweak {round}\n"
    ),
}
GOALS = {"hdbscan": 10, "representation": 10, "report": 3}


def run(checkout: Path, folder: Path) -> tuple[float, str]:
    # the checkout's own package for every job (its Snakefile puts it first in Snakemake's process)
    env = dict(os.environ, PATH=f"{Path(sys.executable).parent}:{os.environ['PATH']}")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(checkout / "src"), os.environ.get("PYTHONPATH")]))
    command = [sys.executable, "-m", "snakemake", "--snakefile", str(checkout / "Snakefile")]
    command += ["--directory", str(folder), "--cores", "2", "--quiet"]
    start = time.perf_counter()
    result = subprocess.run(command, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"snakemake failed in {folder}:\n{result.stderr[-3000:]}")
    summary = next((line for line in result.stderr.splitlines() if " topics in " in line), "")
    return wall, summary


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True, help="the checkout to compare against")
    parser.add_argument("--after", type=Path, default=REPO)
    parser.add_argument("--corpus", type=Path, required=True, help="a folder with a finished run")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--workdir", type=Path, default=Path("/tmp/tweak-ab"))
    args = parser.parse_args()
    checkouts = {"before": args.before.resolve(), "after": args.after.resolve()}
    base = (args.corpus / "config.yaml").read_text()
    folders = {}
    for name, checkout in checkouts.items():
        folders[name] = args.workdir / name
        shutil.rmtree(folders[name], ignore_errors=True)
        shutil.copytree(args.corpus, folders[name], symlinks=True)
        wall, _ = run(checkout, folders[name])
        print(f"{name}: brought up to date in {wall:.1f} s ({checkout})", flush=True)
    times: dict[tuple[str, str], list[float]] = {}
    for round_ in range(args.rounds):
        even = round_ % 2 == 0
        values = {"size": 25 if even else 20, "terms": 4 if even else 3, "round": round_}
        order = ("before", "after") if even else ("after", "before")
        for tweak, text in TWEAKS.items():
            for name in order:
                (folders[name] / "config.yaml").write_text(base + text.format(**values))
                wall, summary = run(checkouts[name], folders[name])
                times.setdefault((tweak, name), []).append(wall)
                print(f"round {round_} {tweak:14s} {name:6s} {wall:6.2f} s  {summary}", flush=True)
        for name in order:  # back to the folder's own config before the next round's edits
            (folders[name] / "config.yaml").write_text(base)
            run(checkouts[name], folders[name])
    print("\ntweak           before (mean, runs)          after (mean, runs)           goal")
    for tweak in TWEAKS:
        before, after = times[(tweak, "before")], times[(tweak, "after")]
        print(
            f"{tweak:14s}  {statistics.mean(before):5.2f} s {[f'{t:.2f}' for t in before]}  "
            f"{statistics.mean(after):5.2f} s {[f'{t:.2f}' for t in after]}  <= {GOALS[tweak]} s"
        )


if __name__ == "__main__":
    main()
