"""papers_by_topic.ris and .bib (issue 66 goal 5): every analysed paper as read, its topic a tag,
read back by the libraries reference managers' formats are read with (rispy, bibtexparser)."""

from __future__ import annotations

import warnings

import pandas as pd
import pytest
from conftest import shared_export

from papertopics.ingest.corpus import build_corpus
from papertopics.ingest.dates import add_dates
from papertopics.ingest.listings import listing_name, read_listing
from papertopics.ingest.specs import ListingSpec
from papertopics.report.references import reference_records, topic_tag, write_bibtex, write_ris

# topic names as fit_topics writes them, a comma and a semicolon included
NAMES = ["Capture-recapture models", "Mixed: abundance, survival; detection", "Bayesian inference"]


def corpus_of(path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        corpus, _ = build_corpus([read_listing(ListingSpec(listing_name(path), path))])
    return add_dates(corpus)


def topics_for(corpus: pd.DataFrame) -> pd.DataFrame:
    """document_topics.csv's doc_id and topic_label: each paper a topic, one paper left out (not
    analysed: it must not be written)."""
    return pd.DataFrame(
        {"doc_id": corpus["doc_id"].iloc[1:], "topic_label": [NAMES[k % 3] for k in range(len(corpus) - 1)]}
    )


def split(value: str) -> list[str]:
    return [p.strip() for p in str(value).split(";") if p.strip()]


EXPORTS = [
    "wos-plain-capture-recapture-500.txt",
    "scopus-csv-smart-on-fhir-701.csv",
    "pubmed-medline-pybibx-sample-crlf-335.txt",
    "sciencedirect-bibtex-multicultural-100.bib",
    "wos-ris-polcomm.ris",
    "ieee-csv-legal-re-492.csv",
]


@pytest.mark.parametrize("name", EXPORTS)
def test_both_files_read_back_as_the_same_papers_with_their_topic_tags(tmp_path, name):
    import bibtexparser
    import rispy

    corpus = corpus_of(shared_export(tmp_path, name))
    documents = topics_for(corpus)
    records = reference_records(corpus, documents)
    write_ris(tmp_path / "papers_by_topic.ris", records)
    write_bibtex(tmp_path / "papers_by_topic.bib", records)
    papers = corpus.set_index("doc_id").loc[documents["doc_id"]]
    tags = [topic_tag(n) for n in documents["topic_label"]]
    assert set(tags) == {
        "topic: Capture-recapture models",
        "topic: Mixed: abundance / survival / detection",
        "topic: Bayesian inference",
    }

    ris = rispy.loads((tmp_path / "papers_by_topic.ris").read_text(encoding="utf-8"))
    assert len(ris) == len(papers)
    assert [r.get("title", "") for r in ris] == [" ".join(t.split()) for t in papers["title"]]
    assert [r["keywords"][-1] for r in ris] == tags
    assert [r.get("authors", []) for r in ris] == [
        split(a) for a in papers.get("authors", [""] * len(papers))
    ]
    assert [r.get("year", "") for r in ris] == papers["published"].str[:4].tolist()
    assert [r.get("abstract") for r in ris] == [" ".join(t.split()) for t in papers["text_raw"]]
    if "doi" in papers:
        assert [r.get("doi", "") for r in ris] == papers["doi"].str.strip().tolist()
    if "keywords" in papers:
        assert [r["keywords"][:-1] for r in ris] == [split(k) for k in papers["keywords"]]
    assert all(r["type_of_reference"] in ("JOUR", "CONF", "CHAP", "BOOK") for r in ris)

    library = bibtexparser.parse_file(str(tmp_path / "papers_by_topic.bib"))
    assert not library.failed_blocks and len(library.entries) == len(papers)
    assert len({e.key for e in library.entries}) == len(papers)
    bib_title = [" ".join(e.fields_dict["title"].value.split()) for e in library.entries]
    assert bib_title == [" ".join(t.replace("{", "").replace("}", "").split()) for t in papers["title"]]
    assert [e.fields_dict["keywords"].value.split(", ")[-1] for e in library.entries] == tags
    bib_year = [e.fields_dict["year"].value if "year" in e.fields_dict else "" for e in library.entries]
    assert bib_year == papers["published"].str[:4].tolist()
    if "authors" in papers:
        bib_authors = [
            e.fields_dict["author"].value.split(" and ") if "author" in e.fields_dict else []
            for e in library.entries
        ]
        assert bib_authors == [
            [a.replace("{", "").replace("}", "") for a in split(v)] for v in papers["authors"]
        ]


def test_a_topic_tag_keeps_the_name_readable_and_splits_nowhere():
    assert topic_tag("Graph neural networks") == "topic: Graph neural networks"
    assert topic_tag("Mixed: a, b;c") == "topic: Mixed: a / b / c"
    assert topic_tag("  two\nlines ") == "topic: two lines"
