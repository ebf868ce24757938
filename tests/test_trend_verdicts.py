"""The verdicts a statistician gives, on the count patterns that broke the old Wald test
(issue 64), checked three ways: each pattern's verdict (the table in docs/analyses.md, "Trends"),
the sparse ones' p against the exact conditional permutation p, and the exact p itself against
every table with the same margins enumerated by brute force (hypothesis); then one table's
verdicts on every page that shows them (Over time, the cards, the listings page, the workbook,
the paper's figure)."""

from __future__ import annotations

import itertools
import re
import warnings
from math import comb
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from scipy.stats import fisher_exact

from papertopics.analyses.trends import (
    EXACT_MAX_PAPERS,
    TREND_Q,
    exact_trend_p,
    fit_trend,
    q_values,
    verdicts,
)

REPO = Path(__file__).resolve().parents[1]
Y10 = list(range(2015, 2025))

# (pattern, topic's papers per period, all papers per period, period positions, verdict)
CASES = [
    (
        "emerging: a smooth rise, 61 papers",
        [1, 2, 4, 8, 16, 30],
        [200] * 6,
        list(range(2019, 2025)),
        "rising",
    ),
    (
        "vanishing: a smooth fall, 61 papers",
        [30, 16, 8, 4, 2, 1],
        [200] * 6,
        list(range(2019, 2025)),
        "falling",
    ),
    (
        "filled last period: fit_trend([0,5,10],[10,10,10])",
        [0, 5, 10],
        [10, 10, 10],
        [2021, 2022, 2023],
        "rising",
    ),
    (
        "filled first period: fit_trend([4,2,0,0],[4,50,50,50])",
        [4, 2, 0, 0],
        [4, 50, 50, 50],
        [2019, 2020, 2021, 2022],
        "falling",
    ),
    ("10 years of 200: 0,...,0,5,30", [0] * 8 + [5, 30], [200] * 10, Y10, "rising"),
    ("the same with one stray year-1 paper", [1] + [0] * 7 + [5, 30], [200] * 10, Y10, "rising"),
    ("60 of 67 papers in two early years", [30, 30, 1, 1, 1, 1, 1, 1, 1, 0], [200] * 10, Y10, "falling"),
    (
        "60 of 67 papers in two early years, growing totals (Pearson scale 12.7)",
        [2, 1, 0, 30, 30, 0, 1, 1, 2, 0],
        [21, 32, 125, 169, 230, 232, 274, 330, 345, 375],
        list(range(2012, 2022)),
        "falling",
    ),
    (
        "54 + 14 in the last two years, all 14 of the last",
        [0] * 8 + [54, 14],
        [200] * 8 + [300, 14],
        Y10,
        "rising",
    ),
    ("newest listing's 8 papers all in the topic (7 of 49 before)", [7, 8], [49, 8], [0, 1], "rising"),
    (
        "stray early paper in a large emerging topic (471 papers)",
        [1, 0, 0, 0, 0, 0, 0, 50, 120, 300],
        [2000] * 10,
        Y10,
        "rising",
    ),
    (
        "flat but noisy (bursty years, 211 papers)",
        [30, 5, 40, 8, 35, 6, 38, 7, 33, 9],
        [200] * 10,
        Y10,
        "steady",
    ),
    (
        "flat, large (1,009 papers)",
        [100, 105, 98, 102, 99, 101, 103, 97, 100, 104],
        [1000] * 10,
        Y10,
        "steady",
    ),
    ("two periods: 10 then 30 of 100", [10, 30], [100, 100], [0, 1], "rising"),
    ("two periods: 10 then 12 of 100", [10, 12], [100, 100], [0, 1], "steady"),
    ("one period", [5], [10], [2020], "steady"),
    ("all zero", [0, 0, 0], [50, 50, 50], [2020, 2021, 2022], "steady"),
    ("1 paper, in the last period", [0, 0, 1], [50, 50, 50], [2020, 2021, 2022], "steady"),
    ("2 papers, both in the last period", [0, 0, 2], [50, 50, 50], [2020, 2021, 2022], "steady"),
]


def _verdict(trend) -> str:
    return str(verdicts(q_values([trend.p_value]), np.array([trend.direction]))[0])


