"""Curation on NeurIPS 2023 (3,582 abstracts): rename, merge and three pinned interests, then a
re-clustering, each a rerun of a finished folder; what each costs and what the map says after.

    .venv/bin/python bench/curation.py --workdir /tmp/neurips-run [--rename 2] [--merge 0 13]

--workdir must hold a finished run of the listing alone (config.yaml naming
../shared/data/neurips2023/neurips2023.jsonl.gz; bench/reruns.py or bench/by_hand.py make one);
its config.yaml is rewritten step by step and restored at the end. The topic ids are those of
that run (the defaults: 11 "labels", 1 "images & videos", 3 "point clouds & scenes", a cold run at
6d53dc4; the run the issue was filed from had 2 "labels & out-of-distribution (OOD)", 0 and 13).
Goal (issue 41): a rename <= 3 s.
wall_s: the whole snakemake command (start-up, DAG, jobs); jobs_s: the jobs' own seconds, summed
(their benchmark files), what the edit costs beyond Snakemake's start.
Steps, each on top of the one before:
  rename        topics.names: {ID: "semi-supervised learning & OOD detection"}
  merge         topics.merge: [[A, B]]
  pin           topics.pinned: three interests, pinned_min_similarity auto
  re-cluster    hdbscan.min_cluster_size: 25 (another clustering: what happens to each key)
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pandas as pd
from _pipeline import print_table, rule_benchmarks, rules_run, snakemake

RENAMED = "semi-supervised learning & domain adaptation"
INTERESTS = ["causal inference", "privacy-preserving machine learning", "robot learning"]
GOALS = {"rename": 3.0}


def topics(workdir: Path) -> pd.DataFrame:
    return pd.read_csv(workdir / "results/topics/topics.csv", keep_default_na=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workdir", type=Path, required=True)
    parser.add_argument("--rename", type=int, default=11)
    parser.add_argument("--merge", type=int, nargs="+", default=[1, 3])
    args = parser.parse_args()
    config = args.workdir / "config.yaml"
    original = config.read_text()
    before = topics(args.workdir).set_index("topic")
    rows, notes = [], []

    def step(name: str, text: str) -> pd.DataFrame:
        config.write_text(original + text)
        wall, output = snakemake(args.workdir)
        jobs = rules_run(output)
        goal = GOALS.get(name)
        timings = rule_benchmarks(args.workdir)  # each job's own seconds (Snakemake's benchmark files)
        work = sum(timings[rule]["seconds"] for rule in set(jobs) if rule in timings)
        warnings = [line for line in output.splitlines() if line.startswith("papertopics warning:")]
        rows.append(
            {
                "step": name,
                "wall_s": f"{wall:.1f}",
                "jobs_s": f"{work:.1f}",
                "goal_s": goal or "",
                "jobs": len(jobs),
                "rules": ",".join(dict.fromkeys(jobs)),
                "warnings": len(warnings),
            }
        )
        notes.extend(f"  {name}: {line}" for line in warnings)
        return topics(args.workdir).set_index("topic")

    first, *rest = args.merge
    names = f'topics:\n  names:\n    {args.rename}: "{RENAMED}"\n'
    merge = f"  merge:\n    - [{', '.join(map(str, args.merge))}]\n"
    pinned = (
        "  pinned:\n" + "".join(f"    - {name}\n" for name in INTERESTS) + "  pinned_min_similarity: auto\n"
    )
    try:
        t = step("no-op", "")
        t = step("rename", names)
        old, new = before.loc[args.rename, "label"], t.loc[args.rename, "label"]
        notes.append(f"  rename: topic {args.rename} {old!r} -> {new!r}")
        t = step("merge", names + merge)
        parts = " + ".join(f"{i} {before.loc[i, 'label']!r} ({before.loc[i, 'size']})" for i in args.merge)
        notes.append(f"  merge: {parts} -> topic {first} {t.loc[first, 'label']!r} ({t.loc[first, 'size']})")
        t = step("pin", names + merge + pinned)
        for row in t[t["pinned"] != ""].itertuples():
            notes.append(f"  pin: topic {row.Index} {row.label!r}: {row.size} papers")
        kept = dict(zip(t.loc[t["pinned"] != "", "pinned"], t.index[t["pinned"] != ""]))
        t = step("re-cluster", names + merge + pinned + "hdbscan:\n  min_cluster_size: 25\n")
        notes.append(
            f"  re-cluster: {int((t.index >= 0).sum())} topics (before {int((before.index >= 0).sum())})"
        )
        for label, topic in kept.items():
            now = t.index[t["pinned"] == label].tolist()
            size = t.loc[now, "size"].sum()
            notes.append(f"  re-cluster: pinned {label!r} was topic {topic}, now {now} ({size} papers)")
        for topic, what in ((args.rename, "renamed"), (first, "merged")):
            if topic in t.index:
                notes.append(
                    f"  re-cluster: {what} topic {topic}: {t.loc[topic, 'label']!r} ({t.loc[topic, 'size']})"
                )
            else:
                notes.append(f"  re-cluster: {what} topic {topic} is gone")
        for topic in rest:
            notes.append(
                f"  re-cluster: merged-away topic {topic} {'present' if topic in t.index else 'absent'}"
            )
    finally:
        config.write_text(original)
    print_table(rows, ["step", "wall_s", "jobs_s", "goal_s", "jobs", "warnings", "rules"])
    print("\n".join(notes))


if __name__ == "__main__":
    main()
