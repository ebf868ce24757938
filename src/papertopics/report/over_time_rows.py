"""The Over time heatmap's rows, columns and marks, shared by the page (report.described) and the
paper's figure (report.figures, rule draw_figures): pandas only, so the figure's job does not
take in the pages' modules (its code param, runtime.closure)."""

from __future__ import annotations

import pandas as pd

# the Over time heatmap's marks before a rising or falling topic's name
TREND_MARKS = {"rising": "▲ ", "falling": "▼ "}


def numbers(table: pd.DataFrame, *columns: str) -> pd.DataFrame:
    """A copy of `table` with `columns` as numbers (a cell that is none: NaN)."""
    table = table.copy()
    for column in columns:
        table[column] = pd.to_numeric(table[column], errors="coerce")
    return table


def over_time_rows(shares: pd.DataFrame, trends: pd.DataFrame, topics: pd.DataFrame):
    """The Over time heatmap's rows and columns, as the page and the paper's figure
    (report.figures) draw them: the rising topics, then the falling (each by p-value), then the
    others by size, every topic of over_time.csv but the outliers; the periods in
    over_time.csv's order (in time, joined ones such as "1991-2001" as written there).
    -> (topics, {topic: status}, periods)."""
    shares = numbers(shares, "topic")
    if not {"topic", "status", "p_value"} <= set(trends.columns):  # no trends table: no marks
        trends = pd.DataFrame(columns=["topic", "status", "p_value"])
    trends = numbers(trends, "topic", "p_value")
    topics = numbers(topics, "topic", "size")
    status = dict(zip(trends["topic"].astype(int), trends["status"].astype(str)))
    moving = [
        int(t)
        for kind in ("rising", "falling")
        for t in trends[trends["status"] == kind].sort_values("p_value", kind="stable")["topic"]
    ]
    largest = topics[topics["topic"] >= 0].sort_values("size", ascending=False, kind="stable")["topic"]
    present = set(shares["topic"].astype(int))
    drawn = [t for t in dict.fromkeys([*moving, *largest.astype(int).tolist()]) if t in present]
    periods = list(dict.fromkeys(shares["period"].astype(str)))  # over_time.csv's order: in time
    return drawn, status, periods
