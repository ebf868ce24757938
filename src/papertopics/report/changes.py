"""What changed since the previous run: results/topics/changes.csv as tiles, a table and shares.

fit_topics keeps topic ids stable across reruns in one results folder and writes one row per
topic of either run (the outliers, -1, included): its status (new, vanished, grown, shrunk,
unchanged, merged, split), sizes and corpus shares before and after, and the previous ids it
drew from or went to. On a first run every topic is "new". See papertopics.topics.identity.
"""

from __future__ import annotations

import pandas as pd

from papertopics.constants import OUTLIER_LABEL
from papertopics.report.colors import topic_color
from papertopics.report.listing_shares import listing_counts, listing_totals
from papertopics.report.summary import percent

# Display order of the statuses (tiles, legend); each has a CSS class `status-<name>`.
STATUSES = ("new", "grown", "shrunk", "unchanged", "merged", "split", "vanished")

FIRST_RUN = (
    "This is the first run in this results folder: every topic is new; rerun after adding a "
    "listing or changing settings to see what changed"
)


def _tolerance() -> float:
    try:  # imported here: identity pulls in scipy.optimize, which no other page needs
        from papertopics.topics.identity import SIZE_TOLERANCE
    except ImportError:  # pragma: no cover - the pipeline always ships it
        return 0.2
    return float(SIZE_TOLERANCE)


def status_meanings() -> dict[str, str]:
    tolerance = f"{100 * _tolerance():.0f} %"
    return {
        "new": "a topic the previous run did not have",
        "grown": f"its share of the corpus rose by more than {tolerance} (relative)",
        "shrunk": f"its share of the corpus fell by more than {tolerance} (relative)",
        "unchanged": f"its share of the corpus moved by {tolerance} or less (relative); the table "
        "says how many papers left or joined it ('unchanged' only when none did)",
        "merged": "absorbed a previous topic, or was absorbed into another",
        "split": "a previous topic whose documents now form more than one topic",
        "vanished": "a previous topic with no documents now",
    }


def is_first_run(changes: pd.DataFrame) -> bool:
    """Nothing to compare with: no previous documents, every topic new."""
    return bool(len(changes)) and int(changes["prev_size"].sum()) == 0 and set(changes["status"]) <= {"new"}


def ordered(changes: pd.DataFrame) -> pd.DataFrame:
    """Topics by stable id, the outliers last."""
    key = changes["topic"].map(lambda topic: (1, 0) if topic < 0 else (0, topic))
    return changes.iloc[sorted(range(len(changes)), key=lambda row: key.iloc[row])].reset_index(drop=True)


def _ids(cell: str) -> list[int]:
    out = []
    for part in str(cell).split(";"):
        try:
            value = float(part.strip())
        except ValueError:
            continue
        if value.is_integer():
            out.append(int(value))
    return out


def share_change(prev_share: float, new_share: float) -> str:
    """The change of a topic's corpus share in percentage points: "+3.2 pp", "−1.0 pp", "0 pp"."""
    points = 100 * (float(new_share) - float(prev_share))
    text = f"{abs(points):.1f}"
    if text == "0.0":
        return "0 pp"
    return ("+" if points > 0 else "\u2212") + text + " pp"


def summary_line(changes: pd.DataFrame) -> str:
    if changes is None or not len(changes):
        return "No topics to compare."
    if is_first_run(changes):
        return FIRST_RUN + "."
    n_prev, n_new = int(changes["prev_size"].sum()), int(changes["new_size"].sum())
    topics_prev = int(((changes["prev_size"] > 0) & (changes["topic"] >= 0)).sum())
    topics_new = int(((changes["new_size"] > 0) & (changes["topic"] >= 0)).sum())
    topics = changes.loc[changes["topic"] >= 0]
    same = ""
    if len(topics) and set(topics["status"]) == {"unchanged"}:
        moved = [row for row in topics.itertuples(index=False) if _moved(row)]
        same = (
            " Every topic is unchanged."
            if not moved
            else f" Every topic kept its share; {len(moved)} of them swapped papers (see the table)."
        )
    return (
        f"Compared with the previous run in this results folder: {topics_prev} topics in {n_prev:,} "
        f"documents then, {topics_new} topics in {n_new:,} documents now.{same} Topic ids are stable, so "
        "the same id is the same topic in both runs. Shares are of each run's own corpus, so a topic "
        "that grew only as much as the corpus keeps its share (its papers that left or joined are counted)."
    )


def _count(value) -> int | None:
    """A left/joined cell as a count (None for a table written before these columns)."""
    try:
        number = float(value)
    except (TypeError, ValueError):
        return None
    return int(number) if number == number else None


