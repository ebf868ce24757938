"""Rerun costs on the NeurIPS 2023 listing (3,584 abstracts): what each kind of edit costs.

    .venv/bin/python bench/reruns.py [--workdir /tmp/bench-reruns]

Prints wall time, the jobs that ran and the abstracts embedded for: a cold run, a no-op
rerun, an HDBSCAN tweak, a representation tweak, and adding a 100-abstract listing (arXiv
abstracts, so they are new to the cache). Goals (issue 15): an HDBSCAN or representation
tweak <= 10 s, a report tweak <= 3 s, no-op <= 3 s; nothing re-embedded or re-reduced.
`--skip-cold` reuses a finished run in --workdir (e.g. bench/by_hand.py's corpus folder).
"""

from __future__ import annotations

import argparse
import gzip
import json
import shutil
import tempfile
from pathlib import Path

from _pipeline import DATA, embedded, print_table, rules_run, snakemake

BASE = "listings:\n  - {listing}\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument("--skip-cold", action="store_true", help="reuse the finished run in --workdir")
    parser.add_argument("--no-add", action="store_true", help="skip the added-listing step")
    args = parser.parse_args()
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="bench-reruns-"))
    if not args.skip_cold:
        shutil.rmtree(workdir / "results", ignore_errors=True)
    workdir.mkdir(parents=True, exist_ok=True)
    listing = DATA / "neurips2023" / "neurips2023.jsonl.gz"
    config = workdir / "config.yaml"
    base = BASE.format(listing=listing)
    config.write_text(base)

    rows = []

    goals = {"no-op rerun": 3, "hdbscan tweak": 10, "representation tweak": 10, "report tweak": 3}

    def step(name: str) -> None:
        wall, output = snakemake(workdir)
        jobs = rules_run(output)
        goal = goals.get(name)
        rows.append(
            {
                "step": name,
                "wall_s": f"{wall:.1f}",
                "goal_s": goal or "",
                "met": "" if goal is None else ("yes" if wall <= goal else "NO"),
                "jobs": len(jobs),
                "rules": ",".join(dict.fromkeys(jobs)) or "(nothing to do)",
                "embedded": embedded(workdir)["computed"] if "embed_shard" in jobs else 0,
            }
        )

    if not args.skip_cold:
        step("cold run")
    step("no-op rerun")
    config.write_text(base + "hdbscan:\n  min_cluster_size: 25\n")
    step("hdbscan tweak")
    config.write_text(base + "hdbscan:\n  min_cluster_size: 25\nrepresentation:\n  label_terms: 4\n")
    step("representation tweak")
    config.write_text(
        base
        + "hdbscan:\n  min_cluster_size: 25\nrepresentation:\n  label_terms: 4\n"
        + "report:\n  title: Tweaked title\n"
    )
    step("report tweak")
    if args.no_add:
        config.write_text(base)
        print(f"workdir: {workdir}")
        print_table(rows, ["step", "wall_s", "goal_s", "met", "embedded", "jobs", "rules"])
        return
    extra = workdir / "added.jsonl"
    with (
        gzip.open(DATA / "arxiv-daily" / "arxiv-daily.jsonl.gz", "rt", encoding="utf-8") as handle,
        extra.open("w", encoding="utf-8") as out,
    ):
        for _, line in zip(range(100), handle):
            record = json.loads(line)
            out.write(json.dumps({"title": record["title"], "abstract": record["abstract"]}) + "\n")
    config.write_text(
        BASE.format(listing=listing)
        + f"  - {extra}\n"
        + "hdbscan:\n  min_cluster_size: 25\nrepresentation:\n  label_terms: 4\n"
    )
    step("add 100-abstract listing")
    print(f"workdir: {workdir}")
    print_table(rows, ["step", "wall_s", "goal_s", "met", "embedded", "jobs", "rules"])


if __name__ == "__main__":
    main()
