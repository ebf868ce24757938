"""The keyphraseness table (topics/names/keyphrase_suffixes.tsv.gz) and its figure, by field left out.

What an author writes as a keyword ends in a noun: "capture-recapture models", "somatic
embryogenesis", never "bodily" or "Australian economic". The table counts, over the authors'
keywords of the labelled set (bench/_names.py: seven fields), how often a word with given last
letters (score.SUFFIX) ends a keyword, against how often such a word is in one; the namer's
`keyphrase` feature is the log odds for a candidate's last word. Cross-validated by field: for
each field left out, the table is rebuilt from the other six, the weight chosen on those six (each
scored with a table built without it too), and the left-out field's abstract-only topic names
scored; nothing of the left-out field is read but to score it.

    # the figure (the package's candidates, features, shortlist and distinct names; topic names
    # without the second phrase, on the clusters of bench/names_fields.py's cache)
    PYTHONPATH=src .venv/bin/python bench/names_keyphrase.py
    # write the table from all seven fields (what the package ships)
    PYTHONPATH=src .venv/bin/python bench/names_keyphrase.py --write
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
from collections import Counter
from pathlib import Path

import _names as nm
import numpy as np

TABLE = nm.ce.REPO / "src" / "papertopics" / "topics" / "names" / "keyphrase_suffixes.tsv.gz"
GRID = (0.0, 0.25, 0.5, 1.0, 2.0, 4.0)


def suffix_table(fields: dict, leave_out: set[str]) -> dict[str, tuple[int, int]]:
    """suffix -> (keywords ending in a word ending so, keyword words ending so), over each
    paper's distinct folded keywords of the fields not left out."""
    from papertopics.topics.names.score import SUFFIX

    ends, words = Counter(), Counter()
    for field, data in fields.items():
        if field in leave_out:
            continue
        for keywords in data["keywords"]:
            for key in {p for kw in keywords for p in nm.parts(kw)}:
                ends[key[-1][-SUFFIX:]] += 1
                words.update(w[-SUFFIX:] for w in key)
    return {s: (ends[s], words[s]) for s in sorted(words)}


def prepared(fields: dict, cache: Path) -> dict:
    """Per field: its abstract-only name index, topics' candidates and top keywords (topics as
    bench/names_fields.py's `--names` run of this checkout left them, else the clusters)."""
    from papertopics.topics.names.phrases import NameIndex, PhraseNames

    out = {}
    for field, data in fields.items():
        corpus, keywords = nm.variant(data, "abstracts")
        index = NameIndex.build(corpus["text_raw"].tolist(), corpus["title"].fillna("").tolist())
        namer = PhraseNames(index).with_vectors(data["vectors"], nm.phrase_vectors(index))
        clusters = np.asarray(data["clusters"])
        groups = {t: np.flatnonzero(clusters == t) for t in sorted(set(clusters.tolist())) if t >= 0}
        skip = nm.generic(data["keywords"])
        top = {g: nm.top_keywords(keywords, docs, skip) for g, docs in groups.items()}
        out[field] = (namer, groups, top)
    return out


def hits(prep: tuple, table: dict, weight: float) -> tuple[int, int]:
    """Topic names (first phrase) hitting a top-3 keyword, with `table` and `weight`."""
    from papertopics.topics.names.chain import names_for
    from papertopics.topics.names.score import keyphraseness, static_features

    namer, groups, top = prep
    static_features(namer.index)["keyphrase"] = keyphraseness(namer.index.keys, table)
    source = namer.with_weights(dataclasses.replace(namer.weights, keyphrase=weight))
    ranked = names_for(source, source.weights).name_groups(groups)  # every group named, as fit_topics does
    return sum(nm.hits(ranked.names[g], top[g]) for g in groups), len(groups)


def cross_validate(fields: dict, preps: dict) -> None:
    total = [0, 0]
    for held in fields:
        inner = [f for f in fields if f != held]
        tables = {f: suffix_table(fields, {held, f}) for f in inner}
        choice = max(GRID, key=lambda w: (sum(hits(preps[f], tables[f], w)[0] for f in inner), -w))
        h, n = hits(preps[held], suffix_table(fields, {held}), choice)
        h0, _ = hits(preps[held], suffix_table(fields, {held}), 0.0)
        total[0] += h
        total[1] += n
        print(f"| {held} | {h0}/{n} = {h0 / n:.2f} | {h}/{n} = {h / n:.2f} | {choice} |", flush=True)
    print(f"| all, held out | | {total[0]}/{total[1]} = {total[0] / total[1]:.2f} | |")
    print("\n| weight (every fold) | held-out names |\n|---|---|")
    for weight in GRID:  # the table still rebuilt without the field scored
        got = [hits(preps[f], suffix_table(fields, {f}), weight) for f in fields]
        h, n = sum(g[0] for g in got), sum(g[1] for g in got)
        print(f"| {weight} | {h}/{n} = {h / n:.2f} |", flush=True)


def main() -> None:
    fmt = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=fmt)
    parser.add_argument("--cache", type=Path, default=Path("/tmp/papertopics-names-fields"))
    parser.add_argument("--write", action="store_true", help="write the table from every field")
    args = parser.parse_args()
    fields = nm.prepare(args.cache)
    if args.write:
        rows = [f"{s}\t{e}\t{w}" for s, (e, w) in suffix_table(fields, set()).items()]
        TABLE.write_bytes(gzip.compress(("suffix\tends\twords\n" + "\n".join(rows) + "\n").encode(), mtime=0))
        print(f"wrote {TABLE} ({len(rows)} suffixes)")
        return
    print("| field left out | keyphrase 0 | keyphrase chosen on the other six | weight |\n|---|---|---|---|")
    cross_validate(fields, prepared(fields, args.cache))


if __name__ == "__main__":
    main()
