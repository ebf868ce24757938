"""Build src/papertopics/topics/names/title_use.tsv.gz: how often arXiv titles use each phrase.

Researchers name fields by what titles say ("reinforcement learning", "graph neural networks");
abstracts also say what no title does ("efficiency", "unlabeled data", "capabilities"). For every
phrase that NameIndex would count (its folded words: lower case, singular, no hyphens, acronyms
spelled out by the abstracts' own definitions): how many of the 74,728 arXiv records of ../shared
(2025-03 to 2026-07, CC0 metadata) use it in their title, and how many in their abstract, for the
phrases used at least MIN_USES times in all. The namer's `title` feature reads it
(topics/names/score.py); rerun this after a change to how NameIndex folds words (singular,
lower_words), then the names benches (bench/names_fit.py, bench/names_regions.py):

    .venv/bin/python tools/build_title_use.py   # PYTHONPATH=src in a checkout sharing another's venv
"""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path

import numpy as np

from papertopics.topics.names.phrases import TITLE_USE, NameIndex

REPO = Path(__file__).resolve().parents[1]
# A worktree sits beside other worktrees, not beside shared/: PAPERTOPICS_SHARED points there.
DATA = Path(os.environ.get("PAPERTOPICS_SHARED", REPO.parent / "shared")) / "data"

MIN_USES = 20  # titles and abstracts together: rarer phrases weigh 1


def main() -> None:
    with gzip.open(DATA / "arxiv-daily" / "arxiv-daily.jsonl.gz", "rt", encoding="utf-8") as handle:
        records = [json.loads(line) for line in handle]
    abstracts = [r["abstract"].replace("\n", " ") for r in records]
    titles = [r["title"].replace("\n", " ") for r in records]
    in_abstracts = NameIndex.build(abstracts, min_df=5)
    in_titles = NameIndex.build(titles, min_df=3, acronyms=in_abstracts.acronyms)
    counts: dict[tuple[str, ...], list[int]] = {}
    for index, at in ((in_titles, 0), (in_abstracts, 1)):
        df = np.asarray(index.incidence.sum(axis=0)).ravel()
        for key, used in zip(index.keys, df):
            counts.setdefault(key, [0, 0])[at] = int(used)
    lines = sorted(
        "\t".join([" ".join(key), *map(str, row)])
        for key, row in counts.items()
        if row[0] + row[1] >= MIN_USES and "\t" not in "".join(key)
    )
    out = REPO / "src" / "papertopics" / "topics" / "names" / TITLE_USE
    # mtime=0: the same table is the same bytes
    table = "phrase\ttitles\tabstracts\n" + "\n".join(lines) + "\n"
    out.write_bytes(gzip.compress(table.encode(), mtime=0))
    print(f"{out}: {len(lines)} phrases from {len(records)} abstracts")


if __name__ == "__main__":
    main()
