"""Topic names, their coverage and the map's regions on the seeds, NeurIPS 2023 and arXiv 6k.

Runs the fit_topics stage (papertopics.topics.fit.fit_topic_tables) on fixed clusters, so only naming
and regions differ between two checkouts. Clusters, embeddings and the corpus are prepared
once per corpus and cached under --cache (the same clusters for "before" and "after"):

    # prepare (minutes for arXiv 6k: embedding + UMAP/HDBSCAN), then measure this checkout
    PYTHONPATH=src .venv/bin/python bench/names_regions.py --out /tmp/after.json
    # the same clusters named by another checkout (e.g. `git worktree add /tmp/main main`)
    PYTHONPATH=/tmp/main/src .venv/bin/python bench/names_regions.py --out /tmp/before.json
    .venv/bin/python bench/names_regions.py --compare /tmp/before.json /tmp/after.json
    # fit_topics' cost (quiet machine), before and after: best of 5 on NeurIPS 2023
    PYTHONPATH=src .venv/bin/python bench/names_regions.py --corpora neurips --time 5
    # names on eight 45-abstract text listings drawn from NeurIPS 2023 (no titles)
    PYTHONPATH=src .venv/bin/python bench/names_regions.py --small 8

Proxies (quality, not speed):
- coverage: share of a topic's abstracts (and titles) using its name's phrase or acronym;
- title share: topics whose name (or its acronym) is in >= 1/3 of its papers' titles;
- title keywords: topics (and multi-topic regions) whose name holds one of the three phrases
  most of its papers' titles use (titles read alone, as author keywords would be; ties kept;
  a phrase at least two titles use): a stand-in for "names a top-3 author keyword", which
  needs listings with keywords; with --small, the titles never reach the names;
- author keywords (stand-in): each paper's "keywords" are the phrases of bench/author_keywords.txt
  (a hand list of common ML author keywords) in its title, then those its abstract repeats most,
  four at most; a name hits when one of its topic's three commonest (ties kept) is inside it, as
  "names a top-3 author keyword" would be measured on a listing with keywords;
- single words: names of one bare word;
- regions: count, largest share of documents, topics per region; on arXiv 6k, purity of the
  regions against primary_category (documents of the region's commonest category / size);
- region names equal to a topic name inside them.
"""

from __future__ import annotations

import argparse
import json
import pickle
import re
import tempfile
from collections import Counter
from pathlib import Path

import _common_eval as ce  # bench/ is on sys.path when this file runs as a script
import numpy as np
import pandas as pd

# --runs: a folder holding finished runs base-seeds/ and base-neurips/ whose clusters to reuse
RUNS: Path | None = None


