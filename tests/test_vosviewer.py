"""VOSviewer map and network files (issue 66 goal 4), parsed back by the manual's format: a map file
is tab-delimited with a header of `id`, `label`, `description`, `url`, `x`, `y`, `cluster`,
`weight<...>`, `score<...>` (cluster an integer 1-1000, weights non-negative, a label holding a
comma or semicolon in double quotes); a network file has no header, one link per line: id, id,
strength (VOSviewer manual, "Map and network files";
https://app.vosviewer.com/docs/file-types/map-and-network-file-type)."""

from __future__ import annotations

import csv
import re
import warnings
from collections import Counter
from itertools import combinations

import numpy as np
import pandas as pd
import pytest
from conftest import shared_export

from papertopics.ingest.corpus import build_corpus
from papertopics.ingest.dates import add_dates
from papertopics.ingest.listings import listing_name, read_listing
from papertopics.ingest.specs import ListingSpec
from papertopics.report.vosviewer import (
    clusters,
    document_map,
    vosviewer_files,
    write_map,
    write_network,
)
from papertopics.report.vosviewer_keywords import keyword_network

_COLUMN = re.compile(r"^(id|label|description|url|x|y|cluster|(weight|score)<[^<>]+>)$")


def read_map(path) -> list[dict]:
    """A map file as the manual describes it; fails on anything it does not allow."""
    with open(path, encoding="utf-8", newline="") as handle:
        rows = list(csv.reader(handle, delimiter="\t", quotechar='"'))
    header, body = rows[0], rows[1:]
    assert all(_COLUMN.match(c) for c in header), header
    assert "id" in header or "label" in header
    items = []
    for row in body:
        assert len(row) == len(header), row
        item = dict(zip(header, row))
        item["id"] = int(item["id"])
        assert 1 <= int(item["cluster"]) <= 1000
        for column in header:
            if column.startswith("weight<"):
                assert float(item[column]) >= 0
            if column in ("x", "y") or column.startswith("score<"):
                float(item[column])
        items.append(item)
    assert len({i["id"] for i in items}) == len(items) and all(i["id"] > 0 for i in items)
    return items


def read_network(path, ids) -> list[tuple[int, int, float]]:
    links = []
    for line in open(path, encoding="utf-8").read().splitlines():
        a, b, strength = line.split("\t")
        assert int(a) in ids and int(b) in ids and int(a) != int(b) and float(strength) > 0
        links.append((int(a), int(b), float(strength)))
    assert len({(a, b) for a, b, _ in links}) == len(links)  # each link once
    return links


