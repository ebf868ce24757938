"""The one trend model (analyses.trends): statsmodels' binomial GLM, quasi-binomial where periods
scatter more than chance, a likelihood-ratio test where a topic is all in one end period; and
the periods every dated paper falls in (analyses.over_time)."""

from __future__ import annotations

import warnings
from math import comb

import numpy as np
import pandas as pd
import pytest
import statsmodels.api as sm
from scipy.stats import chi2
from scipy.stats import f as f_dist

from papertopics.analyses.over_time import document_periods, over_time_tables
from papertopics.analyses.trends import fit_trend, verdicts

YEARS = np.arange(2015, 2025, dtype=float)
TOTALS = np.array([40, 55, 60, 80, 90, 120, 150, 160, 200, 240])


def _reference(hits, totals, t, **fit):
    exog = sm.add_constant(t - t.mean())
    return sm.GLM(np.column_stack([hits, totals - hits]), exog, family=sm.families.Binomial()).fit(**fit)


def _flat(hits, totals):
    return sm.GLM(
        np.column_stack([hits, totals - hits]), np.ones((len(hits), 1)), family=sm.families.Binomial()
    ).fit()


def _profile_deviance(hits, totals, t, slope):
    """statsmodels' deviance of the best intercept with the slope fixed (an offset)."""
    centred = t - t.mean()
    return (
        sm.GLM(
            np.column_stack([hits, totals - hits]),
            np.ones((len(t), 1)),
            family=sm.families.Binomial(),
            offset=slope * centred,
        )
        .fit()
        .deviance
    )


def test_a_topic_with_many_papers_gets_statsmodels_likelihood_ratio_test_and_profile_interval():
    hits = np.array([2, 3, 5, 7, 9, 15, 20, 26, 35, 48])  # 170 papers, a smooth rise: deviance/df below 1
    reference = _reference(hits, TOTALS, YEARS)
    assert reference.deviance / reference.df_resid < 1
    trend = fit_trend(hits, TOTALS, YEARS)
    assert trend.test == "lr" and trend.scale == 1.0
    assert trend.slope == pytest.approx(reference.params[1], rel=1e-6)
    statistic = _flat(hits, TOTALS).deviance - reference.deviance
    assert trend.p_value == pytest.approx(chi2.sf(statistic, 1), rel=1e-6)
    for bound in (trend.ci_low, trend.ci_high):  # the slopes the same test rejects at 5% exactly
        excess = _profile_deviance(hits, TOTALS, YEARS, bound) - reference.deviance
        assert excess == pytest.approx(chi2.ppf(0.95, 1), rel=1e-5)
    assert trend.ci_low < trend.slope < trend.ci_high


def test_over_dispersed_periods_read_f_with_the_deviance_dispersion_not_pearsons():
    hits = np.array([2, 12, 1, 20, 3, 30, 5, 40, 10, 60])  # bursty years, 183 papers
    plain = _reference(hits, TOTALS, YEARS)
    scale = plain.deviance / plain.df_resid
    assert scale > 3
    trend = fit_trend(hits, TOTALS, YEARS)
    assert trend.test == "lr-f" and trend.scale == pytest.approx(scale) and trend.df_resid == 8
    statistic = _flat(hits, TOTALS).deviance - plain.deviance
    assert trend.p_value == pytest.approx(f_dist.sf(statistic / scale, 1, 8), rel=1e-6)
    assert trend.p_value > chi2.sf(statistic, 1)  # the dispersion and F on 8 df: weaker evidence
    excess = _profile_deviance(hits, TOTALS, YEARS, trend.ci_high) - plain.deviance
    assert excess == pytest.approx(scale * f_dist.ppf(0.95, 1, 8), rel=1e-5)


def test_three_overdispersed_periods_get_the_f_interval_on_one_df_not_the_chi_square_one():
    hits, totals, t = np.array([100, 150, 160]), np.array([1000, 1000, 1000]), np.array([2019.0, 2020, 2021])
    trend = fit_trend(hits, totals, t)
    reference = _reference(hits, totals, t)
    assert trend.df_resid == 1 and trend.test == "lr-f" and trend.scale == pytest.approx(reference.deviance)
    excess = _profile_deviance(hits, totals, t, trend.ci_low) - reference.deviance
    assert excess == pytest.approx(trend.scale * f_dist.ppf(0.95, 1, 1), rel=1e-5)  # F(1, 1): 161, not 3.84


def test_a_scale_below_one_is_never_used():
    hits = np.array([45, 44, 46, 45, 44, 46])  # steadier than binomial chance: deviance/df << 1
    totals = np.full(6, 1000)
    t = np.arange(2019, 2025, dtype=float)
    plain = _reference(hits, totals, t)
    assert plain.deviance / plain.df_resid < 0.5
    trend = fit_trend(hits, totals, t)
    assert trend.test == "lr" and trend.scale == 1.0
    assert trend.p_value == pytest.approx(chi2.sf(_flat(hits, totals).deviance - plain.deviance, 1), rel=1e-6)