def prepare(name: str, cache: Path) -> dict:
    """corpus, vectors, clusters, assignment, confidence (+ categories) of one corpus, cached."""
    path = cache / f"{name}.pkl"
    if path.exists():
        return pickle.loads(path.read_bytes())
    from papertopics.ingest.corpus import build_corpus
    from papertopics.ingest.listings import ListingSpec, listing_name, read_listing

    run = RUNS / f"base-{name}" / "results" if RUNS else None
    if name != "arxiv" and run is not None and run.exists():  # finished runs: their clusters
        from papertopics.artifacts import load_embeddings

        clusters = pd.read_parquet(run / "cluster" / "clusters.parquet")
        data = {
            "corpus": pd.read_parquet(run / "corpus" / "corpus.parquet"),
            "vectors": load_embeddings(run / "embed" / "embeddings.parquet")[1],
            "clusters": clusters["cluster"].to_numpy(),
            "assignment": clusters["assignment"].to_numpy(),
            "confidence": clusters["confidence"].to_numpy(),
            "cats": None,
        }
        path.write_bytes(pickle.dumps(data))
        return data
    cats = None
    if name == "seeds":
        frames = [
            read_listing(ListingSpec(listing_name(p), p)) for p in sorted((ce.REPO / "seeds").glob("*.txt"))
        ]
    elif name == "neurips":
        frames = [read_listing(ListingSpec("neurips2023", ce.NEURIPS))]
    elif name == "arxiv-cl":  # one field: 2,500 cs.CL abstracts as a text listing, like an ACL listing
        records = [r for r in ce.arxiv_records() if r["primary_category"] == "cs.CL"]
        picked = [records[i] for i in np.random.default_rng(0).choice(len(records), 2500, replace=False)]
        listing = cache / "arxiv-cl.txt"
        texts = [" ".join(r["abstract"].split()) for r in picked]
        listing.write_text("arXiv cs.CL\n\n" + "\n\n".join(texts) + "\n")
        frames = [read_listing(ListingSpec("arxiv-cl", listing))]
        title_of = dict(zip(texts, (r["title"] for r in picked)))
    elif name == "neurips-text":  # abstracts only, as a text listing (the seeds' format) has them
        import gzip

        records = [json.loads(line) for line in gzip.open(ce.NEURIPS, "rt", encoding="utf-8")]
        listing = cache / "neurips2023.txt"
        listing.write_text("NeurIPS 2023\n\n" + "\n\n".join(r["abstract"] for r in records) + "\n")
        frames = [read_listing(ListingSpec("neurips2023", listing))]
        title_of = {" ".join(r["abstract"].split()): r["title"] for r in records}
    else:  # arXiv 6k: bench/_common_eval.load_arxiv_sample's sample, written as a JSONL listing
        picked = ce.arxiv_sample_records()
        listing = cache / "arxiv6k.jsonl"
        with listing.open("w", encoding="utf-8") as handle:
            for r in picked:
                handle.write(
                    json.dumps({"title": r["title"], "abstract": r["abstract"], "id": r["id"]}) + "\n"
                )
        frames = [read_listing(ListingSpec("arxiv6k", listing))]
        cats = {r["id"]: r["primary_category"] for r in picked}
    corpus, _ = build_corpus(frames)
    titles = None
    if name in ("neurips-text", "arxiv-cl"):  # for the stand-ins only: the names never see them
        titles = [title_of.get(" ".join(str(t).split()), "") for t in corpus["text_raw"]]
    vectors = ce.embed(corpus["text"].tolist())
    from papertopics.pipeline import default_config, reduce_and_cluster

    _, clustering, _ = reduce_and_cluster(vectors, default_config())
    grouped, assignment, confidence = clustering.topics, clustering.assignment, clustering.confidence
    if cats is not None:
        cats = [cats.get(str(i), "") for i in corpus["id"]]  # the listing's own id column
    data = {
        "corpus": corpus,
        "vectors": vectors,
        "clusters": np.asarray(grouped),
        "assignment": np.asarray(assignment),
        "confidence": np.asarray(confidence),
        "cats": cats,
        "titles": titles,
    }
    path.write_bytes(pickle.dumps(data))
    return data


def _fold(text: str) -> str:
    from papertopics.topics.stopwords import singular

    return " " + " ".join(singular(w) for w in re.findall(r"[\w\-]+", text.lower())) + " "


def name_parts(name: str) -> list[str]:
    """What a name says, as written: each side of " & ", its long form and its acronym ("Mixed: ",
    a "(2)" and a keyword list's other terms aside)."""
    out = []
    for part in re.sub(r"^Mixed: ", "", name).split(" & "):
        part = re.sub(r"\s*\(\d+\)$", "", part.strip())
        m = re.match(r"(.*?)\s*\(([^)]*)\)$", part)
        out += [m.group(1), m.group(2)] if m else [part.split(",")[0]]
    return [p for p in out if p.strip()]


def name_forms(name: str) -> list[str]:
    return [_fold(p) for p in name_parts(name)]


def name_index(data: dict):
    """The corpus's NameIndex as rule index_phrases builds it, once per prepared corpus."""
    from papertopics.topics.names.phrases import NameIndex

    if "index" not in data:
        corpus = data["corpus"]
        data["index"] = NameIndex.build(corpus["text_raw"].tolist(), corpus["title"].fillna("").tolist())
    return data["index"]


def phrase_vectors(data: dict) -> dict:
    """The corpus's candidate names embedded as rule embed_phrases does (the bench's cache)."""
    if "phrases" not in data:
        phrases = name_index(data).nameable()
        data["phrases"] = dict(zip(phrases, ce.embed(phrases)))
    return data["phrases"]