def documents_of(tmp_path, name):
    """document_topics.csv's columns for an export: the corpus, each paper a topic (the
    authors' first keyword's topic where it has one, so the topics share keywords as real ones)."""
    path = shared_export(tmp_path, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        corpus, _ = build_corpus([read_listing(ListingSpec(listing_name(path), path))])
        corpus = add_dates(corpus)
    rng = np.random.default_rng(0)
    topic = rng.integers(-1, 5, len(corpus))
    documents = corpus.rename(columns={"text_raw": "text"}).assign(topic=topic.astype(str))
    topics = pd.DataFrame(
        {"topic": [str(t) for t in range(-1, 5)], "label": ["Outliers", *(f"Topic, {t}" for t in range(5))]}
    )
    documents["topic_label"] = documents["topic"].map(dict(zip(topics["topic"], topics["label"])))
    map2d = pd.DataFrame(
        {"doc_id": corpus["doc_id"], "x": rng.normal(size=len(corpus)), "y": rng.normal(size=len(corpus))}
    )
    pairs = rng.integers(0, len(corpus), (len(corpus) * 3, 2))
    neighbours = pd.DataFrame(
        {
            "doc_id": corpus["doc_id"].to_numpy()[pairs[:, 0]],
            "rank": 1,
            "neighbour_id": corpus["doc_id"].to_numpy()[pairs[:, 1]],
            "similarity": rng.uniform(0.1, 0.9, len(pairs)).round(4).astype(str),
        }
    )
    return documents, topics, map2d, neighbours


def fold(keyword: str) -> str:
    """Case, hyphens and dashes, spacing and a plural (a cruder fold than the names' own); a
    keyword "long form (ACRONYM)" is its long form."""
    keyword = re.sub(r"\s*\([^()]*\)\s*$", "", keyword) or keyword
    words = re.sub(r"[-\u2010-\u2015]", " ", keyword.casefold()).split()
    return "".join(re.sub(r"ies$", "y", w).removesuffix("s") for w in words)


# export: the share of keywords whose occurrences a crude fold finds exactly (the names' fold also
# joins an acronym to its long form: "EHR" and "electronic health records", which the Scopus
# export's authors write both ways)
AGREEMENT = {"wos-plain-capture-recapture-500.txt": 0.9, "scopus-csv-smart-on-fhir-701.csv": 0.7}


@pytest.mark.parametrize("name", sorted(AGREEMENT))
def test_the_keyword_network_reads_back_as_the_topics_keywords_and_their_co_occurrences(tmp_path, name):
    documents, topics, _, _ = documents_of(tmp_path, name)
    items, links = keyword_network(documents, topics, keywords=10, min_papers=2)
    write_map(tmp_path / "keywords_map.txt", items)
    write_network(tmp_path / "keywords_network.txt", links)
    parsed = read_map(tmp_path / "keywords_map.txt")
    network = read_network(tmp_path / "keywords_network.txt", {i["id"] for i in parsed})
    assert 20 <= len(parsed) <= 50 and network  # 5 topics x at most 10 keywords
    by_id = {i["id"]: i for i in parsed}

    # independently: each paper's keywords as written, folded for case, hyphens and spacing
    papers = [{fold(k) for k in str(v).split(";") if k.strip()} for v in documents["keywords"]]
    topic = documents["topic"].astype(int).tolist()
    naive = {i["id"]: sum(fold(i["label"]) in p for p in papers) for i in parsed}
    weights = {i["id"]: float(i["weight<Occurrences>"]) for i in parsed}
    assert all(w >= 2 for w in weights.values())  # thematic.min_papers
    assert sum(naive[k] == weights[k] for k in naive) >= AGREEMENT[name] * len(naive)
    for item in parsed:  # its cluster: the topic (rank) whose papers give it most
        given = Counter(t for p, t in zip(papers, topic) if fold(item["label"]) in p and t >= 0)
        if naive[item["id"]] == weights[item["id"]]:
            best = max(given.values())
            assert int(item["cluster"]) in {clusters(range(-1, 5))[t] for t, n in given.items() if n == best}
        assert item["description"] == f"topic {int(item['cluster']) - 1}: Topic, {int(item['cluster']) - 1}"
    strength = {(a, b): s for a, b, s in network}
    pairs = Counter()
    for p in papers:  # co-occurrences of the items' labels in one paper, full counting
        present = sorted(k for k, i in by_id.items() if fold(i["label"]) in p)
        pairs.update(combinations(present, 2))
    for (a, b), s in strength.items():
        assert s <= min(weights[a], weights[b])
    exact = [k for k in by_id if naive[k] == weights[k]]
    among = {k: n for k, n in pairs.items() if k[0] in exact and k[1] in exact}
    assert among and sum(strength.get(k, 0) == n for k, n in among.items()) >= AGREEMENT[name] * len(among)


def test_the_document_map_reads_back_with_the_papers_places_topics_and_citations(tmp_path):
    documents, topics, map2d, neighbours = documents_of(tmp_path, "wos-plain-capture-recapture-500.txt")
    items, links = document_map(documents, topics, map2d, neighbours)
    write_map(tmp_path / "documents_map.txt", items)
    write_network(tmp_path / "documents_network.txt", links)
    parsed = read_map(tmp_path / "documents_map.txt")
    assert len(parsed) == len(documents)
    header = list(parsed[0])
    assert header == [
        "id",
        "label",
        "description",
        "url",
        "x",
        "y",
        "cluster",
        "weight<Citations>",
        "score<Year>",
    ]
    number = clusters(range(-1, 5))
    for item, (_, doc), (_, place) in zip(parsed, documents.iterrows(), map2d.iterrows()):
        assert float(item["x"]) == pytest.approx(place["x"], abs=1e-6)
        assert float(item["y"]) == pytest.approx(place["y"], abs=1e-6)
        assert int(item["cluster"]) == number[int(doc["topic"])]
        assert float(item["weight<Citations>"]) == float(doc["cited_by"] or 0)
        assert item["score<Year>"] == "" or int(float(item["score<Year>"])) == int(doc["published"][:4])
        assert item["label"].startswith(doc["authors"].split(",")[0].strip())
        assert item["url"] == (f"https://doi.org/{doc['doi']}" if doc["doi"] else item["url"])
    assert number[-1] == 6  # the outliers after the five topics
    ids = {i["id"] for i in parsed}
    network = read_network(tmp_path / "documents_network.txt", ids)
    at = {d: k + 1 for k, d in enumerate(documents["doc_id"])}
    expected = {
        tuple(sorted((at[a], at[b])))
        for a, b in zip(neighbours["doc_id"], neighbours["neighbour_id"])
        if a != b
    }
    assert {(a, b) for a, b, _ in network} == expected


def test_a_label_with_a_comma_or_semicolon_is_quoted_and_reads_back():
    items = pd.DataFrame(
        {"id": [1, 2], "label": ['a, b; "c"', "plain"], "cluster": [1, 2], "weight<Occurrences>": [3, 0]}
    )
    import tempfile
    from pathlib import Path

    path = Path(tempfile.mkdtemp()) / "map.txt"
    write_map(path, items)
    assert path.read_text().splitlines()[1] == '1\t"a, b; ""c"""\t1\t3'
    assert [i["label"] for i in read_map(path)] == ['a, b; "c"', "plain"]


def test_listings_without_keywords_get_only_the_document_files():
    documents = pd.DataFrame({"doc_id": ["a"], "topic": ["0"]})
    assert vosviewer_files(documents) == ["documents_map.txt", "documents_network.txt"]
    assert vosviewer_files(documents.assign(keywords=["x; y"]))[0] == "keywords_map.txt"
