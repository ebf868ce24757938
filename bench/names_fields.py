"""Names across fields: hits per field of the labelled set (bench/_names.py), beside plain BERTopic.

Three variants per listing: "abstracts" (no keywords column: the namer reads abstracts only;
scored on every paper's keywords), "half" (the keywords of a random half of the papers are in
the listing; scored on the other half's, so a keyword name cannot hit by being read) and "all"
(every paper's keywords in the listing, as the export has them, and scored on). Every field
is named on the same embeddings and clusters (cached) by each checkout:

    # embed and cluster the nine listings (minutes, once), name them with this checkout
    PYTHONPATH=src .venv/bin/python bench/names_fields.py --names /tmp/i48/after.json
    # the same listings named by another checkout (git archive 2788dce | tar -x -C /tmp/base)
    PYTHONPATH=/tmp/base/src .venv/bin/python bench/names_fields.py --names /tmp/i48/before.json
    # per field and variant: names and name-or-3-terms hits of plain BERTopic and each file
    .venv/bin/python bench/names_fields.py --score /tmp/i48/before.json /tmp/i48/after.json

Nothing here is fitted on the labelled set, so a field's figure is its held-out figure; a
namer with a fitted table reports it refitted per field left out (see its own script).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import _names as nm
import numpy as np

VARIANTS = ("abstracts", "half", "all")


def name_all(cache: Path) -> dict:
    fields = nm.prepare(cache)
    out = {}
    for field, data in fields.items():
        for kind in VARIANTS:
            corpus, _ = nm.variant(data, kind)
            out[f"{field}|{kind}"] = nm.named(nm.fit(data, corpus))
            labels = [t["label"] for t in out[f"{field}|{kind}"]["topics"]]
            print(f"# {field} {kind}: {'; '.join(labels[:8])}", flush=True)
    return out


def tally(fields: dict, results: dict, plain: bool) -> dict[str, tuple[int, int]]:
    """(field, variant, figure) -> hits, total."""
    counts: dict[str, list[int]] = {}

    def add(key: str, hit: bool) -> None:
        counts.setdefault(key, [0, 0])
        counts[key][0] += int(hit)
        counts[key][1] += 1

    for key, result in results.items():
        field, kind = key.split("|")
        data = fields[field]
        _, keywords = nm.variant(data, kind)
        skip = nm.generic(data["keywords"])
        assigned = np.asarray(result["assigned"])
        words = nm.plain_words(data["corpus"]["text"].tolist(), assigned) if plain else {}
        regions: dict[int, list[dict]] = {}
        for t in result["topics"]:
            top = nm.top_keywords(keywords, np.flatnonzero(assigned == t["topic"]), skip)
            name, terms = t["label"], t["terms"][:3]
            if plain:
                name, terms = words[t["topic"]][0], words[t["topic"]][:3]
            add(f"{field}|{kind}|names", nm.hits(name, top))
            small = (assigned == t["topic"]).sum() < len(assigned) / 2
            add(f"{field}|{kind}|generic names", small and nm.is_generic(name, skip))
            add(f"{field}|{kind}|fragment names", nm.is_fragment(name))
            add(f"{field}|{kind}|names or 3 terms", nm.hits(name, top) or any(nm.hits(w, top) for w in terms))
            regions.setdefault(t["region"], []).append(t)
        for members in regions.values():
            if len(members) > 1:
                docs = np.flatnonzero(np.isin(assigned, [t["topic"] for t in members]))
                label = members[0]["region_label"]
                if plain:  # BERTopic names no region: the first word of its largest topic's label
                    label = words[max(members, key=lambda t: (assigned == t["topic"]).sum())["topic"]][0]
                add(f"{field}|{kind}|regions", nm.hits(label, nm.top_keywords(keywords, docs, skip)))
    return {k: (v[0], v[1]) for k, v in counts.items()}


def show(columns: dict[str, dict[str, tuple[int, int]]]) -> None:
    keys = list(dict.fromkeys(k for c in columns.values() for k in c))
    print("| field | variant | figure | " + " | ".join(columns) + " |\n|---|---|---|" + "---|" * len(columns))
    sums: dict[tuple[str, str, str], list[int]] = {}
    for key in keys:
        cells = []
        for name, c in columns.items():
            h, n = c.get(key, (0, 0))
            cells.append(f"{h}/{n} = {h / max(n, 1):.2f}")
            total = sums.setdefault((*key.split("|")[1:], name), [0, 0])
            total[0], total[1] = total[0] + h, total[1] + n
        print("| " + " | ".join(key.split("|")) + " | " + " | ".join(cells) + " |")
    for kind in VARIANTS:
        for figure in ("names", "names or 3 terms", "regions", "generic names", "fragment names"):
            cells = []
            for name in columns:
                h, n = sums.get((kind, figure, name), (0, 0))
                cells.append(f"{h}/{n} = {h / max(n, 1):.2f}")
            print(f"| all pooled | {kind} | {figure} | " + " | ".join(cells) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--cache", type=Path, default=Path("/tmp/papertopics-names-fields"))
    parser.add_argument("--names", type=Path, help="name every field with this checkout; write them here")
    parser.add_argument("--score", type=Path, nargs="+", help="names files to score beside plain BERTopic")
    args = parser.parse_args()
    if args.names:
        args.names.write_text(json.dumps(name_all(args.cache)))
    if args.score:
        fields = nm.prepare(args.cache)
        results = {p.stem: json.loads(p.read_text()) for p in args.score}
        columns = {"plain BERTopic": tally(fields, results[args.score[0].stem], plain=True)}
        columns.update({stem: tally(fields, r, plain=False) for stem, r in results.items()})
        show(columns)
        for stem, r in results.items():  # where the names came from
            sources = [t["source"] for key, v in r.items() if key.endswith("|all") for t in v["topics"]]
            print(f"# {stem}, all: names from keywords {sources.count('keywords')}/{len(sources)}")


if __name__ == "__main__":
    main()
