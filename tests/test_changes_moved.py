"""'What changed' never says `unchanged` of a topic whose papers moved (issue 45, case 6)."""

import re

import pandas as pd

from papertopics.report.changes import change_rows, status_tiles, summary_line
from papertopics.report.inputs import normalise_changes
from papertopics.topics.identity import TopicSnapshot, match_topics, topic_changes


def _snap(groups: dict[int, list[int]]) -> TopicSnapshot:
    rows = [(f"d{i}", topic) for topic, members in groups.items() for i in members]
    return TopicSnapshot.from_documents(pd.DataFrame(rows, columns=["doc_id", "topic"]))


# Topic 0: 4 of its 7 papers went to topic 1 and 3 of topic 1's came to it; both shares stay
# within the tolerance (-14 %, +5 %), so by share alone both would read "unchanged".
PREV = {0: list(range(0, 7)), 1: list(range(7, 27))}
NEW = {0: [0, 1, 2, 7, 8, 9], 1: [3, 4, 5, 6, *range(10, 27)]}


def test_a_topic_whose_papers_moved_says_what_moved():
    prev, new = _snap(PREV), _snap(NEW)
    changes = topic_changes(prev, new, match_topics(prev, new))
    rows = changes.set_index("topic")
    assert list(rows["status"]) == ["unchanged", "unchanged"]  # the share rule, as documented
    assert (rows.loc[0, "left"], rows.loc[0, "joined"]) == (4, 3)
    assert (rows.loc[1, "left"], rows.loc[1, "joined"]) == (3, 4)
    # the page: "same share (4 left, 3 joined)", never "unchanged"
    topics = pd.DataFrame({"topic": [0, 1], "label": ["zero", "one"], "size": [6, 21]})
    shown = {row["topic"]: row for row in change_rows(normalise_changes(changes.astype(str)), topics)}
    assert shown[0]["status_text"] == "same share" and shown[0]["moved"] == "4 left, 3 joined"
    assert shown[1]["status_text"] == "same share" and shown[1]["moved"] == "3 left, 4 joined"
    line = summary_line(normalise_changes(changes))
    assert "Every topic is unchanged" not in line and "2 of them swapped papers" in line
    (tile,) = [t for t in status_tiles(changes) if t["status"] == "unchanged"]
    assert tile["label"] == "same share" and tile["count"] == 2


def test_unchanged_only_when_no_paper_moved_and_older_tables_still_read():
    prev = _snap(PREV)
    changes = topic_changes(prev, prev, match_topics(prev, prev))
    assert list(changes["left"]) == [0, 0] and list(changes["joined"]) == [0, 0]
    topics = pd.DataFrame({"topic": [0, 1], "label": ["zero", "one"], "size": [7, 20]})
    shown = change_rows(normalise_changes(changes), topics)
    assert [row["status_text"] for row in shown] == ["unchanged", "unchanged"]
    assert [row["moved"] for row in shown] == ["", ""]
    assert re.search(r"Every topic is unchanged\.", summary_line(changes))
    older = changes.drop(columns=["left", "joined"])  # changes.csv written before the counts
    assert [row["status_text"] for row in change_rows(normalise_changes(older), topics)] == [
        "unchanged",
        "unchanged",
    ]
