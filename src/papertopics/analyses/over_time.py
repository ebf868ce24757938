"""Topics over time: each topic's share of the papers per period, the topics that rise and fall,
and each period's own top terms for a topic (BERTopic's topics_over_time).

The periods come from the documents' `published` date (ingest.dates): years when MIN_YEARS or
more years hold MIN_PERIOD_PAPERS papers each, else months when every dated paper's date
carries one (a 16-month arXiv listing) or the listing spans one year (a paper with a year only is
then in no period), else years when there are two, else none. Sparse years
(or months) at either end are joined into one period, "1991-2001" ("2025-01/2025-03" for
months), as bibliometrix's and VOSviewer's time slices join them: every dated paper is in
exactly one period, so a topic's counts over the periods add up to its dated papers. A
period's position in time is its middle. A topic's trend is topics.trends' binomial GLM of its
papers among each period's papers on time, in years.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import scipy.sparse as sp

from papertopics.analyses.trends import fit_trend, odds_factor, q_values, verdicts
from papertopics.ingest.dates import PUBLISHED
from papertopics.topics.ctfidf import class_tfidf

# Years needed for yearly periods; below it, months (when the dates have them).
MIN_YEARS = 3
# A year (month) with fewer papers than this at either end is joined with its neighbours.
MIN_PERIOD_PAPERS = 5
# Terms kept per topic and period (over_time.csv `terms`).
PERIOD_TERMS = 5
# config.yaml representation's defaults, for a caller that passes none
CTFIDF_DEFAULTS = {"reduce_frequent_words": True, "bm25_weighting": False}

SHARE_COLUMNS = ["period", "topic", "label", "count", "total", "share", "terms", "formed"]
TREND_COLUMNS = [
    "topic",
    "label",
    "size",
    "first_year",
    "last_year",
    "slope_per_year",
    "std_error",
    "ci_low",
    "ci_high",
    "odds_ratio_per_year",
    "p_value",
    "q_value",
    "status",
    "undated",
    "dispersion",
    "test",
]


def _joined(counts: pd.Series, separator: str) -> dict[str, str]:
    """{year (month): its period}: the sparse ones at either end joined into one period each
    (with the next one when they are still sparse together); the others their own."""
    keys = list(counts.index)
    dense = [k for k in keys if counts[k] >= MIN_PERIOD_PAPERS]
    if not dense:
        return {k: k for k in keys}
    head = keys[: keys.index(dense[0])]
    tail = keys[keys.index(dense[-1]) + 1 :]
    middle = keys[len(head) : len(keys) - len(tail)]
    if head and counts[head].sum() < MIN_PERIOD_PAPERS and len(middle) > 1:
        head, middle = [*head, middle[0]], middle[1:]
    if tail and counts[tail].sum() < MIN_PERIOD_PAPERS and len(middle) > 1:
        tail, middle = [middle[-1], *tail], middle[:-1]
    period = {k: k for k in middle}
    for group in (head, tail):
        for k in group:
            period[k] = group[0] if len(group) == 1 else f"{group[0]}{separator}{group[-1]}"
    return period


def document_periods(dates: pd.Series) -> tuple[pd.Series, str]:
    """(each document's period label, "" where none; the unit: "year", "month" or "" for none)."""
    text = dates.fillna("").astype(str)
    years = text.str[:4]
    dated = years.str.fullmatch(r"\d{4}")
    if dated.sum() < 2:
        return pd.Series("", index=dates.index), ""
    counts = years[dated].value_counts().sort_index()
    if (counts >= MIN_PERIOD_PAPERS).sum() >= MIN_YEARS:
        return years.map(_joined(counts, "-")).where(dated, ""), "year"
    months = text.str[:7]
    monthly = months.str.fullmatch(r"\d{4}-\d{2}")
    by_month = months[monthly].value_counts().sort_index()
    # months when every dated paper has one, or when the listing spans one year (years give no
    # trend at all): its papers with a year only are then in no period (the page says how many)
    if (by_month >= MIN_PERIOD_PAPERS).sum() >= MIN_YEARS and (
        monthly.sum() == dated.sum() or len(counts) == 1
    ):
        return months.map(_joined(by_month, "/")).where(monthly, ""), "month"
    if len(counts) >= 2:
        return years.where(dated, ""), "year"
    return pd.Series("", index=dates.index), ""


def _position(label: str) -> float:
    """A period's middle in years ("2019" -> 2019.0, "2025-10" -> 2025.75, "1991-2001" -> 1996.0)."""
    if "/" in label:
        return float(np.mean([_position(part) for part in label.split("/")]))
    if len(label) == 9 and label[4] == "-":
        return (int(label[:4]) + int(label[5:])) / 2
    return int(label[:4]) + ((int(label[5:7]) - 1) / 12 if len(label) >= 7 else 0.0)


def _last_year(label: str) -> int:
    """The last year a period covers ("1991-2001" -> 2001, "2025-11/2026-02" -> 2026)."""
    last = label.split("/")[-1]
    return int(last[5:]) if len(last) == 9 and last[4] == "-" else int(last[:4])


def period_years(periods: list[str]) -> np.ndarray:
    """Each period's position in years (its middle for a joined period)."""
    return np.array([_position(p) for p in periods])


def _formed(period: str, unit: str) -> str:
    """How a period was formed, for over_time.csv's `formed` ("" for a plain year or month)."""
    if "/" not in period and not (len(period) == 9 and period[4] == "-"):
        return ""
    return f"{unit}s with fewer than {MIN_PERIOD_PAPERS} papers at this end, joined"


def topic_shares(documents: pd.DataFrame, periods: pd.Series) -> pd.DataFrame:
    """One row per (period, topic): the topic's papers in the period, the period's papers, the share."""
    frame = pd.DataFrame({"period": periods.to_numpy(), "topic": documents["topic"].astype(int).to_numpy()})
    frame = frame[frame["period"] != ""]
    counts = frame.groupby(["period", "topic"]).size().unstack(fill_value=0)
    counts = counts.loc[sorted(counts.index, key=_position)]
    long = counts.stack().rename("count").reset_index()
    long["total"] = long["period"].map(counts.sum(axis=1)).astype(int)
    long["share"] = (long["count"] / long["total"]).round(4)
    return long


def _round(value: float, digits: int = 4):
    return round(value, digits) if np.isfinite(value) else value


def topic_trends(
    shares: pd.DataFrame,
    topics: pd.DataFrame,
    undated: dict[int, int] | None = None,
    years: dict[int, tuple[int, int]] | None = None,
) -> pd.DataFrame:
    """One row per topic: its slope (log-odds per year), interval, p, q and rising/falling/steady
    (topics.trends); `undated`: each topic's papers in no period; `years`: each topic's first and
    last year, its own papers' (paper_years), not its periods' labels (a topic whose first paper
    is from 1990 starts in 1990, not in the 1972 of the joined period "1972-1991"); without them,
    its first and last periods'."""
    periods = sorted(shares["period"].unique(), key=_position)
    t = period_years(periods)
    labels = dict(zip(topics["topic"].astype(int), topics["label"].astype(str)))
    rows, directions = [], []
    for topic, part in shares[shares["topic"] >= 0].groupby("topic"):
        part = part.set_index("period").reindex(periods)
        count, total = part["count"].fillna(0).to_numpy(), part["total"].fillna(0).to_numpy()
        present = [p for p, c in zip(periods, count) if c > 0]
        span = (years or {}).get(int(topic))
        trend = fit_trend(count, total, t)
        directions.append(trend.direction)
        rows.append(
            {
                "topic": int(topic),
                "label": labels.get(int(topic), ""),
                "size": int(count.sum()),
                "first_year": span[0] if span else int(present[0][:4]) if present else None,
                "last_year": span[1] if span else _last_year(present[-1]) if present else None,
                "slope_per_year": _round(trend.slope),
                "std_error": _round(trend.std_error),
                "ci_low": _round(trend.ci_low),
                "ci_high": _round(trend.ci_high),
                "odds_ratio_per_year": _round(odds_factor(trend.slope), 3),
                "p_value": trend.p_value,
                "undated": int((undated or {}).get(int(topic), 0)),
                "dispersion": round(trend.scale, 3),
                "test": trend.test,
            }
        )
    if not rows:
        return pd.DataFrame(columns=TREND_COLUMNS)
    table = pd.DataFrame(rows)
    table["q_value"] = q_values(table["p_value"].to_numpy())
    table["status"] = verdicts(table["q_value"].to_numpy(), np.array(directions))
    return table[TREND_COLUMNS].sort_values("p_value", kind="stable").reset_index(drop=True)


def topic_counts(counts: sp.csr_matrix, topic_of: np.ndarray) -> tuple[list[int], sp.csr_matrix]:
    """(the topics, outliers left out; topics x terms: the counts of each topic's papers summed)."""
    topic_ids = sorted(set(topic_of.tolist()) - {-1})
    assigned = np.flatnonzero(topic_of >= 0)
    rows = np.searchsorted(topic_ids, topic_of[assigned])
    member = sp.csr_matrix((np.ones(len(assigned)), (rows, assigned)), shape=(len(topic_ids), len(topic_of)))
    return topic_ids, (member @ counts).tocsr()


def period_terms(
    counts: sp.csr_matrix,
    terms: np.ndarray,
    topic_of: np.ndarray,
    periods: pd.Series,
    n: int = PERIOD_TERMS,
    **ctfidf,
) -> dict[tuple[str, int], str]:
    """{(period, topic): its top terms}: the period's term frequencies of the topic's papers,
    weighted by the topic model's idf over all periods (BERTopic's topics_over_time)."""
    topic_ids, summed = topic_counts(counts, topic_of)
    if not topic_ids or counts.shape[1] == 0:
        return {}
    with np.errstate(divide="ignore", invalid="ignore"):  # a term of the outliers only: no idf
        _, idf = class_tfidf(summed, **{**CTFIDF_DEFAULTS, **ctfidf})
    idf = np.nan_to_num(idf, nan=0.0, posinf=0.0)
    result = {}
    keys = pd.DataFrame({"period": periods.to_numpy(), "topic": topic_of})
    keys = keys[(keys["period"] != "") & (keys["topic"] >= 0)]
    for (period, topic), rows in keys.groupby(["period", "topic"]).groups.items():
        tf = np.asarray(counts[np.asarray(rows)].sum(axis=0)).ravel().astype(float)
        if tf.sum() == 0:
            continue
        score = tf / tf.sum() * idf
        best = np.argsort(-score, kind="stable")[:n]
        result[(period, int(topic))] = ", ".join(str(terms[i]) for i in best if score[i] > 0)
    return result


def over_time_tables(
    documents: pd.DataFrame, topics: pd.DataFrame, counts: sp.csr_matrix | None = None, terms=None, **ctfidf
) -> tuple[pd.DataFrame, pd.DataFrame, str]:
    """(over_time.csv, topic_trends.csv, the period unit); empty tables without dates."""
    if PUBLISHED not in documents.columns:
        return pd.DataFrame(columns=SHARE_COLUMNS), pd.DataFrame(columns=TREND_COLUMNS), ""
    periods, unit = document_periods(documents[PUBLISHED])
    if not unit:
        return pd.DataFrame(columns=SHARE_COLUMNS), pd.DataFrame(columns=TREND_COLUMNS), ""
    shares = topic_shares(documents, periods)
    labels = dict(zip(topics["topic"].astype(int), topics["label"].astype(str)))
    shares.insert(2, "label", shares["topic"].map(labels).fillna(""))
    words = {}
    if counts is not None:
        words = period_terms(counts, terms, documents["topic"].astype(int).to_numpy(), periods, **ctfidf)
    shares["terms"] = [words.get((p, int(t)), "") for p, t in zip(shares["period"], shares["topic"])]
    shares["formed"] = shares["period"].map(lambda p: _formed(p, unit))
    topic_of = documents["topic"].astype(int)
    undated = topic_of[periods.to_numpy() == ""].value_counts().to_dict()
    years = paper_years(documents[PUBLISHED], topic_of, periods)
    return shares[SHARE_COLUMNS], topic_trends(shares, topics, undated, years), unit


def paper_years(published: pd.Series, topic_of: pd.Series, periods: pd.Series) -> dict[int, tuple[int, int]]:
    """{topic: (the year of its first paper, of its last)}, over the papers in a period."""
    year = pd.to_numeric(published.fillna("").astype(str).str[:4], errors="coerce")
    inside = (periods.to_numpy() != "") & year.notna().to_numpy()
    spans = year[inside].groupby(topic_of.to_numpy()[inside]).agg(["min", "max"])
    return {int(t): (int(low), int(high)) for t, (low, high) in spans.iterrows()}