@pytest.mark.parametrize("hits", [[0, 0, 0, 0, 0, 0, 15], [15, 0, 0, 0, 0, 0, 0]])
def test_a_topic_of_few_papers_all_in_the_last_or_first_period_gets_the_exact_test(hits):
    hits, totals, t = np.array(hits), np.full(7, 100), np.arange(2019, 2026, dtype=float)
    trend = fit_trend(hits, totals, t)
    assert trend.test == "exact"
    # the two tables as far from the mean as this one: all 15 in the last period, or all in the first
    assert trend.p_value == pytest.approx(2 * comb(100, 15) / comb(700, 15), rel=1e-9)
    rising = hits[-1] > 0
    assert trend.direction == (1 if rising else -1)
    bound = trend.ci_low if rising else trend.ci_high
    assert np.isfinite(bound) and (bound > 0) == rising  # the interval excludes a flat share
    assert verdicts(np.array([trend.p_value]), np.array([trend.direction]))[0] == (
        "rising" if rising else "falling"
    )


@pytest.mark.parametrize("hits", [[0, 0, 0, 0, 0, 0, 150], [150, 0, 0, 0, 0, 0, 0]])
def test_a_topic_of_many_papers_all_in_one_end_period_gets_the_likelihood_ratio_test(hits):
    hits, totals, t = np.array(hits), np.full(7, 1000), np.arange(2019, 2026, dtype=float)
    trend = fit_trend(hits, totals, t)
    assert trend.test == "lr" and np.isnan(trend.slope)
    assert trend.p_value == pytest.approx(chi2.sf(_flat(hits, totals).deviance, 1), rel=1e-6)
    rising = hits[-1] > 0
    bound = trend.ci_low if rising else trend.ci_high
    assert (trend.ci_high if rising else trend.ci_low) == (np.inf if rising else -np.inf)
    # the finite end: where the profile deviance (its infimum 0) rises to chi-square's 95% quantile
    assert _profile_deviance(hits, totals, t, bound) == pytest.approx(chi2.ppf(0.95, 1), rel=1e-5)


def test_eight_papers_all_in_the_last_year_are_called_emerging_not_steady():
    documents = pd.DataFrame(
        {
            "topic": [0] * 8 + [1] * 60 + [2] * 60,
            "published": ["2024"] * 8 + [str(2018 + i % 7) for i in range(60)] * 2,
        }
    )
    topics = pd.DataFrame({"topic": [0, 1, 2], "label": ["new", "a", "b"]})
    _, trends, _ = over_time_tables(documents, topics)
    row = trends.set_index("topic").loc[0]
    assert row["test"] == "exact" and row["status"] == "rising" and row["q_value"] < 0.05
    assert np.isfinite(row["ci_low"]) and row["ci_low"] > 0


def test_sparse_early_years_are_joined_into_one_period_and_every_dated_paper_counted():
    years = ["1991", "1993", "1995", "1996", "1996", "1998", "2000", "2001"] + [
        str(2002 + i % 6) for i in range(120)
    ]
    documents = pd.DataFrame(
        {"topic": [i % 3 for i in range(len(years))] + [0, 1], "published": years + ["", ""]}
    )
    periods, unit = document_periods(documents["published"])
    assert unit == "year" and periods.iloc[0] == "1991-2001" and (periods.iloc[:8] == "1991-2001").all()
    shares, trends, _ = over_time_tables(documents, pd.DataFrame({"topic": [0, 1, 2], "label": list("abc")}))
    assert shares["period"].iloc[0] == "1991-2001" and "joined" in shares["formed"].iloc[0]
    dated = documents[documents["published"] != ""].groupby("topic").size()
    assert shares.groupby("topic")["count"].sum().to_dict() == dated.to_dict()
    assert trends.set_index("topic")["size"].to_dict() == dated.to_dict()
    assert trends.set_index("topic")["undated"].to_dict() == {0: 1, 1: 1, 2: 0}
    assert trends.set_index("topic")["first_year"].min() == 1991


