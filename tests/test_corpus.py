"""build_corpus: one row per document, every listing it appears in, too-small corpora."""

from pathlib import Path

import pandas as pd
import pytest

from papertopics.errors import CorpusTooSmallError
from papertopics.ingest.corpus import build_corpus
from papertopics.ingest.listings import ListingSpec, read_listing

A1 = "We study sparse autoencoders and find that polysemanticity is a data problem."
A1_VARIANT = "we study sparse-autoencoders, and find that\npolysemanticity is a DATA problem"
A2 = "Diffusion models erase concepts poorly; we propose a fix that keeps image quality."
A3 = "Chain-of-thought reasoning is neither necessary nor sufficient for faithfulness."


def parse(tmp_path: Path, name: str, content: str, ext: str = "txt") -> pd.DataFrame:
    path = tmp_path / f"{name}.{ext}"
    path.write_text(content, encoding="utf-8")
    return read_listing(ListingSpec(name, path))


def test_duplicates_within_and_across_listings_become_one_document(tmp_path):
    a = parse(tmp_path, "a", f"List A\n\n{A1}\n\n{A2}\n\n{A1_VARIANT}\n")
    b = parse(
        tmp_path,
        "b",
        f'{{"title": "T3", "abstract": "{A3}"}}\n{{"title": "T1", "abstract": "{A1.upper()}"}}\n',
        ext="jsonl",
    )
    c = parse(tmp_path, "c", f"List C\n\n{A1}\n")
    corpus, stats = build_corpus([b, a, c])  # config order: b, a, c
    assert list(corpus.columns) == ["doc_id", "listings", "title", "text_raw", "text"]
    assert corpus["listings"].tolist() == ["b", "b;a;c", "a"]
    # first occurrence (listing b) is kept, with its title
    assert corpus["title"].tolist() == ["T3", "T1", ""]
    assert corpus["text_raw"].iloc[1] == A1.upper()
    assert stats["n_documents"] == 3
    assert stats["n_listings"] == 3
    assert stats["n_duplicates_merged"] == 3  # A1 twice in a, once in b, once in c -> 1
    assert stats["listings"]["a"] == {
        "n_records": 3,
        "n_documents": 2,
        "title": "List A",
        "columns": {"text": "text"},  # the parse stage's record: the data page
        "notes": [{"field": "abstract", "what": "skipped", "count": 1, "why": "duplicate of another record"}],
    }
    assert stats["listings"]["b"]["title"] == ""
    assert corpus["doc_id"].is_unique


def test_listing_order_is_the_order_given_not_alphabetical(tmp_path):
    z = parse(tmp_path, "zeta", f"{A1}\n\n{A2}\n")
    a = parse(tmp_path, "alpha", f"{A1}\n\n{A3}\n")
    corpus, _ = build_corpus([z, a])
    assert corpus.set_index("text")["listings"][A1] == "zeta;alpha"
    corpus, _ = build_corpus([a, z])
    assert corpus.set_index("text")["listings"][A1] == "alpha;zeta"


def test_extra_columns_are_united_and_missing_values_empty(tmp_path):
    a = parse(tmp_path, "a", f'abstract,label\n"{A1}",ml\n"{A2}",cv\n', ext="csv")
    b = parse(tmp_path, "b", f'abstract,url\n"{A3}",http://x\n"{A2}",http://y\n', ext="csv")
    corpus, _ = build_corpus([a, b])
    assert list(corpus.columns)[-2:] == ["label", "url"]
    assert corpus["label"].tolist() == ["ml", "cv", ""]
    assert corpus["url"].tolist() == ["", "http://y", "http://x"]  # A2 takes b's url: a has none
    assert corpus["listings"].tolist() == ["a", "a;b", "b"]


def test_corpus_survives_parquet(tmp_path):
    a = parse(tmp_path, "a", f"{A1}\n\n{A2}\n")
    corpus, _ = build_corpus([a])
    corpus.to_parquet(tmp_path / "c.parquet")
    back = pd.read_parquet(tmp_path / "c.parquet")
    assert back.astype(str).equals(corpus.astype(str))


