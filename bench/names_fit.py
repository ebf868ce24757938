"""Choose the namer's weights on the labelled set and print the cross-validated figure.

The labelled set is ../shared/data/iclr2026-sample (1,000 ICLR 2026 submissions with their
authors' keywords). Its papers are cut into FOLDS folds of 500 (seed 0); each fold is a listing
of its own (abstracts only, the seeds' text format), and PARTS listings of 200 and DRAWS listings
of 45 abstracts are drawn from it. Every listing is embedded and clustered once as the workflow
would (cached under --cache). Weights are searched on one fold's listings and scored on the
other's, both ways.

A name "names" a top author keyword of its papers (`hits`): the three keywords its papers give
most often (ties kept; keywords one paper gives count only where none is given twice), folded
(lower case, singular, hyphens and "(ACRONYM)" apart), and a hit is one of them inside a phrase
of the name, or a phrase of two words or more of the name ending one of them ("language models"
of "large language models", not "large language"); either side of "A & B", the long form or the
acronym.

    # cluster the listings (minutes, once), then name them with this checkout's default namer
    PYTHONPATH=src .venv/bin/python bench/names_fit.py --names /tmp/after.json
    # the same listings named by another checkout (git worktree add /tmp/main main)
    PYTHONPATH=/tmp/main/src .venv/bin/python bench/names_fit.py --names /tmp/before.json
    # figures of both, beside plain BERTopic's (c-TF-IDF's first word / four words) on the same topics
    .venv/bin/python bench/names_fit.py --score /tmp/before.json /tmp/after.json
    # weights: coordinate search on the training folds, scored on the fold left out; prints the
    # cross-validated figure and the weights fitted on every fold (what names/score.py ships)
    PYTHONPATH=src .venv/bin/python bench/names_fit.py --fit
    # less noise: R random cuts into two folds (seeds 0..R-1; minutes per new cut), weights
    # searched on each half and scored on the other; held-out mean and range per kind of listing,
    # beside the shipped weights, each searched feature set to 0, and plain BERTopic's first word
    PYTHONPATH=src .venv/bin/python bench/names_fit.py --repeats 5
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import json
import pickle
from pathlib import Path

import _common_eval as ce  # bench/ is on sys.path when this file runs as a script
import _names
import numpy as np
from _names_search import KINDS, Fast, objective, search, start_weights, top_keywords

ICLR = ce.DATA / "iclr2026-sample" / "iclr2026-sample.jsonl.gz"
FOLDS = 2
PARTS, PART_SIZE = 2, 200  # listings of 200 abstracts drawn from each fold
DRAWS, DRAW_SIZE = 8, 45  # listings of 45 abstracts drawn from each fold


# --------------------------------------------------------------------------- listings


def prepare(cache: Path, repeat: int = 0) -> list[dict]:
    """The listings: per fold, the fold itself, PARTS and DRAWS drawn from it, clustered once;
    `repeat` r cuts the papers into folds with seed r (and draws with seed r + 1)."""
    path = cache / ("listings.pkl" if repeat == 0 else f"listings-{repeat}.pkl")
    if path.exists():
        return pickle.loads(path.read_bytes())
    records = [json.loads(line) for line in gzip.open(ICLR, "rt", encoding="utf-8")]
    order = np.random.default_rng(repeat).permutation(len(records))
    folds = np.array_split(order, FOLDS)
    rng = np.random.default_rng(repeat + 1)
    listings = []
    for k, members in enumerate(folds):
        picks = [("fold", members)]
        picks += [("part", rng.choice(members, PART_SIZE, replace=False)) for _ in range(PARTS)]
        picks += [("draw", rng.choice(members, DRAW_SIZE, replace=False)) for _ in range(DRAWS)]
        for kind, picked in picks:
            texts = [" ".join(records[i]["abstract"].split()) for i in picked]
            corpus = _names.text_listing("iclr", "ICLR 2026 sample", texts)
            keyword_of = {" ".join(records[i]["abstract"].split()): records[i]["keywords"] for i in picked}
            keywords = [keyword_of.get(" ".join(str(t).split()), []) for t in corpus["text_raw"]]
            assert sum(map(bool, keywords)) >= 0.95 * len(corpus), "abstracts lost their keywords"
            listings.append({"fold": k, "kind": kind, **_names.clustered(corpus), "keywords": keywords})
            n_clusters = len(set(listings[-1]["clusters"].tolist())) - 1
            print(f"fold {k} {kind}: {len(corpus)} abstracts, {n_clusters} clusters")
    path.write_bytes(pickle.dumps(listings))
    return listings


def fit(data: dict, naming: str = "phrases"):
    """fit_topic_tables as rule fit_topics runs it (bench/_names.py's, one copy for every script)."""
    return _names.fit(data, data["corpus"], **({"naming": naming} if naming != "phrases" else {}))


def name_listings(listings: list[dict], naming: str = "phrases") -> list[dict]:
    """Topic and region names of every listing by the checkout on PYTHONPATH (its defaults)."""
    return [_names.named(fit(data, naming)) for data in listings]


def figures(listings: list[dict], named: list[dict], plain: bool = False) -> dict[str, tuple[int, int]]:
    """hits / total: names and names-or-first-three-terms per kind of listing, and multi-topic
    region names (listings of 500 and 200); with `plain`, plain BERTopic's instead."""
    tally: dict[str, list[int]] = {}

    def add(key: str, hit: bool) -> None:
        tally.setdefault(key, [0, 0])
        tally[key][0] += int(hit)
        tally[key][1] += 1

    for data, result in zip(listings, named):
        assigned = np.asarray(result["assigned"])
        words = _names.plain_words(data["corpus"]["text"].tolist(), assigned) if plain else {}
        where = KINDS[data["kind"]]
        regions: dict[int, list[dict]] = {}
        for t in result["topics"]:
            top = top_keywords(data["keywords"], np.flatnonzero(assigned == t["topic"]))
            name, terms = t["label"], t["terms"][:3]
            if plain:
                name, terms = words[t["topic"]][0], words[t["topic"]]
            add(f"{where}: names", _names.hits(name, top))
            hit = _names.hits(name, top) or any(_names.hits(w, top) for w in terms)
            add(f"{where}: names or 3 terms", hit)
            regions.setdefault(t["region"], []).append(t)
        for members in regions.values():
            if data["kind"] != "draw" and len(members) > 1:
                docs = np.flatnonzero(np.isin(assigned, [t["topic"] for t in members]))
                top = top_keywords(data["keywords"], docs)
                label = members[0]["region_label"]
                if plain:  # BERTopic names no region: the first word of its largest topic's label
                    label = words[max(members, key=lambda t: (assigned == t["topic"]).sum())["topic"]][0]
                add("multi-topic regions (500 and 200)", _names.hits(label, top))
    return {k: (v[0], v[1]) for k, v in sorted(tally.items())}


def show(columns: dict[str, dict[str, tuple[int, int]]]) -> None:
    keys = sorted({k for c in columns.values() for k in c})
    print("| figure | " + " | ".join(columns) + " |\n|---|" + "---|" * len(columns))
    for key in keys:
        cells = []
        for c in columns.values():
            h, n = c.get(key, (0, 0))
            cells.append(f"{h}/{n} = {h / max(n, 1):.0%}")
        print(f"| {key} | " + " | ".join(cells) + " |")


# --------------------------------------------------------------------------- weights


def fit_weights(listings: list[dict], cache: Path) -> None:
    """Per fold: weights searched on the other folds' listings, the fold's own named with them
    (the full namer, second phrases and regions) and scored; then the weights searched on all."""
    from papertopics.topics.names.phrases import PhraseNames
    from papertopics.topics.names.registry import register_naming
    from papertopics.topics.names.score import FEATURE_NAMES, WEIGHTS

    named = (
        json.loads((cache / "before-assigned.json").read_text())
        if (cache / "before-assigned.json").exists()
        else None
    )
    if named is None:
        named = [{"assigned": r["assigned"], "topics": r["topics"]} for r in name_listings(listings)]
        (cache / "before-assigned.json").write_text(json.dumps(named))
    fast = [Fast(d, r) for d, r in zip(listings, named)]

    @register_naming("bench-fitted")
    class Fitted(PhraseNames):
        now = WEIGHTS

        @classmethod
        def for_corpus(cls, corpus, prepared=None):
            return PhraseNames.for_corpus(corpus, prepared).with_weights(cls.now)

    held: list[dict] = [{} for _ in listings]
    ablation: dict[str, list[float]] = {}
    for k in range(FOLDS):
        train = [f for f, d in zip(fast, listings) if d["fold"] != k]
        test_at = [i for i, d in enumerate(listings) if d["fold"] == k]
        weights, got = search(train, start_weights())
        test = [fast[i] for i in test_at]
        print(f"fold {k}: training {got:.3f}, held out {objective(test, weights):.3f}; {weights}", flush=True)
        print("  held out per kind:", {kind: round(objective(test, weights, kind), 3) for kind in KINDS})
        for name in ["fitted", *FEATURE_NAMES, "region_cover"]:  # each at 0
            trial = weights
            if name in FEATURE_NAMES:
                trial = dataclasses.replace(weights, **{name: 0.0})
            elif name == "region_cover":
                trial = dataclasses.replace(weights, region_cover=0.0)
            ablation.setdefault(name, []).append(
                objective(test, trial, "regions" if name == "region_cover" else "topics")
            )
        Fitted.now = weights
        for i, result in zip(test_at, name_listings([listings[i] for i in test_at], "bench-fitted")):
            held[i] = result
    print("\nheld out, fast path (topics, no second phrase: mean of the three kinds; region_cover: regions):")
    for name, values in ablation.items():
        print(f"  {name}: {np.mean(values):.3f}")
    (cache / "cross-validated.json").write_text(json.dumps(held))
    print("\ncross-validated (each fold named with weights fitted on the others):")
    show({"plain BERTopic": figures(listings, held, plain=True), "cross-validated": figures(listings, held)})
    weights, got = search(fast, start_weights())
    print(f"\nfitted on all folds ({got:.3f}); ship these in names/score.py:")
    for field in dataclasses.fields(weights):
        print(f"  {field.name} = {getattr(weights, field.name)}")


def assigned_named(listings: list[dict], path: Path) -> list[dict]:
    """Every listing's topics (documents' topics, regions) as the default namer leaves them, cached."""
    if path.exists():
        return json.loads(path.read_text())
    named = [{"assigned": r["assigned"], "topics": r["topics"]} for r in name_listings(listings)]
    path.write_text(json.dumps(named))
    return named


def repeated(cache: Path, repeats: int) -> None:
    """Repeated random 2-fold splits: per repeat and fold, weights searched on the other fold's
    listings and scored on the fold's own (fast path: names without second phrases; regions),
    beside the shipped weights and plain BERTopic's first word on the same held-out listings."""
    from papertopics.topics.names.score import FEATURE_NAMES, WEIGHTS

    rows: dict[str, dict[str, list[float]]] = {}

    def note(column: str, key: str, value: float) -> None:
        rows.setdefault(column, {}).setdefault(key, []).append(value)

    for r in range(repeats):
        listings = prepare(cache, r)
        named = assigned_named(listings, cache / f"before-assigned{'' if r == 0 else f'-{r}'}.json")
        fast = [Fast(d, n) for d, n in zip(listings, named)]
        for k in range(FOLDS):
            train = [f for f, d in zip(fast, listings) if d["fold"] != k]
            at = [i for i, d in enumerate(listings) if d["fold"] == k]
            test = [fast[i] for i in at]
            weights, got = search(train, start_weights())
            trials = {"searched": weights, "shipped": WEIGHTS}
            trials |= {
                f"searched, {name} 0": dataclasses.replace(weights, **{name: 0.0}) for name in FEATURE_NAMES
            }
            for column, trial in trials.items():
                for kind in [*KINDS, "regions"]:
                    note(column, kind, objective(test, trial, kind))
            plain = figures([listings[i] for i in at], [named[i] for i in at], plain=True)
            for kind, where in KINDS.items():
                h, n = plain[f"{where}: names"]
                note("plain BERTopic", kind, h / max(n, 1))
            short = {n: getattr(weights, n) for n in [*FEATURE_NAMES, "region_cover"]}
            print(
                f"repeat {r} fold {k}: training {got:.3f}; held out",
                {kind: round(rows["searched"][kind][-1], 3) for kind in [*KINDS, "regions"]},
                "shipped",
                {kind: round(rows["shipped"][kind][-1], 3) for kind in [*KINDS, "regions"]},
                short,
                flush=True,
            )
    print(f"\nheld out over {repeats} x {FOLDS} folds: mean (min-max); names without second phrases")
    print("| weights | " + " | ".join([*KINDS.values(), "multi-topic regions"]) + " |\n|---|---|---|---|---|")
    for column, kinds in rows.items():
        cells = [f"{np.mean(v):.3f} ({min(v):.2f}-{max(v):.2f})" for v in kinds.values()]
        print(f"| {column} | " + " | ".join(cells) + " |")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--cache", type=Path, default=Path.home() / ".cache" / "papertopics-bench" / "names-fit"
    )
    parser.add_argument("--names", type=Path, help="name every listing; write the names here")
    parser.add_argument("--score", nargs="+", type=Path, help="figures of these names files")
    parser.add_argument("--fit", action="store_true", help="choose the weights by cross-validation")
    parser.add_argument("--repeats", type=int, help="repeated random 2-fold splits: held-out mean and spread")
    args = parser.parse_args()
    args.cache.mkdir(parents=True, exist_ok=True)
    listings = prepare(args.cache)
    if args.names:
        args.names.write_text(json.dumps(name_listings(listings)))
    if args.score:
        named = [json.loads(p.read_text()) for p in args.score]
        columns = {"plain BERTopic": figures(listings, named[0], plain=True)}
        columns.update({p.stem: figures(listings, n) for p, n in zip(args.score, named)})
        show(columns)
    if args.fit:
        fit_weights(listings, args.cache)
    if args.repeats:
        repeated(args.cache, args.repeats)


if __name__ == "__main__":
    main()
