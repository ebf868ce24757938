"""keyword_floor and keyword_share chosen per field left out (issue 58 goals 3 and 4).

For every topic of the labelled fields (bench/_names.py), named by a checkout's names file
(bench/names_fields.py --names), in the "half" and "all" variants: the keyword the keyword source
would pick with no floor and no share threshold, the share of the topic's keyworded papers that
give it, the share of its papers that carry keywords, and whether it (or the abstract name
instead) hits a top-3 keyword. Then (floor, share, docs) chosen on the other fields, scored on
the one left out:

    PYTHONPATH=src .venv/bin/python bench/names_keyword_floor.py --names /tmp/names.json
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import json
from pathlib import Path

import _names as nm
import numpy as np

GRID = list(itertools.product([0, 0.05, 0.1, 0.15, 0.2, 0.3], [0, 0.1, 0.15, 0.25, 0.35, 0.5], [1, 2, 3, 5]))


def topic_rows(fields: dict, names: dict) -> list[dict]:
    from papertopics.topics.names.keywords import KeywordNames
    from papertopics.topics.names.phrases import NameIndex, PhraseNames
    from papertopics.topics.names.registry import Listing
    from papertopics.topics.names.score import WEIGHTS

    loose = dataclasses.replace(WEIGHTS, keyword_floor=0.0, keyword_share=0.0, keyword_docs=1)
    rows = []
    for field, data in fields.items():
        index = NameIndex.build(
            data["corpus"]["text_raw"].tolist(), data["corpus"]["title"].fillna("").tolist()
        )
        skip = nm.generic(data["keywords"])
        for kind in ("half", "all"):
            corpus, scored = nm.variant(data, kind)
            assigned = np.asarray(names[f"{field}|{kind}"]["assigned"])
            listing = Listing(corpus, index, weights=loose)
            words, abstracts = KeywordNames.for_listing(listing), PhraseNames.for_listing(listing)
            groups = {t: np.flatnonzero(assigned == t) for t in sorted(set(assigned.tolist())) if t >= 0}
            kw = words.name_groups(groups, taken=set(), second=True).names
            ab = abstracts.name_groups(groups, taken=set(), second=True).names
            given = words._given(kw, groups)
            for g, docs in groups.items():
                top = nm.top_keywords(scored, docs, skip)
                rows.append(
                    {
                        "field": field,
                        "kind": kind,
                        "kw": g in kw,
                        "given": given.get(g, 0.0),
                        "frac": float(words.keyworded[docs].mean()),
                        "nkw": int(words.keyworded[docs].sum()),
                        "kwhit": g in kw and nm.hits(kw[g], top),
                        "abshit": nm.hits(ab.get(g, ""), top),
                    }
                )
    return rows


def hit(row: dict, floor: float, share: float, docs: int) -> bool:
    keyword = row["kw"] and row["given"] >= floor and row["frac"] >= share and row["nkw"] >= docs
    return row["kwhit"] if keyword else row["abshit"]


def score(rows: list[dict], *setting) -> dict[str, float]:
    out = {}
    for kind in ("half", "all"):
        found = [hit(r, *setting) for r in rows if r["kind"] == kind]
        out[kind] = sum(found) / max(len(found), 1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cache", type=Path, default=Path("/tmp/papertopics-names-fields"))
    parser.add_argument("--names", type=Path, required=True)
    args = parser.parse_args()
    rows = topic_rows(nm.prepare(args.cache), json.loads(args.names.read_text()))
    for setting in [(0.0, 0.25, 3), (0.1, 0.25, 3), (0.2, 0.25, 3), (0.1, 0.0, 1)]:
        print("floor, share, docs", setting, {k: round(v, 3) for k, v in score(rows, *setting).items()})
    held: dict[str, list[bool]] = {"half": [], "all": []}
    for field in sorted({r["field"] for r in rows}):
        train = [r for r in rows if r["field"] != field]
        best = max(GRID, key=lambda s: (round(sum(score(train, *s).values()), 6), s[1] == 0.25, -s[0]))
        print(f"left out {field}: chosen {best}")
        for kind in held:
            held[kind] += [hit(r, *best) for r in rows if r["field"] == field and r["kind"] == kind]
    print("held out:", {k: round(sum(v) / len(v), 3) for k, v in held.items()})


if __name__ == "__main__":
    main()
