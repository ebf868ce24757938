"""Citations (issue 59): one canonical `cited_by` column from every export's spelling, each topic's
total, median and most-cited papers (analyses.citations), their sheets and their card lines."""

from __future__ import annotations

import csv
import logging
import re

import pandas as pd
import pytest
from conftest import shared_export

from papertopics.analyses.citations import TOP_CITED, topic_citations
from papertopics.ingest.listings import read_listing
from papertopics.ingest.specs import ListingSpec


def _as_topics(table: pd.DataFrame) -> pd.DataFrame:
    """Three topics, as if clustered (by the title's length), for the per-topic tables."""
    table = table.copy()
    table["topic"] = (table["title"].str.len() % 3).astype(str)
    return table


def _check_against(table: pd.DataFrame, truth: dict[str, int], key: str) -> pd.DataFrame:
    """most_cited.csv's papers and counts are each topic's highest counts in the file."""
    topical = _as_topics(table)
    summary, most = topic_citations(topical)
    assert len(summary) == 3 and len(most) == 3 * TOP_CITED
    for topic, part in most.groupby("topic"):
        members = topical[topical["topic"] == str(topic)]
        counts = sorted((truth[k] for k in members[key]), reverse=True)
        assert part["cited_by"].tolist() == counts[:TOP_CITED]
        by_doc = dict(zip(members["doc_id"], members[key]))
        assert [truth[by_doc[d]] for d in part["doc_id"]] == part["cited_by"].tolist()
        total = summary.set_index("topic").loc[topic, "citations_total"]
        assert total == sum(counts)
    return most


def test_a_real_wos_export_gives_each_topics_most_cited_papers_with_the_files_tc(tmp_path):
    """Web of Science plain text: TC (Core Collection times cited, as bibliometrix), not Z9."""
    path = shared_export(tmp_path, "wos-plain-tr-wok-500.txt")
    table = read_listing(ListingSpec(name="wos", path=path))
    text = path.read_text(encoding="utf-8-sig")
    truth = {
        ut: int(tc)
        for tc, ut in re.findall(r"^TC (\d+)$.*?^UT (\S+)$", text, re.M | re.S)
        if ut in set(table["id"])
    }
    assert len(truth) == len(table) and max(truth.values()) == 60
    most = _check_against(table, truth, "id")
    assert most["cited_by"].max() == 60
    assert {"title", "year", "venue"} <= set(most.columns) and most["venue"].str.len().gt(0).all()


def test_a_real_scopus_export_gives_each_topics_most_cited_papers_with_the_files_cited_by(tmp_path):
    path = shared_export(tmp_path, "scopus-csv-smart-on-fhir-701.csv")
    table = read_listing(ListingSpec(name="scopus", path=path))
    with open(path, encoding="utf-8-sig", newline="") as handle:
        truth = {row["EID"]: int(row["Cited by"] or 0) for row in csv.DictReader(handle)}
    table = table[table["cited_by"].str.strip() != ""]
    assert len(table) > 400
    _check_against(table, truth, "id")


@pytest.mark.parametrize(
    "header",
    ["Cited by", "cited_by_count", "Times Cited, WoS Core", "Cites", "Scholarly Citation Count",
     "Times cited", "Article Citation Count"],
)  # fmt: skip
def test_every_exports_citation_column_is_read_as_cited_by(tmp_path, header):
    path = tmp_path / "export.csv"
    path.write_text(f'title,abstract,"{header}"\nA,first abstract here,12\nB,second abstract there,3\n')
    table = read_listing(ListingSpec(name="x", path=path))
    assert table["cited_by"].tolist() == ["12", "3"]


def test_a_text_citation_column_is_one_warning_line_not_a_crash(tmp_path, caplog):
    documents = pd.DataFrame(
        {
            "doc_id": ["a", "b", "c", "d"],
            "topic": ["0", "0", "1", "1"],
            "title": ["A", "B", "C", "D"],
            "cited_by": ["many", "1,234", "n/a", "7"],
            "listings": ["pop", "pop", "pop", "pop"],
        }
    )
    with caplog.at_level(logging.WARNING):
        summary, most = topic_citations(documents, "listing.csv")
    lines = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert lines == [
        "listing.csv: 2 cited_by value(s) are not counts, read as no citations: 'many' (listing pop, 'A')"
    ]
    assert summary.set_index("topic")["citations_total"].to_dict() == {0: 1234, 1: 7}
    assert most["doc_id"].tolist() == ["b", "d"]