def _sparse(successes, trials) -> bool:
    m, total = sum(successes), sum(trials)
    return 0 < m < total and len(trials) > 1 and min(m, total - m) <= EXACT_MAX_PAPERS


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize(("pattern", "successes", "trials", "x", "verdict"), CASES, ids=[c[0] for c in CASES])
def test_each_count_pattern_gets_the_verdict_a_statistician_gives(pattern, successes, trials, x, verdict):
    trend = fit_trend(successes, trials, x)
    assert _verdict(trend) == verdict, (pattern, trend)
    if _sparse(successes, trials):  # within a factor 2 of the exact conditional permutation p
        exact = exact_trend_p(successes, trials, x)
        assert exact / 2 <= trend.p_value <= 2 * exact, (pattern, trend.p_value, exact)
    if verdict == "steady" and len(x) > 1 and 0 < sum(successes) < sum(trials):
        assert trend.p_value > TREND_Q


def test_the_docs_table_lists_every_pattern_with_its_verdict():
    text = (REPO / "docs" / "analyses.md").read_text(encoding="utf-8")
    section = text.split("## Trends", 1)[1].split("\n## ", 1)[0]
    rows = {
        cells[0]: cells[-1]
        for line in section.splitlines()
        if line.startswith("|") and not set(line) <= set("|- ")
        for cells in [[c.strip() for c in line.strip("|").split("|")]]
    }
    for pattern, *_, verdict in CASES:
        assert rows.get(pattern) == verdict, pattern


def _brute_force_p(successes, trials, x) -> float:
    """Every table with these period totals and this topic total, weighted prod C(n_i, y_i):
    P(|T - E T| >= |t - E T|), T = sum x_i y_i."""
    m = sum(successes)
    statistics, weights = [], []
    for table in itertools.product(*(range(n + 1) for n in trials)):
        if sum(table) == m:
            statistics.append(float(np.dot(table, x)))
            weights.append(float(np.prod([comb(n, y) for n, y in zip(trials, table)])))
    statistics, weights = np.array(statistics), np.array(weights)
    mean = np.dot(statistics, weights) / weights.sum()
    observed = float(np.dot(successes, x))
    return float(weights[np.abs(statistics - mean) >= abs(observed - mean) - 1e-9].sum() / weights.sum())


@st.composite
def small_tables(draw):
    k = draw(st.integers(2, 5))
    trials = draw(st.lists(st.integers(1, 7), min_size=k, max_size=k))
    successes = [draw(st.integers(0, n)) for n in trials]
    start = draw(st.integers(1990, 2020))
    gaps = draw(st.lists(st.sampled_from([1, 1, 1, 2, 5]), min_size=k - 1, max_size=k - 1))
    x = [float(start + sum(gaps[:i])) for i in range(k)]
    return successes, trials, x


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_tables())
def test_on_small_counts_the_trend_p_is_the_exact_permutation_p_of_every_table_enumerated(table):
    successes, trials, x = table
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        trend = fit_trend(successes, trials, x)
    if sum(successes) in (0, sum(trials)):
        assert trend.test == "none" and np.isnan(trend.p_value) and _verdict(trend) == "steady"
        return
    assert trend.test == "exact"
    assert trend.p_value == pytest.approx(_brute_force_p(successes, trials, x), rel=1e-9, abs=1e-12)
    assert trend.ci_low <= trend.ci_high
    if len(trials) == 2:  # two periods: Fisher's exact test; its one-sided p is never above ours
        table = [[successes[1], trials[1] - successes[1]], [successes[0], trials[0] - successes[0]]]
        one_sided = min(fisher_exact(table, "greater")[1], fisher_exact(table, "less")[1])
        assert one_sided <= trend.p_value + 1e-12


@st.composite
def any_tables(draw):
    k = draw(st.integers(1, 12))
    trials = draw(st.lists(st.integers(0, 3000), min_size=k, max_size=k))
    shape = draw(st.sampled_from(["any", "late", "early", "filled"]))
    successes = []
    for i, n in enumerate(trials):
        if shape == "late" and i < k - 1 or shape == "early" and i > 0:
            successes.append(0)
        elif shape == "filled" and i == k - 1:
            successes.append(n)
        else:
            successes.append(draw(st.integers(0, n)))
    return successes, trials, [2000.0 + i for i in range(k)]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(any_tables())
