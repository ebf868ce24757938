"""A document's publication date (ingest.dates): the listing's own year, finer columns only
where they agree, day/month order per column, impossible and out-of-range dates no date."""

from __future__ import annotations

import datetime as dt
import warnings

import pandas as pd
import pytest
from conftest import shared_export

from papertopics.ingest.dates import add_dates, parse_date

TODAY = dt.date(2026, 6, 1)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("2019", "2019"),
        ("2025-10-13", "2025-10-13"),  # arXiv listing_date
        ("2020 Jul 14", "2020-07-14"),  # PubMed DP
        ("MAY 2019", "2019-05"),  # Web of Science PD + PY
        ("JAN 15 2019", "2019-01-15"),
        ("13 October 2025", "2025-10-13"),
        ("17/05/2019", "2019-05-17"),
        ("20190517", "2019-05-17"),
        ("2010.0", "2010"),  # a year read as a float
        ("2020-02-30", "bad"),  # no such day
        ("", None),
        ("in press", None),
    ],
)
def test_a_date_is_read_at_the_precision_its_source_gives(value, expected):
    assert parse_date(value) == expected


def _dated(table: pd.DataFrame) -> tuple[pd.DataFrame, list[str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = add_dates(table, today=TODAY)
    return out, [str(w.message) for w in caught]


def test_the_publication_year_wins_and_a_finer_date_only_adds_month_and_day_when_it_agrees():
    corpus = pd.DataFrame(
        {
            "doc_id": ["a", "b", "c", "d"],
            "listing": "ieee",
            "year": ["1995", "2020", "", "2019"],
            "online_date": ["12 Mar 2002", "5 May 2020", "8 Apr 2025", ""],
        }
    )
    dated, _ = _dated(corpus)
    assert dated["published"].tolist() == ["1995", "2020-05-05", "2025-04-08", "2019"]
    assert dated["year"].tolist() == ["1995", "2020", "", "2019"]  # the listing's own column untouched
    assert dated["online_date"].tolist() == corpus["online_date"].tolist()
    seeds = pd.DataFrame({"doc_id": ["a"], "title": ["x"], "session": ["Poster 1"]})
    assert add_dates(seeds) is seeds  # no date column: no new column, the seeds' tables unchanged


def test_day_or_month_first_is_decided_once_per_column():
    month_first = pd.DataFrame({"doc_id": ["a", "b"], "date": ["01/02/2020", "12/31/2020"]})
    assert _dated(month_first)[0]["published"].tolist() == ["2020-01-02", "2020-12-31"]
    day_first = pd.DataFrame({"doc_id": ["a", "b"], "date": ["01/02/2020", "31/12/2020"]})
    assert _dated(day_first)[0]["published"].tolist() == ["2020-02-01", "2020-12-31"]
    open_, lines = _dated(pd.DataFrame({"doc_id": ["a"], "date": ["01/02/2020"]}))
    assert open_["published"].tolist() == ["2020-02-01"] and any("read day-first" in line for line in lines)


def test_impossible_dates_and_years_out_of_range_are_no_date_in_one_line():
    corpus = pd.DataFrame(
        {
            "doc_id": ["a", "b", "c", "d", "e"],
            "listing": "mine",
            "year": ["", "2031", "2087", "1850", "2020"],
            "date": ["2020-02-30", "", "", "", ""],
        }
    )
    dated, lines = _dated(corpus)
    assert dated["published"].tolist() == ["", "", "", "", "2020"]
    assert len(lines) == 1
    assert lines[0].startswith("dates: mine: 1 impossible date(s) ('2020-02-30' in a)")
    assert "3 year(s) after 2027 or before 1900 ('2031' in b, '2087' in c, '1850' in d)" in lines[0]


def test_web_of_science_early_access_years_count_as_dates(tmp_path):
    """The capture-recapture WoS export: 7 early-access papers carry EY/EA and no PY."""
    path = shared_export(tmp_path, "wos-plain-capture-recapture-500.txt")
    from papertopics.ingest.listings import read_listing
    from papertopics.ingest.specs import ListingSpec

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = read_listing(ListingSpec(name="wos", path=path))
    early = table["year"].eq("") & table["online_date"].ne("")
    assert early.sum() > 0
    dated, _ = _dated(table)
    assert (dated.loc[early, "published"].str.fullmatch(r"20\d\d")).all()
    assert (dated["published"] != "").all()


def test_a_month_without_a_year_takes_the_publication_year():
    """Web of Science writes PD "JUL" or "JUL 15" beside PY: the month joins the listing's year."""
    corpus = pd.DataFrame(
        {"doc_id": ["a", "b", "c"], "year": ["2019", "2018", ""], "date": ["JUL", "DEC 15", "JUL"]}
    )
    assert _dated(corpus)[0]["published"].tolist() == ["2019-07", "2018-12-15", ""]


def test_the_ieee_export_keeps_its_publication_years_online_dates_never_replace_them(tmp_path):
    """IEEE Xplore's CSV: "Online Date" is often the digitisation date (2002 for papers of 1972-2001)."""
    path = shared_export(tmp_path, "ieee-csv-legal-re-492.csv")
    from papertopics.ingest.listings import read_listing
    from papertopics.ingest.specs import ListingSpec

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        table = read_listing(ListingSpec(name="ieee", path=path))
    dated, _ = _dated(table)
    with_year = table["year"] != ""
    assert (dated.loc[with_year, "published"].str[:4] == table.loc[with_year, "year"]).all()
    assert (dated["published"].str[:4] < "2002").sum() == 48  # 1972-2001, as the export says
    assert dated["published"].str[:4].min() == "1972" and (dated["published"] != "").all()