def test_citations_per_year_are_bibliometrix_tc_per_year_since_publication():
    """TC / (latest year - PY + 1): a 2015 paper cited 100 times in a listing ending in 2024
    has 100 / 10 = 10 a year; a 2024 paper cited 30 times has 30 / 1. PY is the parsed
    publication year (`published`), never the raw `year` cell."""
    documents = pd.DataFrame(
        {
            "doc_id": ["old", "new", "mid"],
            "topic": ["0", "0", "0"],
            "title": ["Old", "New", "Mid"],
            "year": ["Spring 2015", "2031", "2020-2021"],  # the raw cells: a season, a typo, a span
            "published": ["2015", "2024-03", "2020"],  # ingest.dates' reading of them
            "journal": ["J1", "J2", "J3"],
            "cited_by": ["100", "30", "10"],
        }
    )
    summary, most = topic_citations(documents)
    assert most[["doc_id", "year", "cited_by", "per_year", "venue"]].values.tolist() == [
        ["old", "2015", 100, 10.0, "J1"],
        ["new", "2024", 30, 30.0, "J2"],
        ["mid", "2020", 10, 2.0, "J3"],
    ]
    totals = summary.iloc[0][["citations_total", "citations_median", "per_year_median", "as_of_year"]]
    assert totals.tolist() == [140, 30, 10, "2024"]
    assert set(most["as_of_year"]) == {"2024"}


def test_citations_per_year_need_a_parsed_year_and_the_as_of_year_is_the_listings_latest():
    documents = pd.DataFrame(
        {
            "doc_id": ["a", "b", "c"],
            "topic": ["0", "0", "1"],
            "title": ["A", "B", "C"],
            "year": ["2031", "2019", "2020"],
            "published": ["", "2019", "2020"],  # "2031": after the current year, no date
            "cited_by": ["40", "8", "3"],
        }
    )
    summary, most = topic_citations(documents)
    rows = most.set_index("doc_id")
    assert pd.isna(rows.loc["a", "per_year"]) and rows.loc["a", "year"] == ""  # not "2031", not /1
    assert rows.loc["b", "per_year"] == 4.0 and rows.loc["c", "per_year"] == 3.0  # to 2020
    assert set(summary["as_of_year"]) == {"2020"}


def test_ntc_is_bibliometrix_tc_over_the_mean_tc_of_the_same_year():
    """bibliometrix R/biblioAnalysis.R l.125-127: group_by(PY) %>% mutate(NTC = TC / mean(TC)),
    over the whole listing (not per topic); the undated papers one group; a year whose papers are
    all uncited gives none."""
    documents = pd.DataFrame(
        {
            "doc_id": list("abcdefg"),
            "topic": ["0", "1", "0", "1", "0", "1", "0"],
            "title": list("ABCDEFG"),
            "published": ["2019", "2019", "2019", "2020", "2020", "", ""],
            "cited_by": ["10", "20", "0", "0", "0", "6", "2"],
        }
    )
    _, most = topic_citations(documents)
    ntc = most.set_index("doc_id")["ntc"]
    assert ntc[list("abcfg")].tolist() == [1.0, 2.0, 0.0, 1.5, 0.5]  # 2019's mean 10; undated 4
    assert ntc[["d", "e"]].isna().all()  # 2020: mean 0


def test_a_count_over_2_31_is_refused_in_one_line_naming_the_file_and_the_record(caplog):
    documents = pd.DataFrame(
        {
            "doc_id": ["a", "b", "c", "d"],
            "topic": ["0", "0", "1", "1"],
            "title": ["Alpha", "Beta", "Gamma", "Delta"],
            "cited_by": ["12345678901234567890", "2147483649", "2147483648", "7"],
            "listings": ["pop", "pop", "pop", "pop"],
        }
    )
    with caplog.at_level(logging.WARNING):
        summary, most = topic_citations(documents, "listing.csv")
    lines = [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING]
    assert lines == [
        "listing.csv: 2 cited_by value(s) over 2^31 (2,147,483,648), no paper's count, read as no "
        "citations: 12345678901234567890 (listing pop, 'Alpha')"
    ]
    assert summary.set_index("topic")["citations_total"].to_dict() == {1: 2**31 + 7}  # not -2^63
    assert most["doc_id"].tolist() == ["c", "d"]