def fit(data: dict, index=None, terms=None):
    from papertopics.pipeline import default_config
    from papertopics.topics.fit import fit_topic_tables

    config = default_config()
    return fit_topic_tables(
        data["corpus"],
        data["vectors"],
        data["clusters"],
        None,
        vectorizer=config["vectorizer"],
        representation=config["representation"],
        topics=config["topics"],
        assignment=data["assignment"],
        confidence=data["confidence"],
        mixed_cohesion=config["clustering"]["mixed_cohesion"],
        index=index if index is not None else name_index(data),
        terms=terms,
        phrase_vectors=phrase_vectors(data),  # as rules embed_phrases and fit_topics do
    )


def time_fit(name: str, data: dict, repeats: int) -> None:
    """fit_topic_tables as the fit_topics rule runs it (name index and term counts given, as the
    index_phrases and count_terms rules make them): best of `repeats`, same process."""
    import time

    from papertopics.pipeline import default_config
    from papertopics.topics.terms import count_terms

    corpus = data["corpus"]
    index = name_index(data)
    from papertopics.topics.names.score import static_features

    static_features(index)  # what NameIndex.save computes before fit_topics loads it
    terms = count_terms(corpus["text"].tolist(), default_config()["vectorizer"])
    seconds = []
    for _ in range(repeats):
        start = time.perf_counter()
        fit(data, index=index, terms=terms)
        seconds.append(time.perf_counter() - start)
    print(
        f"{name}: fit_topic_tables best of {repeats}: {min(seconds):.2f} s (all: "
        + ", ".join(f"{x:.2f}" for x in seconds)
        + ")"
    )


def _words(text: str) -> tuple[str, ...]:
    from papertopics.topics.names.text import fold_text  # the package's one fold

    return fold_text(text)


def name_phrases(name: str) -> list[tuple[str, ...]]:
    """The phrases a name says (name_parts), as the title index's folded words."""
    return [w for w in map(_words, name_parts(name)) if w]


class TitleKeywords:
    """Top-3 title phrases of a group of papers (a NameIndex of the titles alone), and whether a
    name holds one of them."""

    def __init__(self, titles: list[str]):
        from papertopics.topics.names.phrases import NameIndex

        self.index = NameIndex.build([t or "" for t in titles], min_df=1)

    def top(self, docs: np.ndarray, k: int = 3) -> list[tuple[str, ...]]:
        counts = np.asarray(self.index.incidence[docs].sum(axis=0)).ravel()
        order = np.argsort(-counts, kind="stable")
        if not len(order) or counts[order[0]] < 2:
            return []
        cut = max(counts[order[min(k, len(order)) - 1]], 2)
        return [self.index.keys[g] for g in order if counts[g] >= cut]

    def hit(self, name: str, docs: np.ndarray) -> bool:
        def inside(short, long):
            return any(long[i : i + len(short)] == short for i in range(len(long) - len(short) + 1))

        return any(inside(top, said) for top in self.top(docs) for said in name_phrases(name))


class AuthorKeywords:
    """Stand-in author keywords (bench/author_keywords.txt): each paper's are the listed phrases
    its title uses, then those its abstract uses most often, at most KEEP; a group's top are its
    papers' three commonest, ties kept; a name hits when one of them is inside one of its phrases."""

    KEEP = 4

    def __init__(self, titles: list[str], abstracts: list[str]):
        listed = [
            line.strip() for line in (Path(__file__).parent / "author_keywords.txt").read_text().splitlines()
        ]
        phrases = sorted(
            {_words(k) for k in listed if k and not k.startswith("#")}, key=lambda k: (-len(k), k)
        )
        self.paper = []
        for title, abstract in zip(titles, abstracts):
            in_title, in_abstract = _words(title or ""), _words(abstract or "")
            first = [k for k in phrases if _count(k, in_title)]
            rest = sorted(
                (k for k in phrases if k not in first and _count(k, in_abstract)),
                key=lambda k: (-_count(k, in_abstract), -len(k), k),
            )
            self.paper.append((first + rest)[: self.KEEP])

    def top(self, docs: np.ndarray) -> list[tuple[str, ...]]:
        counts = Counter(k for d in docs for k in self.paper[d])
        ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        if not ranked:
            return []
        cut = ranked[min(3, len(ranked)) - 1][1]
        return [k for k, v in ranked if v >= cut]

    def hit(self, name: str, docs: np.ndarray) -> bool:
        return any(_count(top, said) > 0 for top in self.top(docs) for said in name_phrases(name))