def test_any_counts_give_a_p_in_0_1_or_none_without_a_warning_or_an_error(table):
    successes, trials, x = table
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        trend = fit_trend(successes, trials, x)
        q = q_values([trend.p_value, 0.01])
    assert np.isnan(trend.p_value) == (trend.test == "none")
    assert np.isnan(trend.p_value) or 0.0 <= trend.p_value <= 1.0
    assert np.isnan(q[0]) == np.isnan(trend.p_value) and np.isfinite(q[1])  # NaN stays out of BH
    assert not (trend.ci_low > trend.ci_high)


def test_a_nan_p_stays_out_of_benjamini_hochberg():
    q = q_values([np.nan, 0.01, 0.04])
    assert np.isnan(q[0]) and q[1:] == pytest.approx([0.02, 0.04])
    assert list(verdicts(q, np.array([1, 1, -1]))) == ["steady", "rising", "falling"]


# --- one table on every page ------------------------------------------------------------

# (papers in "old" = 2023, papers in "new" = 2024) per topic; -1: the outliers
PLAN = {0: (20, 60), 1: (60, 20), 2: (0, 12), 3: (50, 56), 4: (80, 70), 5: (60, 52), -1: (30, 30)}


def two_listing_inputs():
    """A report's inputs whose two listings are two years: "old" (2023) and "new" (2024), so the
    listings page and Over time test the same counts: topic 0 rises, 1 falls, 2 is new (12
    papers), 3-5 move by chance."""
    from report_sample import sample_inputs

    from papertopics.analyses.over_time import over_time_tables
    from papertopics.report.inputs import ReportInputs

    n = sum(a + b for a, b in PLAN.values())
    inputs = sample_inputs(n, n_topics=6, listings=("old", "new"), seed=3)
    documents, topics = inputs.documents.copy(), inputs.topics.copy()
    rows = [(t, side) for t, (a, b) in PLAN.items() for side, k in (("old", a), ("new", b)) for _ in range(k)]
    documents["topic"] = [t for t, _ in rows]
    documents["listings"] = [side for _, side in rows]
    documents["published"] = ["2023" if side == "old" else "2024" for _, side in rows]
    documents["year"] = documents["published"]
    sizes = documents["topic"].value_counts()
    topics["size"] = topics["topic"].map(sizes).fillna(0).astype(int)
    shares, trends, unit = over_time_tables(documents, topics)
    assert unit == "year"
    described = {"over_time": shares, "trends": trends}
    text = {name: table.astype(str).replace({"nan": "", "None": ""}) for name, table in described.items()}
    return ReportInputs(
        documents=documents,
        topics=topics,
        map2d=inputs.map2d,
        metrics=inputs.metrics,
        listings=["old", "new"],
        described=text,
    ), trends