def test_the_listings_page_calls_a_change_rising_only_when_the_same_model_finds_q_below_005():
    from papertopics.report.listing_shares import listing_trends

    plan = {0: (100, 200), 1: (200, 100), 2: (0, 50), 3: (300, 300), 4: (10, 12), 5: (390, 338)}
    rows = [
        {"topic": t, "listings": side}
        for t, (o, n) in plan.items()
        for side, k in (("old", o), ("new", n))
        for _ in range(k)
    ]
    topics = pd.DataFrame({"topic": range(6), "label": [f"t{k}" for k in range(6)]})
    table = listing_trends(pd.DataFrame(rows), ["old", "new"], topics).set_index("topic")
    assert table.loc[4, "status"] == "unchanged" and table.loc[4, "p_value"] > 0.5  # +2 papers: chance
    assert table.loc[0, "status"] == "rising" and table.loc[1, "status"] == "falling"
    assert (
        table.loc[2, "status"] == "new"
        and np.isfinite(table.loc[2, "p_value"])
        and table.loc[2, "p_value"] < 1e-6
    )
    same = fit_trend([10, 12], [1000, 1000], [0.0, 1.0])
    assert table.loc[4, "p_value"] == pytest.approx(same.p_value, rel=1e-9)


def test_over_time_is_a_heatmap_of_every_topic_with_the_rising_and_falling_marked(tmp_path):
    import json
    import re

    from report_sample import dated_inputs

    from papertopics.report.render import render_report

    inputs = dated_inputs(300)
    inputs.documents.loc[inputs.documents.index[:7], "published"] = ""  # 7 papers without a date
    render_report(inputs, tmp_path)
    page = (tmp_path / "timeline.html").read_text(encoding="utf-8")
    data = json.loads(re.search(r'id="report-data">(.*?)</script>', page, re.S).group(1))
    (trace,) = data["figure"]["data"]  # one picture, not a line per topic
    assert trace["type"] == "heatmap" and trace["x"][0] == "2015" and len(trace["y"]) == 6
    assert trace["y"][0].startswith("▲ ") and trace["y"][1].startswith("▼ ")
    shares = inputs.described["over_time"]
    first = shares[(shares["topic"].astype(int) == 0) & (shares["period"] == "2015")].iloc[0]
    assert trace["customdata"][0][0][:2] == [int(first["count"]), int(first["total"])]  # counts on hover
    assert "Periods: one per year." in page and "7 of 300 papers carry no date" in page


def test_months_only_when_every_dated_paper_has_one_so_none_is_left_out():
    months = [f"2025-{1 + i % 10:02d}-03" for i in range(100)] + [f"2026-{1 + i % 4:02d}" for i in range(100)]
    assert document_periods(pd.Series(months))[1] == "month"
    periods, unit = document_periods(pd.Series([*months, "2025", "2026"]))  # two papers with a year only
    assert unit == "year" and set(periods) == {"2025", "2026"}


def test_the_page_shows_an_emerging_topic_by_its_finite_bound_not_an_infinite_factor():
    from report_sample import dated_inputs

    from papertopics.report.described import trend_rows

    inputs = dated_inputs(120)
    trends = inputs.described["trends"].copy()
    trends.loc[0, ["slope_per_year", "std_error", "ci_low", "ci_high", "status", "test"]] = [
        "", "", "1.4823", "inf", "rising", "lr",
    ]  # fmt: skip
    inputs.described["trends"] = trends
    row = next(r for r in trend_rows(inputs) if r["topic"] == int(trends.loc[0, "topic"]))
    assert row["change"] == "only the last period" and row["ci"] == "≥ ×4.40" and row["direction"] == "up"


def test_a_one_year_listing_keeps_its_months_when_one_paper_has_a_year_only_and_the_page_says_so():
    from types import SimpleNamespace

    from papertopics.report.described import _periods_note

    months = [f"2025-{1 + i % 12:02d}-15" for i in range(300)]
    periods, unit = document_periods(pd.Series([*months, "2025"]))
    assert unit == "month" and periods.iloc[-1] == "" and periods.iloc[:-1].nunique() == 12
    documents = pd.DataFrame({"published": [*months, "2025"], "topic": 0})
    shares = pd.DataFrame({"period": sorted(set(periods) - {""}), "formed": ""})
    note = _periods_note(SimpleNamespace(documents=documents), shares, unit)
    assert "1 of 301 papers carry no month (1 with a year only" in note and "in no period" in note


def test_a_topics_years_are_its_own_papers_not_its_joined_periods_label():
    years = ["1972", "1980", "1985", "1990"] + [str(1992 + i % 8) for i in range(160)]
    topic = [1, 1, 1, 0] + [i % 2 for i in range(160)]
    documents = pd.DataFrame({"topic": topic, "published": years})
    shares, trends, _ = over_time_tables(documents, pd.DataFrame({"topic": [0, 1], "label": ["a", "b"]}))
    assert shares["period"].iloc[0] == "1972-1992"  # the sparse early years joined
    spans = trends.set_index("topic")[["first_year", "last_year"]].to_dict("index")
    assert spans == {0: {"first_year": 1990, "last_year": 1998}, 1: {"first_year": 1972, "last_year": 1999}}