def plain_labels(texts: list[str], assigned: np.ndarray) -> dict[int, str]:
    """What plain BERTopic would call each of these topics: its default CountVectorizer and
    ClassTfidfTransformer on the same documents and topics, the first three words (its label,
    "3_fl_clients_federated", without the number), read as one phrase per word."""
    from bertopic.vectorizers import ClassTfidfTransformer
    from sklearn.feature_extraction.text import CountVectorizer

    topics = sorted(t for t in set(assigned.tolist()) if t >= 0)
    joined = [" ".join(texts[i] for i in np.flatnonzero(assigned == t)) for t in topics]
    vectorizer = CountVectorizer().fit(joined)
    ctfidf = ClassTfidfTransformer().fit_transform(vectorizer.transform(joined)).toarray()
    words = vectorizer.get_feature_names_out()
    return {t: " & ".join(words[np.argsort(-row)[:3]]) for t, row in zip(topics, ctfidf)}


def _count(short: tuple[str, ...], long: tuple[str, ...]) -> int:
    return sum(long[i : i + len(short)] == short for i in range(len(long) - len(short) + 1))


def measure(name: str, data: dict) -> dict:
    corpus = data["corpus"]
    fitted = fit(data)
    table = fitted.topics[fitted.topics["topic"] >= 0]
    assigned = fitted.documents["topic"].to_numpy()
    raw_titles = data.get("titles") or corpus["title"].fillna("").tolist()
    titles = [_fold(t) for t in raw_titles]
    keywords = TitleKeywords(raw_titles)
    authors = AuthorKeywords(raw_titles, corpus["text_raw"].tolist())
    plain = plain_labels(corpus["text"].tolist(), assigned)
    rows = []
    for t in table.itertuples():
        members = np.flatnonzero(assigned == t.topic)
        forms = name_forms(t.label)
        in_title = (
            float(np.mean([any(f in titles[i] for f in forms) for i in members])) if len(members) else 0.0
        )
        rows.append(
            {
                "topic": int(t.topic),
                "size": int(t.size),
                "label": t.label,
                "coverage": float(getattr(t, "coverage", float("nan"))),
                "title_share": in_title,
                "title_keyword": keywords.hit(t.label, members),
                "author_keyword": authors.hit(t.label, members),
                # the name or its first three terms (the ICLR check's second figure)
                "author_keyword_or_terms": authors.hit(t.label, members)
                or any(authors.hit(term, members) for term in t.top_terms.split("; ")[:3]),
                "plain_author_keyword": authors.hit(plain.get(int(t.topic), ""), members),
                "region": int(t.region),
                "region_label": t.region_label,
                "terms": t.top_terms,
            }
        )
    topics = pd.DataFrame(rows)
    n = len(assigned)
    regions = []
    cats = np.asarray(data["cats"]) if data.get("cats") is not None else None
    for r, members in topics.groupby("region"):
        docs = np.flatnonzero(np.isin(assigned, members["topic"].to_numpy()))
        purity = None
        if cats is not None:
            purity = Counter(cats[docs]).most_common(1)[0][1] / max(len(docs), 1)
        regions.append(
            {
                "region": int(r),
                "label": members["region_label"].iloc[0],
                "topics": len(members),
                "docs": len(docs),
                "share": len(docs) / n,
                "purity": purity,
                "title_keyword": (
                    keywords.hit(members["region_label"].iloc[0], docs) if len(members) > 1 else None
                ),
                "author_keyword": (
                    authors.hit(members["region_label"].iloc[0], docs) if len(members) > 1 else None
                ),
                "clash": bool(
                    members["region_label"].iloc[0].lower() in {x.lower() for x in members["label"]}
                ),
                "topic_names": "; ".join(members.sort_values("size", ascending=False)["label"].head(6)),
            }
        )
    regions = pd.DataFrame(regions).sort_values("docs", ascending=False)
    summary = {
        "topics": len(topics),
        "single_word": float(
            np.mean([len(re.sub(r"\s*\(.*\)$", "", x).split()) == 1 for x in topics["label"]])
        ),
        "title_share>=1/3": float(np.mean(topics["title_share"] >= 1 / 3)),
        "title_keyword": float(topics["title_keyword"].mean()),
        "region_title_keyword": float(regions["title_keyword"].dropna().astype(float).mean())
        if regions["title_keyword"].notna().any()
        else None,
        "author_keyword": float(topics["author_keyword"].mean()),
        "author_keyword_or_terms": float(topics["author_keyword_or_terms"].mean()),
        "plain_bertopic_author_keyword": float(topics["plain_author_keyword"].mean()),
        "region_author_keyword": float(regions["author_keyword"].dropna().astype(float).mean())
        if regions["author_keyword"].notna().any()
        else None,
        "coverage_mean": float(topics["coverage"].mean()),
        "coverage_median": float(topics["coverage"].median()),
        "mixed": int(topics["label"].str.startswith("Mixed: ").sum()),
        "regions": len(regions),
        "largest_region_share": float(regions["share"].max()),
        "region_name_clashes": int(regions["clash"].sum()),
    }
    if cats is not None:
        summary["region_purity"] = float((regions["purity"] * regions["docs"]).sum() / regions["docs"].sum())
    return {"summary": summary, "topics": topics.to_dict("records"), "regions": regions.to_dict("records")}


