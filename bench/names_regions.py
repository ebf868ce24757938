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
from collections import Counter
from pathlib import Path

import _common_eval as ce  # bench/ is on sys.path when this file runs as a script
import _names
import _names_corpora
import numpy as np
import pandas as pd
from _names_corpora import fit, prepare, time_fit
from _names_proxies import AuthorKeywords, TitleKeywords, _fold, name_forms, plain_labels


def topic_rows(fitted, data: dict, keywords, authors) -> pd.DataFrame:
    """Per topic: its name, coverage, title share and whether it names a top title phrase or
    stand-in author keyword (the name, or its first three terms), beside plain BERTopic's label."""
    table = fitted.topics[fitted.topics["topic"] >= 0]
    assigned = fitted.documents["topic"].to_numpy()
    titles = [_fold(t) for t in data.get("titles") or data["corpus"]["title"].fillna("").tolist()]
    plain = plain_labels(data["corpus"]["text"].tolist(), assigned)
    rows = []
    for t in table.itertuples():
        members = np.flatnonzero(assigned == t.topic)
        forms = name_forms(t.label)
        in_title = [any(f in titles[i] for f in forms) for i in members]
        rows.append(
            {
                "topic": int(t.topic),
                "size": int(t.size),
                "label": t.label,
                "coverage": float(getattr(t, "coverage", float("nan"))),
                "title_share": float(np.mean(in_title)) if len(members) else 0.0,
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
    return pd.DataFrame(rows)


def region_rows(topics: pd.DataFrame, assigned: np.ndarray, cats, keywords, authors) -> pd.DataFrame:
    """Per region: its name, topics, documents, share, purity against `cats` (arXiv's categories)
    and whether its name (of two topics or more) names a top title phrase or author keyword."""
    regions = []
    for r, members in topics.groupby("region"):
        docs = np.flatnonzero(np.isin(assigned, members["topic"].to_numpy()))
        label, several = members["region_label"].iloc[0], len(members) > 1
        regions.append(
            {
                "region": int(r),
                "label": label,
                "topics": len(members),
                "docs": len(docs),
                "share": len(docs) / len(assigned),
                "purity": Counter(cats[docs]).most_common(1)[0][1] / max(len(docs), 1)
                if cats is not None
                else None,
                "title_keyword": keywords.hit(label, docs) if several else None,
                "author_keyword": authors.hit(label, docs) if several else None,
                "clash": bool(label.lower() in {x.lower() for x in members["label"]}),
                "topic_names": "; ".join(members.sort_values("size", ascending=False)["label"].head(6)),
            }
        )
    return pd.DataFrame(regions).sort_values("docs", ascending=False)


def _mean(column: pd.Series) -> float | None:
    """The mean of a column's figures where it has any (regions of one topic have none)."""
    return float(column.dropna().astype(float).mean()) if column.notna().any() else None


def measure(name: str, data: dict) -> dict:
    corpus = data["corpus"]
    fitted = fit(data)
    assigned = fitted.documents["topic"].to_numpy()
    raw_titles = data.get("titles") or corpus["title"].fillna("").tolist()
    keywords = TitleKeywords(raw_titles)
    authors = AuthorKeywords(raw_titles, corpus["text_raw"].tolist())
    topics = topic_rows(fitted, data, keywords, authors)
    cats = np.asarray(data["cats"]) if data.get("cats") is not None else None
    regions = region_rows(topics, assigned, cats, keywords, authors)
    summary = {
        "topics": len(topics),
        "single_word": float(
            np.mean([len(re.sub(r"\s*\(.*\)$", "", x).split()) == 1 for x in topics["label"]])
        ),
        "title_share>=1/3": float(np.mean(topics["title_share"] >= 1 / 3)),
        "title_keyword": float(topics["title_keyword"].mean()),
        "region_title_keyword": _mean(regions["title_keyword"]),
        "author_keyword": float(topics["author_keyword"].mean()),
        "author_keyword_or_terms": float(topics["author_keyword_or_terms"].mean()),
        "plain_bertopic_author_keyword": float(topics["plain_author_keyword"].mean()),
        "region_author_keyword": _mean(regions["author_keyword"]),
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

    records = [json.loads(line) for line in gzip.open(ce.NEURIPS, "rt", encoding="utf-8")]
    rng = np.random.default_rng(0)
    hits = total = author_hits = plain_hits = terms_hits = 0
    for sample in range(count):
        picked = rng.choice(len(records), size, replace=False)
        path = cache / f"small-{sample}.pkl"
        if path.exists():
            data = pickle.loads(path.read_bytes())
        else:
            texts = [records[i]["abstract"] for i in picked]
            data = _names.clustered(_names.text_listing("sample", "NeurIPS 2023 sample", texts))
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
    _names_corpora.RUNS = args.runs
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
