"""Fit and cache every UMAP the experiments need (each fit once): .npy under /tmp/grouping-exp/."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
from common import CORPORA, get_umap, load  # noqa: E402

plan = (
    [(s, "auto", 5) for s in (42,)]
    + [(s, "auto", 5) for s in (43, 44, 45, 46)]
    + [(42, 30, 5), (42, 50, 5), (42, "auto", 10)]
)
data = {}
for seed, nn, nc in plan:
    for c in CORPORA:
        if c not in data:
            data[c] = load(c)
            print(f"# {c}: {len(data[c][0])} docs", flush=True)
        get_umap(c, data[c][2], seed, nn, nc)
print("# all UMAPs done", flush=True)