def small_listings(count: int, cache: Path, size: int = 45) -> None:
    """`count` listings of `size` NeurIPS 2023 abstracts (seed 0), titles left out as a text
    listing has none: each clustered as the workflow would (clusters cached), its topic names
    printed, "+" where a name holds one of its papers' top title phrases (TitleKeywords), then
    "+" where it holds one of their top stand-in author keywords (AuthorKeywords)."""
    import gzip

    from papertopics.ingest.corpus import build_corpus
    from papertopics.ingest.listings import ListingSpec, read_listing
    from papertopics.pipeline import default_config, reduce_and_cluster

    records = [json.loads(line) for line in gzip.open(ce.NEURIPS, "rt", encoding="utf-8")]
    rng = np.random.default_rng(0)
    hits = total = author_hits = plain_hits = terms_hits = 0
    for sample in range(count):
        picked = rng.choice(len(records), size, replace=False)
        path = cache / f"small-{sample}.pkl"
        if path.exists():
            data = pickle.loads(path.read_bytes())
        else:
            with tempfile.TemporaryDirectory() as folder:
                listing = Path(folder) / "sample.txt"
                listing.write_text(
                    "NeurIPS 2023 sample\n\n" + "\n\n".join(records[i]["abstract"] for i in picked) + "\n"
                )
                corpus, _ = build_corpus([read_listing(ListingSpec("sample", listing))])
            vectors = ce.embed(corpus["text"].tolist())
            _, clustering, _ = reduce_and_cluster(vectors, default_config())
            data = {
                "corpus": corpus,
                "vectors": vectors,
                "clusters": np.asarray(clustering.topics),
                "assignment": np.asarray(clustering.assignment),
                "confidence": np.asarray(clustering.confidence),
            }
            path.write_bytes(pickle.dumps(data))
        fitted = fit(data)
        table = fitted.topics[fitted.topics["topic"] >= 0]
        assigned = fitted.documents["topic"].to_numpy()
        assert len(assigned) == size, "the corpus keeps the listing's order, one document per abstract"
        keywords = TitleKeywords([records[i]["title"] for i in picked])
        authors = AuthorKeywords(
            [records[i]["title"] for i in picked], [records[i]["abstract"] for i in picked]
        )
        named = list(zip(table["topic"], table["label"], table["size"]))
        marks = [keywords.hit(n, np.flatnonzero(assigned == t)) for t, n, _ in named]
        author = [authors.hit(n, np.flatnonzero(assigned == t)) for t, n, _ in named]
        first_terms = dict(zip(table["topic"], table["top_terms"].str.split("; ").str[:3]))
        terms_hits += sum(
            a or any(authors.hit(term, np.flatnonzero(assigned == t)) for term in first_terms[t])
            for (t, _, _), a in zip(named, author)
        )
        plain = plain_labels(data["corpus"]["text"].tolist(), assigned)
        plain_hits += sum(
            authors.hit(plain.get(int(t), ""), np.flatnonzero(assigned == t)) for t, _, _ in named
        )
        hits, total, author_hits = hits + sum(marks), total + len(marks), author_hits + sum(author)
        print(
            f"sample {sample}: "
            + " | ".join(
                f"{'+' if m else '-'}{'+' if k else '-'}{n} ({size})"
                for (_, n, size), m, k in zip(named, marks, author)
            )
        )
    print(f"names holding a top title phrase: {hits}/{total} = {hits / max(total, 1):.2f}")
    share = author_hits / max(total, 1)
    print(f"names holding a top author keyword (stand-in): {author_hits}/{total} = {share:.2f}")
    share = terms_hits / max(total, 1)
    print(f"... the name or its first three terms: {terms_hits}/{total} = {share:.2f}")
    share = plain_hits / max(total, 1)
    print(f"plain BERTopic's labels (three words) holding one: {plain_hits}/{total} = {share:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--corpora",
        default="seeds,neurips,arxiv",
        help="and neurips-text (abstracts only), arxiv-cl (2,500 cs.CL abstracts, a text listing)",
    )
    parser.add_argument(
        "--cache", type=Path, default=Path.home() / ".cache" / "papertopics-bench" / "names-regions"
    )
    parser.add_argument("--out", type=Path)
    parser.add_argument("--runs", type=Path, help="folder with finished runs base-seeds/, base-neurips/")
    parser.add_argument("--compare", nargs=2, type=Path)
    parser.add_argument("--rows", type=int, default=20)
    parser.add_argument("--time", type=int, default=0, help="time fit_topic_tables this many times")
    parser.add_argument("--small", type=int, default=0, help="name this many 45-abstract listings")
    args = parser.parse_args()
    global RUNS
    RUNS = args.runs
    if args.compare:
        compare(*args.compare, rows=args.rows)
        return
    if args.small:
        args.cache.mkdir(parents=True, exist_ok=True)
        small_listings(args.small, args.cache)
        return
    args.cache.mkdir(parents=True, exist_ok=True)
    out = {}
    if args.time:
        for name in args.corpora.split(","):
            time_fit(name, prepare(name, args.cache), args.time)
        return
    for name in args.corpora.split(","):
        out[name] = measure(name, prepare(name, args.cache))
        print(name, json.dumps(out[name]["summary"]), flush=True)
    if args.out:
        args.out.write_text(json.dumps(out, indent=1, default=str))


