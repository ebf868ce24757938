"""Compare a local and a SLURM run of the workflow and print per-job timings.

Called by tests/cluster/run_cluster_test.sh:

    python tests/cluster/summarize.py --local DIR --slurm DIR --local-log LOG --slurm-log LOG \
        --compare results/topics/document_topics.csv --compare results/topics/topics.csv

Timings come from Snakemake's own log (start and finish lines, 1 s resolution; for SLURM jobs
that is submission to the status check that saw the job end) and from the benchmark files the
rules write (`benchmark:` directive, e.g. results/benchmarks/...), which time the job's command
itself.  No sacct needed.  Exit status 0 when every --compare file exists in both runs and is
byte-identical, 1 otherwise.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import re
import sys
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path

TS_RE = re.compile(r"^\[(\w{3} \w{3} +\d+ \d\d:\d\d:\d\d \d{4})\]$")
RULE_RE = re.compile(r"^(?:local)?(?:rule|checkpoint) (\S+):$")
FINISHED_RE = re.compile(r"^Finished jobid: (\d+)")
ERROR_RE = re.compile(r"^Error in rule (\S+):")
SLURM_RE = re.compile(r"^Job (\d+) has been submitted with SLURM jobid (\d+)")


@dataclass
class Job:
    rule: str
    jobid: str
    start: datetime | None = None
    end: datetime | None = None
    wildcards: str = ""
    threads: int = 1
    cpus_per_task: str = ""
    mem_mb: str = ""
    benchmark: str = ""
    slurm_jobid: str = ""
    local: bool = False
    failed: bool = False
    extra: dict = field(default_factory=dict)

    @property
    def label(self) -> str:
        return f"{self.rule}[{self.wildcards}]" if self.wildcards else self.rule

    @property
    def seconds(self) -> float | None:
        if self.start and self.end:
            return (self.end - self.start).total_seconds()
        return None


def parse_log(path: Path) -> dict[str, Job]:
    """Jobs by label from a Snakemake log (the run's stdout/stderr or .snakemake/log/*)."""
    jobs_by_id: dict[str, Job] = {}
    ts: datetime | None = None
    pending: tuple[str, bool] | None = None
    current: Job | None = None
    for raw in path.read_text(errors="replace").splitlines():
        line = raw.rstrip()
        s = line.strip()
        if m := TS_RE.match(s):
            ts = datetime.strptime(" ".join(m.group(1).split()), "%a %b %d %H:%M:%S %Y")
            continue
        if m := RULE_RE.match(s):
            pending = (m.group(1), s.startswith("local"))
            current = None
            continue
        if pending and s.startswith("jobid:"):
            jobid = s.split(":", 1)[1].strip()
            current = jobs_by_id.setdefault(jobid, Job(rule=pending[0], jobid=jobid))
            current.start, current.local = ts, pending[1]
            pending = None
            continue
        if current is not None and line.startswith("    "):
            key, _, value = s.partition(":")
            value = value.strip()
            if key == "wildcards":
                current.wildcards = value
            elif key == "threads":
                current.threads = int(value)
            elif key == "benchmark":
                current.benchmark = value
            elif key == "resources":
                res = dict(kv.split("=", 1) for kv in (p.strip() for p in value.split(",")) if "=" in kv)
                current.cpus_per_task = res.get("cpus_per_task", "")
                current.mem_mb = res.get("mem_mb", "")
            continue
        current = None
        if m := FINISHED_RE.match(s):
            if (job := jobs_by_id.get(m.group(1))) is not None:
                job.end = ts
        elif m := SLURM_RE.match(s):
            if (job := jobs_by_id.get(m.group(1))) is not None:
                job.slurm_jobid = m.group(2)
        elif m := ERROR_RE.match(s):
            for job in jobs_by_id.values():
                if job.rule == m.group(1) and job.end is None:
                    job.failed = True
    return {j.label: j for j in jobs_by_id.values()}


def read_benchmark(path: Path) -> tuple[float, float] | None:
    """(seconds, max_rss MB) from a Snakemake benchmark file (mean over repeats)."""
    try:
        rows = list(csv.DictReader(path.open(), delimiter="\t"))
    except OSError:
        return None
    if not rows:
        return None

    def mean(col: str) -> float:
        vals = []
        for r in rows:
            try:
                vals.append(float(r.get(col, "nan")))
            except ValueError:
                pass
        return sum(vals) / len(vals) if vals else float("nan")

    return mean("s"), mean("max_rss")


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def fmt(x: float | None, nd: int = 1) -> str:
    if x is None or x != x:  # None or NaN
        return "-"
    return f"{x:.{nd}f}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--local", type=Path, required=True, help="working directory of the local run")
    ap.add_argument("--slurm", type=Path, required=True, help="working directory of the SLURM run")
    ap.add_argument("--local-log", type=Path, required=True)
    ap.add_argument("--slurm-log", type=Path, required=True)
    ap.add_argument("--compare", action="append", default=[], help="path relative to both dirs")
    args = ap.parse_args()

    ok = True
    print("\n== Outputs compared (must be byte-identical) ==")
    for rel in args.compare:
        a, b = args.local / rel, args.slurm / rel
        if not a.is_file() or not b.is_file():
            missing = [str(p) for p in (a, b) if not p.is_file()]
            print(f"  MISSING    {rel}: {', '.join(missing)}")
            ok = False
            continue
        ha, hb = sha256(a), sha256(b)
        if ha == hb:
            print(f"  IDENTICAL  {rel}  ({a.stat().st_size} bytes, sha256 {ha[:16]})")
        else:
            print(f"  DIFFERENT  {rel}  (local sha256 {ha[:16]}, slurm sha256 {hb[:16]})")
            ok = False

    # Informational: the other result files (reports and benchmarks carry timestamps/timings).
    others_same, others_diff = 0, []
    skip = ("results/benchmarks/", "results/logs/", "results/report/")
    for a in sorted((args.local / "results").rglob("*")):
        rel = a.relative_to(args.local).as_posix()
        if not a.is_file() or rel in args.compare or rel.startswith(skip):
            continue
        b = args.slurm / rel
        if b.is_file() and sha256(a) == sha256(b):
            others_same += 1
        else:
            others_diff.append(rel)
    print(
        f"  (other result files, informational: {others_same} identical, "
        f"{len(others_diff)} different or missing in the SLURM run"
        + (
            ": " + ", ".join(others_diff[:8]) + (" ..." if len(others_diff) > 8 else "")
            if others_diff
            else ""
        )
        + ")"
    )

    local_jobs, slurm_jobs = parse_log(args.local_log), parse_log(args.slurm_log)
    labels = list(dict.fromkeys([*slurm_jobs, *local_jobs]))
    print("\n== Per-job timings ==")
    print(
        "  wall = Snakemake log, job start to finish seen (1 s resolution; for SLURM: sbatch to"
        " the status check that saw it end)"
    )
    print("  cmd  = benchmark file (the job's command alone), rss = its max RSS in MB")
    header = (
        f"  {'job':<44} {'thr':>3} {'cpt':>3} {'mem_mb':>6} {'sbatch':>6} "
        f"{'local wall':>10} {'local cmd':>9} {'slurm wall':>10} {'slurm cmd':>9} "
        f"{'slurm rss':>9}"
    )
    print(header)
    print("  " + "-" * (len(header) - 2))
    totals = {"lw": 0.0, "lc": 0.0, "sw": 0.0, "sc": 0.0}
    for label in labels:
        lj, sj = local_jobs.get(label), slurm_jobs.get(label)
        ref = sj or lj
        lb = read_benchmark(args.local / lj.benchmark) if lj and lj.benchmark else None
        sb = read_benchmark(args.slurm / sj.benchmark) if sj and sj.benchmark else None
        lw = lj.seconds if lj else None
        sw = sj.seconds if sj else None
        for key, val in (
            ("lw", lw),
            ("lc", lb[0] if lb else None),
            ("sw", sw),
            ("sc", sb[0] if sb else None),
        ):
            if val is not None and val == val:
                totals[key] += val
        flag = " FAILED" if (lj and lj.failed) or (sj and sj.failed) else ""
        sbatch = sj.slurm_jobid if sj and sj.slurm_jobid else ("local" if sj and sj.local else "-")
        print(
            f"  {label[:44]:<44} {ref.threads:>3} {(sj.cpus_per_task if sj else '') or '-':>3} "
            f"{(sj.mem_mb if sj else '') or '-':>6} {sbatch:>6} {fmt(lw, 0):>10} "
            f"{fmt(lb[0] if lb else None):>9} {fmt(sw, 0):>10} {fmt(sb[0] if sb else None):>9} "
            f"{fmt(sb[1] if sb else None, 0):>9}{flag}"
        )
    print("  " + "-" * (len(header) - 2))
    print(
        f"  {'sum':<44} {'':>3} {'':>3} {'':>6} {'':>6} {fmt(totals['lw'], 0):>10} "
        f"{fmt(totals['lc']):>9} {fmt(totals['sw'], 0):>10} {fmt(totals['sc']):>9}"
    )

    submitted = sum(1 for j in slurm_jobs.values() if j.slurm_jobid)
    mismatched = [
        j.label
        for j in slurm_jobs.values()
        if j.slurm_jobid and j.cpus_per_task and j.cpus_per_task != str(j.threads)
    ]
    print(
        f"\n  SLURM jobs submitted: {submitted}; local-only jobs in the SLURM run: "
        f"{sum(1 for j in slurm_jobs.values() if j.local)}"
    )
    if submitted == 0:
        print("  ERROR: the SLURM run submitted no job (did it run with the slurm executor?)")
        ok = False
    if mismatched:
        print(f"  ERROR: cpus_per_task differs from threads for: {', '.join(mismatched)}")
        ok = False
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
