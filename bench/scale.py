"""The 74,728 arXiv abstracts end to end: wall time and peak RSS per stage.

    .venv/bin/python bench/scale.py [--workdir /tmp/bench-scale] [--limit N]

Goals (issue 15, 2 cores): <= 30 min cold, peak RSS <= 4 GiB, re-clustering (an HDBSCAN tweak)
<= 1 min. UMAP is fitted on `umap.fit_sample` (20,000) documents and places the rest by
transform; bench/sampled_umap.py measures that stage alone (time, RSS, NMI vs a full fit).
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from pathlib import Path

from _pipeline import DATA, print_stages, rule_benchmarks, rules_run, snakemake


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument("--skip-cold", action="store_true", help="reuse an existing cold run in --workdir")
    args = parser.parse_args()
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="bench-scale-"))
    workdir.mkdir(parents=True, exist_ok=True)
    base = f"listings:\n  - {DATA / 'arxiv-daily' / 'arxiv-daily.jsonl.gz'}\n"
    config = workdir / "config.yaml"
    if not args.skip_cold:
        shutil.rmtree(workdir / "results", ignore_errors=True)
        config.write_text(base)
        cold, _ = snakemake(workdir)
        stages = rule_benchmarks(workdir)
        print(f"cold run: {cold / 60:.1f} min wall (goal <= 30)")
        print_stages(stages)
        print(
            f"peak RSS of any stage: {max(v['max_rss_mib'] for v in stages.values()) / 1024:.2f} GiB"
            " (goal <= 4)"
        )
    for name, text in (
        ("hdbscan.min_cluster_size 150", base + "hdbscan:\n  min_cluster_size: 150\n"),
        ("back to the defaults", base),
    ):
        config.write_text(text)
        wall, output = snakemake(workdir)
        print(
            f"re-clustering ({name}): {wall:.1f} s wall (goal <= 60), "
            f"jobs: {','.join(dict.fromkeys(rules_run(output)))}"
        )
    print(f"workdir: {workdir}")


if __name__ == "__main__":
    main()