def compare(before_path: Path, after_path: Path, rows: int) -> None:
    before, after = json.loads(before_path.read_text()), json.loads(after_path.read_text())
    for name in after:
        if name not in before:
            continue
        print(f"\n## {name}\n\n| figure | before | after |\n|---|---|---|")
        for key, value in after[name]["summary"].items():
            print(f"| {key} | {ce.fmt(before[name]['summary'].get(key, ''))} | {ce.fmt(value)} |")
        old = {t["topic"]: t for t in before[name]["topics"]}
        shown = sorted(after[name]["topics"], key=lambda t: -t["size"])[: rows if name != "seeds" else 99]
        print(
            "\n| topic | size | before | after | coverage | in titles | top terms |\n"
            "|---|---|---|---|---|---|---|"
        )
        for t in shown:
            b = old.get(t["topic"], {}).get("label", "")
            terms = ", ".join(t["terms"].split("; ")[:5])
            print(
                f"| {t['topic']} | {t['size']} | {b} | {t['label']} | {t['coverage']:.2f} | "
                f"{t['title_share']:.2f} | {terms} |"
            )
        for tag, data in (("before", before), ("after", after)):
            print(
                f"\nregions {tag}:\n\n| region | topics | docs | share | purity | topic names |\n"
                "|---|---|---|---|---|---|"
            )
            for r in data[name]["regions"]:
                purity = "" if r["purity"] is None else f"{r['purity']:.2f}"
                print(
                    f"| {r['label']} | {r['topics']} | {r['docs']} | {r['share']:.2f} | {purity} | "
                    f"{r['topic_names'][:90]} |"
                )


if __name__ == "__main__":
    main()