def test_a_listing_without_citations_gets_header_only_tables_and_no_sheets(tmp_path):
    from papertopics.report.workbook import described_sheets

    summary, most = topic_citations(pd.DataFrame({"doc_id": ["a"], "topic": ["0"], "title": ["A"]}))
    assert summary.empty and most.empty
    summary.to_csv(tmp_path / "c.csv", index=False)
    most.to_csv(tmp_path / "m.csv", index=False)
    assert described_sheets({"citations": tmp_path / "c.csv", "most_cited": tmp_path / "m.csv"}) == {}


def test_the_workbook_gets_citations_and_most_cited_sheets_with_numbers(tmp_path):
    from papertopics.report.workbook import described_sheets

    documents = pd.DataFrame(
        {
            "doc_id": ["a", "b"],
            "topic": ["0", "0"],
            "title": ["A", "B"],
            "cited_by": ["5", "9"],
            "published": ["2020-05", "2021"],
        }
    )
    summary, most = topic_citations(documents)
    summary.to_csv(tmp_path / "c.csv", index=False)
    most.to_csv(tmp_path / "m.csv", index=False)
    sheets = described_sheets({"citations": tmp_path / "c.csv", "most_cited": tmp_path / "m.csv"})
    assert list(sheets) == ["citations", "most cited"]
    assert sheets["most cited"]["cited_by"].tolist() == [9, 5]
    assert sheets["citations"]["citations_total"].dtype.kind in "if"
    assert sheets["most cited"]["ntc"].tolist() == [1.0, 1.0]  # each alone in its year
    assert sheets["most cited"]["per_year"].tolist() == [9.0, 2.5]  # to 2021
    assert sheets["most cited"]["as_of_year"].tolist() == [2021, 2021]
    assert sheets["citations"]["as_of_year"].tolist() == [2021]


def test_ieee_xplores_empty_citation_counts_are_read_as_zero_in_one_line(tmp_path, caplog):
    """IEEE Xplore writes no "0": its "Article Citation Count" is empty for an uncited paper
    (the shared export: 240 empty cells, no zero). Those papers are counted, as 0."""
    path = shared_export(tmp_path, "ieee-csv-legal-re-492.csv")
    with open(path, encoding="utf-8-sig", newline="") as handle:
        cells = [row["Article Citation Count"] for row in csv.DictReader(handle)]
    assert cells.count("") == 240 and "0" not in cells
    with caplog.at_level(logging.INFO, logger="papertopics.ingest.listings"):
        table = read_listing(ListingSpec(name="ieee", path=path))
    said = [r.getMessage() for r in caplog.records if "read as 0" in r.getMessage()]
    assert len(said) == 1 and "'Article Citation Count'" in said[0] and str(path) in said[0]
    zero = int(said[0].split(": ")[1].split()[0])
    assert zero == (table["cited_by"] == "0").sum() > 200  # the kept papers' empty cells
    assert (table["cited_by"].str.strip() != "").all()
    summary, _ = topic_citations(_as_topics(table))
    assert summary["papers_counted"].sum() == len(table)


def test_other_exports_empty_citation_cells_stay_no_count(tmp_path):
    path = tmp_path / "export.csv"
    path.write_text('title,abstract,"Cited by"\nA,first abstract here,\nB,second abstract there,3\n')
    assert read_listing(ListingSpec(name="x", path=path))["cited_by"].tolist() == ["", "3"]


def test_the_maps_citation_field_holds_every_count_whole():
    """Packed in 32 bits: 200,000 stays 200,000 (a 16-bit field showed 65,534)."""
    from papertopics.report.citations import citation_field
    from papertopics.report.documents import packed

    documents = pd.DataFrame({"cited_by": ["200000", "0", "", "2147483648"]})
    field = citation_field(documents)
    assert field["type"] == "u4" and field["values"].tolist() == [200_001, 1, 0, 2**31 + 1]
    assert field["max"] == 2**31 + 1
    import base64

    import numpy as np

    raw = np.frombuffer(base64.b64decode(packed(field["values"], field["type"])), dtype="<u4")
    assert raw.tolist() == [200_001, 1, 0, 2**31 + 1]