@pytest.mark.filterwarnings("error")
def test_a_huge_or_infinite_odds_factor_is_written_without_an_overflow():
    from report_sample import dated_inputs

    from papertopics.report.described import trend_rows

    inputs = dated_inputs(120)
    trends = inputs.described["trends"].copy()
    trends.loc[0, ["slope_per_year", "ci_low", "ci_high", "status"]] = ["800", "-900", "1000", "rising"]
    trends.loc[1, ["slope_per_year", "ci_low", "ci_high", "status"]] = ["", "-inf", "-1000", "falling"]
    inputs.described["trends"] = trends
    rows = {r["topic"]: r for r in trend_rows(inputs)}
    first, second = (rows[int(trends.loc[k, "topic"])] for k in (0, 1))
    assert first["change"] == "> ×1e6" and first["ci"] == "0.00–> 1e6"
    assert second["change"] == "only the first period" and second["ci"] == "≤ ×0.00"


@pytest.mark.filterwarnings("error::RuntimeWarning")
def test_on_the_ieee_export_each_topics_years_are_its_papers_and_every_topic_is_tested(tmp_path):
    """The shared IEEE export (492 records, its early years sparse and joined into one period):
    a topic's years are its own papers' first and last, not the joined period's "1972-..."."""
    from conftest import shared_export

    from papertopics.ingest.dates import add_dates
    from papertopics.ingest.listings import read_listing
    from papertopics.ingest.specs import ListingSpec

    path = shared_export(tmp_path, "ieee-csv-legal-re-492.csv")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the reader's own notes on the export
        table = add_dates(read_listing(ListingSpec(name="ieee", path=path)))
    table["topic"] = [i % 12 for i in range(len(table))]  # twelve topics, as the run had
    shares, trends, unit = over_time_tables(
        table, pd.DataFrame({"topic": range(12), "label": list("abcdefghijkl")})
    )
    assert unit == "year" and "-" in shares["period"].iloc[0]  # sparse early years joined
    year = pd.to_numeric(table["published"].astype(str).str[:4], errors="coerce")
    papers = year.groupby(table["topic"]).agg(["min", "max"])
    rows = trends.set_index("topic")
    assert rows["first_year"].to_dict() == papers["min"].astype(int).to_dict()
    assert rows["last_year"].to_dict() == papers["max"].astype(int).to_dict()
    assert rows["first_year"].gt(int(shares["period"].iloc[0][:4])).any()  # some topic starts after the label
    assert rows["p_value"].between(0, 1).all() and set(rows["status"]) <= {"rising", "falling", "steady"}


def test_a_fit_that_does_not_converge_gives_no_p_unless_the_exact_test_gives_one(monkeypatch):
    import statsmodels.genmod.generalized_linear_model as glm

    original = glm.GLM.fit

    def unconverged(self, *args, **kwargs):
        fitted = original(self, *args, **kwargs)
        fitted.converged = False
        return fitted

    monkeypatch.setattr(glm.GLM, "fit", unconverged)
    large = fit_trend(np.array([2, 3, 5, 7, 9, 15, 20, 26, 35, 48]), TOTALS, YEARS)  # the likelihood ratio's
    assert large.test == "none" and np.isnan(large.p_value)
    assert verdicts(np.array([np.nan]), np.array([large.direction]))[0] == "steady"
    small = fit_trend([1, 2, 4, 8, 16], [200] * 5, [2019, 2020, 2021, 2022, 2023])  # the exact test's
    assert small.test == "exact" and small.p_value < 1e-5 and np.isnan(small.ci_low)


def test_the_profile_bounds_root_search_never_raises():
    from papertopics.analyses.trends import _crossing

    assert _crossing(lambda b: -1.0, 0.0, 1.0) == np.inf  # never crosses: open on that side
    assert _crossing(lambda b: -1.0, 0.0, -1.0) == -np.inf

    def broken(b):
        raise ValueError("f(a) and f(b) must have different signs")

    assert np.isnan(_crossing(broken, 0.0, 1.0))
    assert _crossing(lambda b: b - 2.5, 0.0, 1.0) == pytest.approx(2.5)


def test_a_topic_with_nothing_to_test_is_steady_with_no_p_and_the_others_still_get_their_q():
    """A topic that is every paper of its periods (or none) has no test: NaN p, NaN q, steady;
    the Over time path once handed that NaN to Benjamini-Hochberg and crashed."""
    years = [str(2015 + i % 6) for i in range(240)]
    documents = pd.DataFrame({"topic": [0] * 240, "published": years})
    _, trends, _ = over_time_tables(documents, pd.DataFrame({"topic": [0], "label": ["all"]}))
    row = trends.iloc[0]
    assert row["test"] == "none" and np.isnan(row["p_value"]) and np.isnan(row["q_value"])
    assert row["status"] == "steady"
