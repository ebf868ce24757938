"""The null of `topics.pinned_min_similarity: auto`: pins the listing has no papers about, against
pins it has, on the ICLR 2026 sample.

    .venv/bin/python bench/pinned_null.py [--papers 300 1000]

Each pin is embedded as the workflow does (papertopics.cluster.pinned: "a paper about <name>",
seen from the corpus' average paper). Rows: everyday phrases no ICLR paper is about (nonsense),
research topics, and the sample's 21 primary areas by their own words. Columns, per corpus size:
papers `auto` alone gives (mean + 2 SD, the rule before the null), the mean cosine of the pin's
NULL_BEST best papers, its robust z against the controls' same figure (cluster.pinned.null_check:
the pin gathers papers only at z >= AUTO_SIGMAS), and the papers it gathers now.
"""

from __future__ import annotations

import argparse

import numpy as np
from _common_eval import embed, fmt, print_table
from pinned import load_iclr

from papertopics.cluster.pinned import (
    AUTO_SIGMAS,
    CONTROLS,
    PinnedTopic,
    assign_pinned,
    centred,
    null_check,
    topic_vector,
)

NONSENSE = (
    "medieval French troubadour poetry", "baking sourdough bread", "football transfer market",
    "corporate tax law", "knitting patterns", "opera singing", "ancient Roman architecture", "dog grooming",
)  # fmt: skip
TOPICS = (
    "causal inference", "reinforcement learning", "privacy", "protein structure", "diffusion models",
    "robotics", "speech recognition", "fairness", "quantum computing", "time series forecasting",
    "federated learning", "climate", "music generation",
)  # fmt: skip


def vectors_of(phrases) -> np.ndarray:
    return np.vstack([topic_vector(v) for v in embed([PinnedTopic(p).text for p in phrases])])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--papers", type=int, nargs="+", default=[300, 1000])
    args = parser.parse_args()
    texts, _, areas = load_iclr()
    pins = [*NONSENSE, *TOPICS, *areas]
    kinds = ["nonsense"] * len(NONSENSE) + ["topic"] * len(TOPICS) + ["area"] * len(areas)
    pinned, controls = vectors_of(pins), vectors_of(CONTROLS)
    rows = [{"pin": p[:40], "kind": k} for p, k in zip(pins, kinds)]
    columns = ["pin", "kind"]
    for n in args.papers:
        vectors = embed(texts[:n])
        similarity = centred(vectors) @ pinned.T
        check = null_check(vectors, pinned, controls)
        z = (check["best"] - check["null"]) / check["spread"]
        before = [(assign_pinned(vectors, pinned[[j]], "auto")[0] == 0).sum() for j in range(len(pins))]
        after = [int(b) if ok else 0 for b, ok in zip(before, check["stands_out"])]
        for row, b, best, zz, a in zip(rows, before, check["best"], z, after):
            row.update({f"auto {n}": int(b), f"best {n}": fmt(float(best)), f"z {n}": f"{zz:.1f}"})
            row[f"now {n}"] = a
        columns += [f"auto {n}", f"best {n}", f"z {n}", f"now {n}"]
        print(
            f"# {n} papers: controls' figure {check['null']:.3f}, spread {check['spread']:.3f}, "
            f"needed z >= {AUTO_SIGMAS}; best cosine of any paper to a pin {similarity.max():.3f}"
        )
    print_table(rows, columns)


if __name__ == "__main__":
    main()
