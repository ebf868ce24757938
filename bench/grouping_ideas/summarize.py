"""Tables from rows_<corpus>.json: seed-42 row, and across seeds mean NMI and paired delta vs default."""

import json
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

OUT = Path(__import__("os").environ.get("GROUPING_IDEAS_OUT", "/tmp/grouping-exp"))
DEF = "default (HDBSCAN eom + centroid q=0.05)"
for corpus in sys.argv[1:] or ("arxiv6k", "proxy", "bbc"):
    p = OUT / f"rows_{corpus}.json"
    if not p.exists():
        continue
    rows = json.loads(p.read_text())
    by = defaultdict(dict)
    for r in rows:
        by[r["method"]][r["seed"]] = r
    d = by[DEF]
    print(
        f"\n## {corpus}  (default NMI by seed: "
        + ", ".join(f"{s}: {d[s]['nmi']:.3f}" for s in sorted(d))
        + f"; sd {np.std([d[s]['nmi'] for s in d], ddof=1):.3f})"
    )
    print(
        "| method | seed | topics | outliers | NMI | ARI | s | NMI mean (seeds) | dNMI vs default mean [min,max] | dARI mean | outl. mean |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for m, per in by.items():
        s0 = 42 if 42 in per else sorted(per)[0]
        r = per[s0]
        seeds = sorted(s for s in per if s in d)
        paired = [s for s in seeds if not m.startswith("consensus")]
        if m.startswith("consensus"):
            dm = [per[s0]["nmi"] - np.mean([d[s]["nmi"] for s in d])]
            da = [per[s0]["ari"] - np.mean([d[s]["ari"] for s in d])]
            tag = "vs 5-seed default mean"
        else:
            dm = [per[s]["nmi"] - d[s]["nmi"] for s in paired]
            da = [per[s]["ari"] - d[s]["ari"] for s in paired]
            tag = f"n={len(paired)}"
        print(
            f"| {m} | {s0} | {r['topics']} | {100 * r['outliers']:.1f}% | {r['nmi']:.3f} | {r['ari']:.3f} | {r['seconds']:.1f} "
            f"| {np.mean([per[s]['nmi'] for s in per]):.3f} | {np.mean(dm):+.3f} [{min(dm):+.3f},{max(dm):+.3f}] {tag} "
            f"| {np.mean(da):+.3f} | {100 * np.mean([per[s]['outliers'] for s in per]):.1f}% |"
        )