@pytest.mark.parametrize("frames_text, n", [([], 0), ([f"{A1}\n"], 1), ([f"{A1}\n", f"{A1_VARIANT}\n"], 1)])
def test_zero_or_one_document_is_too_small(tmp_path, frames_text, n):
    frames = [parse(tmp_path, f"l{i}", t) for i, t in enumerate(frames_text)]
    with pytest.raises(CorpusTooSmallError) as exc:
        build_corpus(frames)
    msg = str(exc.value)
    assert "\n" not in msg
    names = ", ".join(f"l{i}" for i in range(len(frames_text))) or "none"
    plural = "" if n == 1 else "s"
    merged = (
        ", after merging 2 records that are the same abstract (equal once case, spacing and "
        "punctuation are ignored)"
        if len(frames_text) == 2
        else ""
    )
    assert msg == (
        f"the corpus has {n} document{plural} (listings: {names}){merged}; topic modelling needs at least 2"
    )


def test_two_documents_are_enough(tmp_path):
    corpus, stats = build_corpus([parse(tmp_path, "a", f"{A1}\n\n{A2}\n")])
    assert len(corpus) == 2 and stats["n_duplicates_merged"] == 0


def _scopus_csv(rows: list[dict]) -> str:
    import csv
    import io

    out = io.StringIO()
    fields = [
        "Authors",
        "Title",
        "Year",
        "Source title",
        "Cited by",
        "DOI",
        "Abstract",
        "Author Keywords",
        "EID",
    ]
    writer = csv.DictWriter(out, fieldnames=fields)
    writer.writeheader()
    for i, row in enumerate(rows):
        writer.writerow({"EID": f"2-s2.0-{i}", **row})
    return out.getvalue()


def _wos_plain(rows: list[dict]) -> str:
    """Records as Web of Science plain text writes them (AU, TI, SO, DE, AB, TC, PY, DI, UT, ER)."""
    out = ["\ufeffFN Clarivate Analytics Web of Science", "VR 1.0"]
    for i, row in enumerate(rows):
        out += ["PT J", f"AU {row['Authors']}", f"TI {row['Title']}", f"SO {row['Source title']}"]
        out += [f"DE {row['Author Keywords']}"] if row.get("Author Keywords") else []
        out += [f"AB {row['Abstract']}", f"TC {row['Cited by']}", f"PY {row['Year']}"]
        out += [f"DI {row['DOI']}"] if row.get("DOI") else []
        out += [f"UT WOS:{i:015d}", "ER", ""]
    return "\n".join(out + ["EF", ""])


def test_one_paper_from_two_databases_is_one_document_on_its_doi_or_its_title_and_year(tmp_path, caplog):
    base = {"Authors": "Smith J.", "Source title": "J. Ecol."}
    scopus = [
        # 1: the same DOI in another case and with a URL prefix; the abstracts differ
        {
            **base,
            "Title": "Open population models for marked animals",
            "Year": "2019",
            "Cited by": "12",
            "DOI": "10.1000/ABC.1",
            "Abstract": A1 + " © 2019 Elsevier",
            "Author Keywords": "mark-recapture; Bayes",
        },
        # 2: no DOI in Scopus; the same title (other case, punctuation) and year
        {
            **base,
            "Title": "Spatial capture-recapture: a review",
            "Year": "2020",
            "Cited by": "3",
            "DOI": "",
            "Abstract": A2,
            "Author Keywords": "SCR",
        },
        # 3: the same title, another year: two papers (a conference version, then the journal)
        {
            **base,
            "Title": "Integrated population models in practice",
            "Year": "2017",
            "Cited by": "1",
            "DOI": "",
            "Abstract": A3,
            "Author Keywords": "",
        },
        # 4: "Editorial" names no one paper
        {
            **base,
            "Title": "Editorial",
            "Year": "2020",
            "Cited by": "0",
            "DOI": "",
            "Abstract": "Welcome to this special issue on the ecology of marked animals.",
            "Author Keywords": "",
        },
        # 5: the same title and year but two DOIs: two papers (an erratum, a reply)
        {
            **base,
            "Title": "Estimating abundance from sparse data",
            "Year": "2021",
            "Cited by": "2",
            "DOI": "10.1000/x.5",
            "Abstract": "Abundance is estimated from sparse detections with a new model.",
            "Author Keywords": "",
        },
    ]
    wos = [
        {
            **scopus[0],
            "DOI": "https://doi.org/10.1000/abc.1",
            "Abstract": A1 + " Code is online.",
            "Cited by": "9",
            "Author Keywords": "Bayes; Open populations",
        },
        {
            **scopus[1],
            "Title": "SPATIAL CAPTURE RECAPTURE - A REVIEW",
            "DOI": "10.1000/scr.2",
            "Abstract": A2 + " Data are archived.",
            "Cited by": "7",
        },
        {**scopus[2], "Year": "2018", "Abstract": A3 + " Extended version."},
        {**scopus[3], "Abstract": "An editorial on the history of the journal and its new editors."},
        {
            **scopus[4],
            "DOI": "10.1000/x.6",
            "Abstract": "A reply to comments on estimating abundance from sparse data.",
        },
    ]
    a = parse(tmp_path, "scopus", _scopus_csv(scopus), ext="csv")
    path = tmp_path / "wos.txt"
    path.write_text(_wos_plain(wos), encoding="utf-8")
    b = read_listing(ListingSpec("wos", path))
    with caplog.at_level("WARNING"):
        corpus, stats = build_corpus([a, b])
    assert len(corpus) == 8 and stats["n_duplicates_merged"] == 2
    assert stats["merged_on"] == {"DOI": 1, "title and year": 1}
    assert stats["n_citation_counts_differ"] == 2
    line = [r.getMessage() for r in caplog.records if "merged" in r.getMessage()]
    assert line == [
        "corpus: 2 records are another record's paper and were merged into it (1 on the DOI, 1 on the"
        " title and year); 2 with different citation counts keep the larger"
    ]
    one = corpus.set_index("title").loc["Open population models for marked animals"]
    assert one["listings"] == "scopus;wos"
    assert one["cited_by"] == "12"  # the larger count
    assert one["keywords"] == "mark-recapture; Bayes; Open populations"  # united, each once
    two = corpus.set_index("title").loc["Spatial capture-recapture: a review"]
    assert two["cited_by"] == "7" and two["doi"] == "10.1000/scr.2"  # WoS's DOI fills Scopus's blank
    assert corpus["title"].value_counts()["Editorial"] == 2
    assert corpus["title"].value_counts()["Integrated population models in practice"] == 2
    assert corpus["doc_id"].is_unique


