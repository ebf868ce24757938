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
import tempfile
from collections import Counter
from pathlib import Path

import _common_eval as ce  # bench/ is on sys.path when this file runs as a script
import _names
import numpy as np

ICLR = ce.DATA / "iclr2026-sample" / "iclr2026-sample.jsonl.gz"
FOLDS = 2
PARTS, PART_SIZE = 2, 200  # listings of 200 abstracts drawn from each fold
DRAWS, DRAW_SIZE = 8, 45  # listings of 45 abstracts drawn from each fold
KINDS = {"fold": "listings of 500", "part": "listings of 200", "draw": "draws of 45"}


# --------------------------------------------------------------------------- listings


fold, parts = _names.fold, _names.parts  # the package's one fold; what a name says


def _inside(short: tuple[str, ...], long: tuple[str, ...]) -> bool:
    return any(long[i : i + len(short)] == short for i in range(len(long) - len(short) + 1))


def top_keywords(keywords: list[list[str]], docs) -> list[tuple[str, ...]]:
    counts = Counter(k for d in docs for k in {p for kw in keywords[d] for p in parts(kw)})
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    if not ranked:
        return []
    cut = max(ranked[min(3, len(ranked)) - 1][1], min(2, ranked[0][1]))
    return [k for k, v in ranked if v >= cut]


def hits(name: str, top: list[tuple[str, ...]]) -> bool:
    said = parts(name)
    return any(_inside(k, s) or (len(s) > 1 and k[-len(s) :] == s) for k in top for s in said)


def prepare(cache: Path, repeat: int = 0) -> list[dict]:
    """The listings: per fold, the fold itself, PARTS and DRAWS drawn from it, clustered once;
    `repeat` r cuts the papers into folds with seed r (and draws with seed r + 1)."""
    path = cache / ("listings.pkl" if repeat == 0 else f"listings-{repeat}.pkl")
    if path.exists():
        return pickle.loads(path.read_bytes())
    from papertopics.ingest.corpus import build_corpus
    from papertopics.ingest.listings import ListingSpec, read_listing
    from papertopics.pipeline import default_config, reduce_and_cluster

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
            with tempfile.TemporaryDirectory() as folder:
                listing = Path(folder) / "listing.txt"
                texts = [" ".join(records[i]["abstract"].split()) for i in picked]
                listing.write_text("ICLR 2026 sample\n\n" + "\n\n".join(texts) + "\n")
                corpus, _ = build_corpus([read_listing(ListingSpec("iclr", listing))])
            keyword_of = {" ".join(records[i]["abstract"].split()): records[i]["keywords"] for i in picked}
            keywords = [keyword_of.get(" ".join(str(t).split()), []) for t in corpus["text_raw"]]
            assert sum(map(bool, keywords)) >= 0.95 * len(corpus), "abstracts lost their keywords"
            vectors = ce.embed(corpus["text"].tolist())
            _, clustering, _ = reduce_and_cluster(vectors, default_config())
            listings.append(
                {
                    "fold": k,
                    "kind": kind,
                    "corpus": corpus,
                    "vectors": vectors,
                    "clusters": np.asarray(clustering.topics),
                    "assignment": np.asarray(clustering.assignment),
                    "confidence": np.asarray(clustering.confidence),
                    "keywords": keywords,
                }
            )
            print(f"fold {k} {kind}: {len(corpus)} abstracts, {len(set(clustering.topics)) - 1} clusters")
    path.write_bytes(pickle.dumps(listings))
    return listings


def fit(data: dict, naming: str = "phrases"):
    """fit_topic_tables as rule fit_topics runs it (bench/_names.py's, one copy for every script)."""
    return _names.fit(data, data["corpus"], **({"naming": naming} if naming != "phrases" else {}))


def name_listings(listings: list[dict], naming: str = "phrases") -> list[dict]:
    """Topic and region names of every listing by the checkout on PYTHONPATH (its defaults)."""
    out = []
    for data in listings:
        fitted = fit(data, naming)
        table = fitted.topics[fitted.topics["topic"] >= 0]
        out.append(
            {
                "assigned": fitted.documents["topic"].tolist(),
                "topics": [
                    {
                        "topic": int(t.topic),
                        "label": t.label,
                        "terms": t.top_terms.split("; "),
                        "region": int(t.region),
                        "region_label": t.region_label,
                    }
                    for t in table.itertuples()
                ],
            }
        )
    return out


def plain_words(texts: list[str], assigned: np.ndarray) -> dict[int, list[str]]:
    """Plain BERTopic's label words for these topics: its default CountVectorizer and
    ClassTfidfTransformer on the same documents and topics (its label "3_fl_clients_federated_...")."""
    from bertopic.vectorizers import ClassTfidfTransformer
    from sklearn.feature_extraction.text import CountVectorizer

    topics = sorted(t for t in set(assigned.tolist()) if t >= 0)
    joined = [" ".join(texts[i] for i in np.flatnonzero(assigned == t)) for t in topics]
    vectorizer = CountVectorizer().fit(joined)
    ctfidf = ClassTfidfTransformer().fit_transform(vectorizer.transform(joined)).toarray()
    words = vectorizer.get_feature_names_out()
    return {t: [str(w) for w in words[np.argsort(-row)[:4]]] for t, row in zip(topics, ctfidf)}


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
        words = plain_words(data["corpus"]["text"].tolist(), assigned) if plain else {}
        where = KINDS[data["kind"]]
        regions: dict[int, list[dict]] = {}
        for t in result["topics"]:
            top = top_keywords(data["keywords"], np.flatnonzero(assigned == t["topic"]))
            name, terms = t["label"], t["terms"][:3]
            if plain:
                name, terms = words[t["topic"]][0], words[t["topic"]]
            add(f"{where}: names", hits(name, top))
            add(f"{where}: names or 3 terms", hits(name, top) or any(hits(w, top) for w in terms))
            regions.setdefault(t["region"], []).append(t)
        for members in regions.values():
            if data["kind"] != "draw" and len(members) > 1:
                docs = np.flatnonzero(np.isin(assigned, [t["topic"] for t in members]))
                top = top_keywords(data["keywords"], docs)
                label = members[0]["region_label"]
                if plain:  # BERTopic names no region: the first word of its largest topic's label
                    label = words[max(members, key=lambda t: (assigned == t["topic"]).sum())["topic"]][0]
                add("multi-topic regions (500 and 200)", hits(label, top))
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


