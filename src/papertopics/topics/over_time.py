"""Topics over time: each topic's share of the papers per period, the topics that rise and fall,
and each period's own top terms for a topic (BERTopic's topics_over_time).

The periods come from the documents' canonical `date` (ingest.dates): years when the listing
spans MIN_YEARS or more of them, else months when the dates carry them (a 16-month arXiv
listing), else none. A topic's trend is the slope of a binomial regression (logit link) of its
papers per period on time, in years: each period's papers are trials, the topic's papers
successes. The standard error is scaled by the Pearson dispersion when periods vary more than a
binomial allows (quasi-binomial), so a topic with bursty years gets a wide interval, not a
confident slope; p-values are Wald's, q-values Benjamini-Hochberg's over every topic.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import scipy.sparse as sp
from scipy.stats import false_discovery_control, norm

from papertopics.topics.ctfidf import class_tfidf

# Years needed for yearly periods; below it, months (when the dates have them).
MIN_YEARS = 3
# A period with fewer papers than this is left out of the periods (a stray early paper).
MIN_PERIOD_PAPERS = 5
# Terms kept per topic and period (over_time.csv `terms`).
PERIOD_TERMS = 5
# config.yaml representation's defaults, for a caller that passes none
CTFIDF_DEFAULTS = {"reduce_frequent_words": True, "bm25_weighting": False}
# A trend with q below this is called rising or falling.
TREND_Q = 0.05

SHARE_COLUMNS = ["period", "topic", "label", "count", "total", "share", "terms"]
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
]


def document_periods(dates: pd.Series) -> tuple[pd.Series, str]:
    """(each document's period label, "" where none; the unit: "year", "month" or "" for none)."""
    text = dates.fillna("").astype(str)
    years = text.str[:4]
    dated = years.str.fullmatch(r"\d{4}")
    if dated.sum() < 2:
        return pd.Series("", index=dates.index), ""
    counts = years[dated].value_counts()
    kept = counts[counts >= MIN_PERIOD_PAPERS]
    if len(kept) >= MIN_YEARS:
        return years.where(dated & years.isin(kept.index), ""), "year"
    months = text.str[:7]
    monthly = months.str.fullmatch(r"\d{4}-\d{2}")
    counts = months[monthly].value_counts()
    kept = counts[counts >= MIN_PERIOD_PAPERS]
    if len(kept) >= MIN_YEARS:
        return months.where(monthly & months.isin(kept.index), ""), "month"
    if len(counts := years[dated].value_counts()) >= 2:
        return years.where(dated, ""), "year"
    return pd.Series("", index=dates.index), ""


def period_years(periods: list[str]) -> np.ndarray:
    """Each period's position in years ("2019" -> 2019.0, "2025-10" -> 2025.75)."""
    return np.array([int(p[:4]) + ((int(p[5:7]) - 1) / 12 if len(p) >= 7 else 0.0) for p in periods])


def binomial_slope(successes: np.ndarray, trials: np.ndarray, t: np.ndarray) -> tuple[float, float]:
    """(slope, standard error) of logit(p) = a + b t by iteratively reweighted least squares,
    the error scaled by the Pearson dispersion when it exceeds 1 (quasi-binomial)."""
    y, n = successes.astype(float), trials.astype(float)
    x = np.column_stack([np.ones_like(t), t - t.mean()])
    p0 = np.clip((y.sum() + 0.5) / (n.sum() + 1.0), 1e-6, 1 - 1e-6)
    beta = np.array([np.log(p0 / (1 - p0)), 0.0])
    for _ in range(50):
        mu = np.clip(1 / (1 + np.exp(-(x @ beta))), 1e-9, 1 - 1e-9)
        w = n * mu * (1 - mu)
        info = x.T @ (w[:, None] * x)
        step = np.linalg.solve(info + 1e-12 * np.eye(2), x.T @ (y - n * mu))
        beta = beta + step
        if np.abs(step).max() < 1e-10:
            break
    mu = np.clip(1 / (1 + np.exp(-(x @ beta))), 1e-9, 1 - 1e-9)
    w = n * mu * (1 - mu)
    covariance = np.linalg.inv(x.T @ (w[:, None] * x) + 1e-12 * np.eye(2))
    dof = len(t) - 2
    dispersion = float(((y - n * mu) ** 2 / np.maximum(w, 1e-12)).sum() / dof) if dof > 0 else 1.0
    return float(beta[1]), float(np.sqrt(covariance[1, 1] * max(1.0, dispersion)))


def topic_shares(documents: pd.DataFrame, periods: pd.Series) -> pd.DataFrame:
    """One row per (period, topic): the topic's papers in the period, the period's papers, the share."""
    frame = pd.DataFrame({"period": periods.to_numpy(), "topic": documents["topic"].astype(int).to_numpy()})
    frame = frame[frame["period"] != ""]
    counts = frame.groupby(["period", "topic"]).size().unstack(fill_value=0).sort_index()
    long = counts.stack().rename("count").reset_index()
    long["total"] = long["period"].map(counts.sum(axis=1)).astype(int)
    long["share"] = (long["count"] / long["total"]).round(4)
    return long


def topic_trends(shares: pd.DataFrame, topics: pd.DataFrame) -> pd.DataFrame:
    """One row per topic: its slope (log-odds per year), interval, p, q and rising/falling/steady."""
    periods = sorted(shares["period"].unique())
    t = period_years(periods)
    labels = dict(zip(topics["topic"].astype(int), topics["label"].astype(str)))
    rows = []
    for topic, part in shares[shares["topic"] >= 0].groupby("topic"):
        part = part.set_index("period").reindex(periods)
        count, total = part["count"].fillna(0).to_numpy(), part["total"].fillna(0).to_numpy()
        present = [p for p, c in zip(periods, count) if c > 0]
        slope, error = binomial_slope(count, total, t)
        rows.append(
            {
                "topic": int(topic),
                "label": labels.get(int(topic), ""),
                "size": int(count.sum()),
                "first_year": int(present[0][:4]) if present else None,
                "last_year": int(present[-1][:4]) if present else None,
                "slope_per_year": round(slope, 4),
                "std_error": round(error, 4),
                "ci_low": round(slope - 1.96 * error, 4),
                "ci_high": round(slope + 1.96 * error, 4),
                "odds_ratio_per_year": round(float(np.exp(slope)), 3),
                "p_value": float(2 * norm.sf(abs(slope) / error)) if error > 0 else 1.0,
            }
        )
    table = pd.DataFrame(rows, columns=TREND_COLUMNS[:-2])
    if table.empty:
        return pd.DataFrame(columns=TREND_COLUMNS)
    table["q_value"] = false_discovery_control(table["p_value"].to_numpy(), method="bh")
    clear = table["q_value"] < TREND_Q
    table["status"] = np.where(clear & (table["slope_per_year"] > 0), "rising", "steady")
    table.loc[clear & (table["slope_per_year"] < 0), "status"] = "falling"
    return table.sort_values("p_value", kind="stable").reset_index(drop=True)


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
    if "date" not in documents.columns:
        return pd.DataFrame(columns=SHARE_COLUMNS), pd.DataFrame(columns=TREND_COLUMNS), ""
    periods, unit = document_periods(documents["date"])
    if not unit:
        return pd.DataFrame(columns=SHARE_COLUMNS), pd.DataFrame(columns=TREND_COLUMNS), ""
    shares = topic_shares(documents, periods)
    labels = dict(zip(topics["topic"].astype(int), topics["label"].astype(str)))
    shares.insert(2, "label", shares["topic"].map(labels).fillna(""))
    words = {}
    if counts is not None:
        words = period_terms(counts, terms, documents["topic"].astype(int).to_numpy(), periods, **ctfidf)
    shares["terms"] = [words.get((p, int(t)), "") for p, t in zip(shares["period"], shares["topic"])]
    return shares[SHARE_COLUMNS], topic_trends(shares, topics), unit