@pytest.mark.parametrize(
    "a, b, same",
    [
        ("10.1016/J.CSDA.2019.04.016", "https://doi.org/10.1016/j.csda.2019.04.016", True),
        ("http://dx.doi.org/10.1/x", "doi: 10.1/X", False),  # "10.1" is no DOI prefix
        ("doi:10.1002/ece3.1", "10.1002/ECE3.1 ", True),
        ("10.1002/ece3.1", "10.1002/ece3.10", False),
        ("", "", False),
    ],
)
def test_dois_are_one_without_case_or_url_prefix(a, b, same):
    from papertopics.ingest.corpus import doi_key

    assert (doi_key(a) == doi_key(b) != "") == same


def test_a_shared_scopus_export_written_again_as_web_of_science_merges_record_by_record(tmp_path, caplog):
    """The common case in a review: one search exported from Scopus and from Web of Science.
    Records of the shared Scopus export are written as WoS plain text (DOIs upper-cased with a URL
    prefix, the © line gone, another count), a fifth of them without a DOI: each is one paper."""
    from conftest import shared_export

    path = shared_export(tmp_path, "scopus-csv-smart-on-fhir-701.csv")
    scopus = read_listing(ListingSpec("scopus", path))
    sample = scopus.iloc[::5].head(60)
    rows = []
    for k, (_, r) in enumerate(sample.iterrows()):
        doi = f"https://doi.org/{r['doi'].upper()}" if r["doi"] and k % 5 else ""
        rows.append(
            {
                "Authors": "Hahn, W",
                "Title": r["title"].upper(),
                "Source title": r["journal"],
                "Author Keywords": "",
                "Abstract": r["text"] + " Extra sentence in the other database.",
                "Cited by": str(int(float(r["cited_by"] or 0)) + 1),
                "Year": r["year"],
                "DOI": doi,
            }
        )
    wos_path = tmp_path / "wos.txt"
    wos_path.write_text(_wos_plain(rows), encoding="utf-8")
    wos = read_listing(ListingSpec("wos", wos_path))
    with caplog.at_level("WARNING"):
        corpus, stats = build_corpus([scopus, wos])
    alone, alone_stats = build_corpus([scopus])
    assert len(wos) == len(rows) == 60
    assert len(corpus) == len(alone)  # every WoS record is a Scopus paper
    on = stats["merged_on"]
    assert on["DOI"] + on.get("title and year", 0) == 60 and on.get("title and year", 0) >= 12
    assert on.get("abstract", 0) == alone_stats["merged_on"].get("abstract", 0)
    assert (corpus["listings"] == "scopus;wos").sum() == 60
    merged = corpus[corpus["listings"] == "scopus;wos"]
    counts = merged["cited_by"].astype(float)
    assert (counts >= 1).all()  # WoS's count, one more than Scopus's, is the one kept