def test_one_table_gets_the_same_verdict_on_every_page(tmp_path):
    from papertopics.report.figures import over_time_figure
    from papertopics.report.render import render_report
    from papertopics.report.workbook import described_sheets

    inputs, trends = two_listing_inputs()
    expected = dict(zip(trends["topic"].astype(int), trends["status"]))
    assert expected[0] == "rising" and expected[1] == "falling" and expected[2] == "rising"
    assert {expected[t] for t in (3, 4, 5)} == {"steady"}
    render_report(inputs, tmp_path)

    timeline = (tmp_path / "timeline.html").read_text(encoding="utf-8")
    shown = dict(re.findall(r'<tr data-topic="(\d+)" data-status="(\w+)">', timeline))
    assert {int(t): s for t, s in shown.items()} == expected

    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    for topic, status in expected.items():
        card = index.split(f'id="topic-{topic}"', 1)[1].split('id="topic-', 1)[0]
        marked = re.findall(r'class="trend-(rising|falling)"', card)
        assert marked == ([status] if status != "steady" else []), topic
        assert re.search(r'<dd class="years">2023–2024', card) or topic == 2  # topic 2: 2024 only

    listings = (tmp_path / "listings.html").read_text(encoding="utf-8")
    for topic, status in expected.items():
        row = re.search(rf'<tr data-topic="{topic}" data-status="(\w+)">(.*?)</tr>', listings, re.S)
        moved = {
            "rising": ("rising", "new"),
            "falling": ("falling", "gone"),
            "steady": ("unchanged", "new", "gone"),
        }
        assert row.group(1) in moved[status], topic
        assert ("<strong>clear</strong>" in row.group(2)) == (status != "steady"), topic
        assert ("could be chance" in row.group(2)) == (status == "steady"), topic

    trends.to_csv(tmp_path / "topic_trends.csv", index=False)
    sheet = described_sheets({"trends": tmp_path / "topic_trends.csv"})["trends"]
    assert dict(zip(sheet["topic"].astype(int), sheet["status"])) == expected

    figure, names = over_time_figure(inputs.described["over_time"], trends, inputs.topics, "t")
    marks = {"rising": "▲ ", "falling": "▼ "}
    labels = dict(zip(inputs.topics["topic"].astype(int), inputs.topics["label"].astype(str)))
    for topic, status in expected.items():
        (name,) = [n for n in names if labels[topic][:20] in n]
        assert name.startswith(marks[status]) if status in marks else not name.startswith(("▲", "▼")), topic


def test_the_listings_page_and_over_time_give_one_topic_the_same_p():
    from papertopics.report.listing_shares import listing_trends

    inputs, trends = two_listing_inputs()
    table = listing_trends(inputs.documents, inputs.listings, inputs.topics).set_index("topic")
    over_time = trends.set_index("topic")
    for topic in over_time.index:
        assert table.loc[topic, "p_value"] == pytest.approx(over_time.loc[topic, "p_value"], rel=1e-9)
        assert table.loc[topic, "significant"] == (over_time.loc[topic, "status"] != "steady")


def test_no_template_reads_a_key_that_a_dict_method_shadows():
    """Jinja's `row.clear` is the dict's clear method (always true), not the key "clear"."""
    methods = {name for name in dir(dict) if not name.startswith("_")}
    folder = REPO / "src" / "papertopics" / "report" / "templates"
    for template in folder.glob("*.html"):
        for name in re.findall(r"\b[a-z_]+\.([a-z_]+)\b", template.read_text(encoding="utf-8")):
            assert name not in methods, (template.name, name)


MODERATE = [  # sparse tables whose p is large enough for a permutation sample to check it
    ([2, 3, 4, 5, 6], [100] * 5, [2019, 2020, 2021, 2022, 2023]),
    ([6, 2, 5, 1, 3, 4], [40, 20, 60, 30, 50, 45], [2018, 2019, 2020, 2021, 2022, 2023]),
    ([3, 0, 1, 4], [30, 5, 12, 40], [2000, 2004, 2005, 2006.5]),
    ([10, 12], [100, 100], [0, 1]),
    ([0, 0, 2], [50, 50, 50], [2020, 2021, 2022]),
]


@pytest.mark.parametrize(("successes", "trials", "x"), MODERATE)
def test_the_exact_p_agrees_with_a_sample_of_random_permutations_of_the_papers(successes, trials, x):
    """Papers shuffled among the periods (each period's papers and the topic's fixed), 40,000
    times: the share of shuffles whose T is as far from its mean as the observed one."""
    rng = np.random.default_rng(0)
    position = np.repeat(np.asarray(x, dtype=float), trials)
    topic = np.zeros(len(position))
    topic[: sum(successes)] = 1
    observed = sum(s * t for s, t in zip(successes, x))
    mean = sum(successes) * position.mean()
    shuffled = np.array([rng.permutation(topic) for _ in range(40_000)]) @ position
    sampled = np.mean(np.abs(shuffled - mean) >= abs(observed - mean) - 1e-9)
    trend = fit_trend(successes, trials, x)
    assert trend.test == "exact" and 0.01 < trend.p_value
    assert trend.p_value == pytest.approx(sampled, abs=4 * np.sqrt(sampled * (1 - sampled) / 40_000) + 1e-3)
