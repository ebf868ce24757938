"""Extra UMAPs: the n_neighbors / n_components variants under seeds 43, 44 too (seed spread)."""

import sys

sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
from common import CORPORA, get_umap, load  # noqa: E402

plan = [(42, 30, 10)] + [
    (s, nn, nc) for s in (43, 44) for nn, nc in ((30, 5), (50, 5), ("auto", 10), (30, 10))
]
data = {}
for seed, nn, nc in plan:
    for c in CORPORA:
        if c not in data:
            data[c] = load(c)
        get_umap(c, data[c][2], seed, nn, nc)
print("# all UMAPs done", flush=True)