# The coordinate search: each weight in turn takes the grid value that names best (ties keep the
# value it has), twice over; `share` stays 1 (the score's scale).
GRID = {
    "lift": (0.0, 0.125, 0.25, 0.5, 1.0),
    "similarity": (0.0, 1.0, 2.0, 4.0, 8.0, 16.0),
    "title": (0.0, 0.25, 0.5, 1.0),
    "generic": (0.0, -0.1, -0.25, -0.5, -1.0),
    "piece": (0.0, -0.5, -1.0, -2.0),
    "region_cover": (0.0, 0.2, 0.3, 0.5, 0.7),
}


# Where the search starts: share, and lift at a quarter of it (it keeps a topic's own phrase where
# two topics share a common one: the seeds' chain-of-thought topic took "large language models"
# from the agents' topic without it); every other feature off;
# a feature comes in only where it moves the figure by MIN_GAIN.
MIN_GAIN = 0.005


def start_weights():
    from papertopics.topics.names.score import FEATURE_NAMES, WEIGHTS

    off = {name: 0.0 for name in FEATURE_NAMES if name not in ("share", "lift")}
    return dataclasses.replace(WEIGHTS, share=1.0, lift=0.25, **off)


class Fast:
    """One listing's topics and regions with their candidates' features computed once, named by
    any weights with the namer's own pieces; topics without second phrases."""

    def __init__(self, data: dict, result: dict):
        from papertopics.topics.names.phrases import NameIndex, PhraseNames
        from papertopics.topics.names.score import feature_matrix

        corpus = data["corpus"]
        self.index = NameIndex.build(corpus["text_raw"].tolist(), corpus["title"].fillna("").tolist())
        self.namer = PhraseNames(self.index).with_vectors(data["vectors"], _names.phrase_vectors(self.index))
        self.assigned = np.asarray(result["assigned"])
        groups = {t["topic"]: np.flatnonzero(self.assigned == t["topic"]) for t in result["topics"]}
        self.candidates = self.namer.candidates(groups)
        self.features = {g: feature_matrix(c) for g, c in self.candidates.items()}
        self.top = {g: top_keywords(data["keywords"], docs) for g, docs in groups.items()}
        self.kind = data["kind"]
        members: dict[int, list[int]] = {}
        for t in result["topics"]:
            members.setdefault(t["region"], []).append(t["topic"])
        self.multi = {n: ts for n, ts in members.items() if len(ts) > 1 and self.kind != "draw"}
        self.regions = self.namer.region_candidates(self.assigned, self.multi)
        self.region_top = {
            n: top_keywords(data["keywords"], np.flatnonzero(np.isin(self.assigned, ts)))
            for n, ts in self.multi.items()
        }

    def hits(self, weights) -> tuple[list[bool], list[bool]]:
        """Topics' and multi-topic regions' names: does each name a top author keyword?"""
        from papertopics.topics.names.score import weight_vector
        from papertopics.topics.names.select import distinct, shortlist

        vector = weight_vector(weights)
        short = {g: shortlist(c, self.features[g] @ vector, weights) for g, c in self.candidates.items()}
        chosen = distinct(short, self.index.name)
        names = {g: self.index.name(chosen[g]) if g in chosen else "" for g in self.candidates}
        self.coverage = [
            float(c.used[list(c.cols).index(chosen[g])] / c.size) if g in chosen else 0.0
            for g, c in self.candidates.items()
        ]
        regions = self.namer.with_weights(weights).region_names(
            self.assigned, self.multi, self.regions, names
        )
        return (
            [hits(names[g], self.top[g]) for g in self.candidates],
            [hits(regions[n], self.region_top[n]) for n in self.multi],
        )


def objective(fast: list[Fast], weights, part: str = "topics") -> float:
    """Topics: the mean of the names figures of the three kinds of listing; "regions": the
    multi-topic regions' figure; a kind of listing: its names figure."""
    found: dict[str, list[bool]] = {kind: [] for kind in [*KINDS, "regions"]}
    coverage: list[float] = []
    for f in fast:
        topics, regions = f.hits(weights)
        found[f.kind] += topics
        found["regions"] += regions
        coverage += f.coverage
    if part == "coverage":  # the median share of a topic's papers using its name
        return float(np.median(coverage))

    if part in found:
        return float(np.mean(found[part])) if found[part] else 0.0
    return float(np.mean([np.mean(found[k]) if found[k] else 0.0 for k in KINDS]))


def search(fast: list[Fast], start):
    """Coordinate search from `start`: the feature weights on the topics' names, then
    region_cover on the regions' names; a value moves only for MIN_GAIN or more."""
    weights = start
    for part, names in (("topics", [n for n in GRID if n != "region_cover"]), ("regions", ["region_cover"])):
        best = objective(fast, weights, part)
        for _ in range(2):
            for name in names:
                for value in GRID[name]:
                    trial = dataclasses.replace(weights, **{name: value})
                    got = objective(fast, trial, part)
                    if got >= best + MIN_GAIN:
                        weights, best = trial, got
    return weights, objective(fast, weights)


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
