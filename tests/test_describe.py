"""Dates parsed once in ingest, and the tables describe_topics writes from a listing's own columns:
topics over time (shares, trends, each period's terms), venues and authors, the thematic map."""

from __future__ import annotations

import pandas as pd
from conftest import shared_export
from report_sample import dated_inputs

from papertopics.analyses.authors import author_key, author_keys
from papertopics.analyses.over_time import document_periods, over_time_tables
from papertopics.analyses.sources import topic_sources
from papertopics.ingest.dates import add_dates


def test_periods_are_years_for_a_long_span_and_months_for_a_short_one():
    years = pd.Series([f"{2010 + i % 8}-05-01" for i in range(80)])
    periods, unit = document_periods(years)
    assert unit == "year" and sorted(periods.unique()) == [str(y) for y in range(2010, 2018)]
    months = pd.Series(
        [f"2025-{1 + i % 10:02d}-03" if i % 2 else f"2026-{1 + i % 4:02d}-09" for i in range(120)]
    )
    periods, unit = document_periods(months)
    assert unit == "month" and "2025-08" in set(periods) and "2026-03" in set(periods)
    assert document_periods(pd.Series(["2019"] * 30))[1] == ""  # one period: nothing over time


def test_a_growing_and_a_fading_topic_are_called_rising_and_falling_the_rest_steady():
    inputs = dated_inputs(300)
    trends = inputs.described["trends"].set_index("topic")
    assert trends.loc["0", "status"] == "rising" and float(trends.loc["0", "ci_low"]) > 0
    assert trends.loc["1", "status"] == "falling" and float(trends.loc["1", "ci_high"]) < 0
    assert set(trends.drop(index=["0", "1"])["status"]) == {"steady"}
    shares = inputs.described["over_time"]
    row = shares[(shares["period"] == "2015") & (shares["topic"] == "1")].iloc[0]
    assert "reinforcement" in row["terms"] or "reward" in row["terms"]  # that year's own terms


def test_authors_written_several_ways_are_one_author_shown_by_the_fullest_form():
    keys = author_keys(["Smith, J.", "Smith, John", "J. Smith", "Smith J.", "SMITH, J"])
    assert set(keys.values()) == {"smith john"}
    assert author_key("Smith, J.") != author_key("Smith, K.")
    documents = pd.DataFrame(
        {
            "topic": ["0", "0", "0", "1"],
            "authors": ["Smith, J.", "Smith, John; Doe, A.", "J. Smith", "Doe, A."],
        }
    )
    authors = topic_sources(documents).query("field == 'author' and topic == 0")
    assert authors.iloc[0][["name", "count"]].tolist() == ["Smith, John", 3]
    assert authors.iloc[0]["share"] == 1.0


def test_a_real_scopus_export_gets_years_venues_and_folded_authors(tmp_path):
    """The Scopus export of ../shared (health informatics, 652 abstracts, 2010s-2024)."""
    path = shared_export(tmp_path, "scopus-csv-smart-on-fhir-701.csv")
    from papertopics.ingest.listings import read_listing
    from papertopics.ingest.specs import ListingSpec

    table = add_dates(read_listing(ListingSpec(name="scopus", path=path)))
    assert table["published"].str.fullmatch(r"20[12]\d").mean() > 0.99
    # a topic per journal group, as if clustered: the venues and authors of a topic are its papers'
    table["topic"] = (table["journal"].str.len() % 3).astype(str)
    sources = topic_sources(table)
    venues = sources[sources["field"] == "venue"]
    assert "Journal of the American Medical Informatics Association" in set(venues["name"])
    authors = sources[sources["field"] == "author"]
    assert len(authors) and authors["count"].min() >= 2 and not authors["name"].str.contains(r"\(\d+\)").any()
    shares, trends, unit = over_time_tables(
        table, pd.DataFrame({"topic": [0, 1, 2], "label": ["a", "b", "c"]})
    )
    assert unit == "year" and shares["period"].nunique() >= 5 and len(trends) == 3


def test_a_listing_without_dates_venues_or_authors_gets_empty_tables():
    documents = pd.DataFrame({"topic": ["0", "1"], "text": ["a", "b"], "session": ["", ""]})
    shares, trends, unit = over_time_tables(documents, pd.DataFrame({"topic": [0, 1], "label": ["a", "b"]}))
    assert unit == "" and shares.empty and trends.empty
    assert topic_sources(documents).empty


def test_the_listings_most_productive_authors_are_on_the_overview_and_in_the_workbook(tmp_path):
    """authors.csv (analyses.sources.author_table): on the overview, its first rows; in the
    workbook, the `authors` sheet with every author."""
    from papertopics.report.render import index_page
    from papertopics.report.workbook import described_sheets

    inputs = dated_inputs(300)
    authors = inputs.described["authors"]
    # "Smith, John", "Smith, J." and "J. Smith" write one person, on every paper
    assert authors.iloc[0][["rank", "name", "papers", "papers_fractionalised"]].tolist() == [
        "1", "Smith, John", "300", "200.0",
    ]  # fmt: skip
    assert authors["name"].tolist()[1:] == ["Doe, A.", "Roe, B."]
    html = index_page(inputs)
    assert "Most productive authors" in html and '<td>Smith, John</td><td class="num">300</td>' in html
    path = tmp_path / "authors.csv"
    authors.to_csv(path, index=False)
    sheet = described_sheets({"authors": path})["authors"]
    assert sheet["papers"].tolist() == [300, 100, 100] and sheet["papers_fractionalised"].iloc[0] == 200.0
    inputs.described.pop("authors")
    assert "Most productive authors" not in index_page(inputs)