def _moved(row) -> tuple[int, int] | None:
    """(left, joined) when papers left or joined the topic, else None (also for older tables)."""
    left, joined = _count(getattr(row, "left", None)), _count(getattr(row, "joined", None))
    if not left and not joined:
        return None
    return (left or 0, joined or 0)


def status_text(status: str, moved: tuple[int, int] | None) -> str:
    """The status as the table shows it: 'unchanged' only when no paper left or joined; a topic
    that kept its share while papers moved says 'same share' (the counts are beside it)."""
    if status == "unchanged" and moved:
        return "same share"
    return status or "(none)"


def moved_text(moved: tuple[int, int] | None) -> str:
    """'4 left, 3 joined' (or '' when nothing moved)."""
    if not moved:
        return ""
    left, joined = moved
    return f"{left} left, {joined} joined"


def status_tiles(changes: pd.DataFrame) -> list[dict]:
    """One tile per status, every status always (zeros muted), in STATUSES order, then any
    status the report does not know. The outliers are not a topic and are not counted."""
    counts = changes.loc[changes["topic"] >= 0, "status"].value_counts()
    meanings = status_meanings()
    names = [*STATUSES, *sorted(status for status in counts.index if status not in STATUSES)]
    return [
        {
            "status": status,
            "css": status_class(status),
            "count": int(counts.get(status, 0)),
            "value": f"{int(counts.get(status, 0)):,}",
            "label": "same share" if status == "unchanged" else status or "(none)",
            "detail": meanings.get(status),
        }
        for status in names
    ]


def status_class(status: str) -> str:
    """A CSS class from a fixed set: a status the report does not know gets `status-other`."""
    return f"status-{status}" if status in STATUSES else "status-other"


def change_rows(changes: pd.DataFrame, topics: pd.DataFrame) -> list[dict]:
    """The table's rows: label (linked when the topic exists now), status, sizes, share change."""
    current = dict(zip(topics["topic"].astype(int), topics["label"]))
    sizes = dict(zip(topics["topic"].astype(int), topics["size"].astype(int)))
    listed = set(changes["topic"])
    rows = []
    for row in ordered(changes).itertuples(index=False):
        topic = int(row.topic)
        change = share_change(row.prev_share, row.new_share)
        exists = sizes.get(topic, 0) > 0  # a topic of this run: it has a place on the document map
        if topic < 0:
            label = OUTLIER_LABEL
        else:
            label = (current.get(topic) if exists else "") or row.label or f"Topic {topic}"
        rows.append(
            {
                "topic": topic,
                "number": "\u2013" if topic < 0 else topic,
                "anchor": "outliers" if topic < 0 else str(topic),
                "label": label,
                "exists": exists,
                "is_outliers": topic < 0,
                "color": topic_color(topic),
                "status": row.status or "(none)",
                "status_text": status_text(row.status, _moved(row)),
                "moved": moved_text(_moved(row)),
                "css": status_class(row.status),
                "prev_size": int(row.prev_size),
                "new_size": int(row.new_size),
                "prev_percent": percent(row.prev_share),
                "new_percent": percent(row.new_share),
                "change": change,
                "change_sign": 0 if change == "0 pp" else 1 if row.new_share > row.prev_share else -1,
                "from_topics": [
                    {"id": t, "anchor": "outliers" if t < 0 else str(t), "listed": t in listed}
                    for t in _ids(row.from_topics)
                    if t != topic
                ],
                "to_topics": [
                    {"id": t, "anchor": "outliers" if t < 0 else str(t), "listed": t in listed}
                    for t in _ids(row.to_topics)
                    if t != topic
                ],
            }
        )
    return rows


def listing_share_rows(
    documents: pd.DataFrame, topics: pd.DataFrame, listings: list[str], changes: pd.DataFrame | None
) -> list[dict]:
    """Each listing's share of its documents in every current topic (a column sums to 100 %)."""
    order = [int(t) for t in topics["topic"] if t >= 0] + [int(t) for t in topics["topic"] if t < 0]
    counts = listing_counts(documents, listings, order)
    totals = listing_totals(documents, listings)
    labels = dict(zip(topics["topic"].astype(int), topics["label"]))
    status = dict(zip(changes["topic"], changes["status"])) if changes is not None else {}
    rows = []
    for topic in order:
        cells = []
        for name in listings:
            count, total = int(counts.loc[topic, name]), int(totals[name])
            share = count / total if total else 0.0
            cells.append(
                {
                    "count": count,
                    "percent": percent(share),
                    "alpha": round(0.06 + 0.4 * share, 3) if count else 0.0,
                }
            )
        rows.append(
            {
                "topic": topic,
                "number": "\u2013" if topic < 0 else topic,
                "label": labels[topic],
                "color": topic_color(topic),
                "is_outliers": topic < 0,
                "status": status.get(topic),
                "css": status_class(status.get(topic, "")),
                "cells": cells,
            }
        )
    return rows
