"""Topic ids survive reruns; changes.csv says what split, merged, appeared or vanished."""

import pandas as pd
import pytest

from papertopics.topics.identity import TopicSnapshot, apply_mapping, match_topics, topic_changes


def _docs(groups: dict[int, range]) -> pd.DataFrame:
    """Documents d0, d1, ... in the given topics: {topic: range of document numbers}."""
    rows = [(f"d{i}", t) for t, idx in groups.items() for i in idx]
    return pd.DataFrame(rows, columns=["doc_id", "topic"])


def _snap(groups, labels=None, centroids=None):
    snap = TopicSnapshot.from_documents(_docs(groups), labels=labels)
    if centroids is not None:
        topics = snap.topics.copy()
        topics["centroid"] = [centroids.get(t, [0.0, 0.0, 1.0]) for t in topics["topic"]]
        snap = TopicSnapshot(topics, snap.documents)
    return snap


def _by_topic(changes: pd.DataFrame) -> dict:
    return {row.topic: row for row in changes.itertuples()}


PREV_GROUPS = {0: range(0, 100), 1: range(100, 160), 2: range(160, 200), -1: range(200, 220)}
PREV_LABELS = {0: "diffusion models", 1: "graph networks", 2: "speech", -1: "outliers"}


def test_renumbered_rerun_keeps_ids_and_labels():
    prev = _snap(PREV_GROUPS, PREV_LABELS)
    new = _snap(
        {5: range(0, 100), 3: range(100, 160), 4: range(160, 200), -1: range(200, 220)},
        {5: "diffusion image", 3: "graph", 4: "audio"},
    )
    mapping = match_topics(prev, new)
    assert mapping == {-1: -1, 5: 0, 3: 1, 4: 2}
    renamed = apply_mapping(new, mapping, prev)
    assert dict(zip(renamed.topics["topic"], renamed.topics["label"])) == PREV_LABELS
    assert renamed.documents.set_index("doc_id")["topic"].equals(prev.documents.set_index("doc_id")["topic"])
    changes = topic_changes(prev, new, mapping)
    assert set(changes["status"]) == {"unchanged"}
    assert _by_topic(changes)[0].label == "diffusion models"


def test_split_keeps_the_id_for_the_larger_part_and_gives_the_other_a_fresh_one():
    prev = _snap(PREV_GROUPS, PREV_LABELS)
    new = _snap(
        {0: range(0, 60), 1: range(60, 100), 2: range(100, 160), 3: range(160, 200), -1: range(200, 220)}
    )
    mapping = match_topics(prev, new)
    assert mapping[0] == 0 and mapping[2] == 1 and mapping[3] == 2
    assert mapping[1] == 3  # fresh: above every previous id, not a reused one
    rows = _by_topic(topic_changes(prev, new, mapping))
    assert rows[0].status == "split" and rows[0].to_topics == "0;3"
    assert rows[3].status == "split" and rows[3].from_topics == "0"
    assert (rows[3].prev_size, rows[3].new_size) == (0, 40)
    assert rows[1].status == "unchanged"


def test_merge_keeps_the_larger_id_and_reports_what_it_absorbed():
    prev = _snap(PREV_GROUPS, PREV_LABELS)
    new = _snap({7: range(0, 100), 8: range(100, 200), -1: range(200, 220)})
    mapping = match_topics(prev, new)
    assert mapping == {-1: -1, 7: 0, 8: 1}
    rows = _by_topic(topic_changes(prev, new, mapping))
    assert rows[1].status == "merged" and rows[1].from_topics == "1;2"
    assert rows[2].status == "merged" and rows[2].to_topics == "1" and rows[2].new_size == 0
    assert rows[2].label == "speech"
    assert rows[0].status == "unchanged"


def test_new_documents_forming_a_new_topic_and_a_vanished_topic():
    prev = _snap(PREV_GROUPS, PREV_LABELS)
    # Topic 2's documents become outliers; 50 unseen documents form their own topic.
    new = _snap(
        {0: range(0, 100), 1: range(100, 160), 2: range(300, 350), -1: range(160, 220)}, {2: "quantum"}
    )
    mapping = match_topics(prev, new)
    assert mapping[0] == 0 and mapping[1] == 1
    assert mapping[2] == 3
    rows = _by_topic(topic_changes(prev, new, mapping))
    assert rows[3].status == "new" and rows[3].label == "quantum"
    assert rows[2].status == "vanished" and rows[2].new_size == 0
    assert rows[-1].status == "grown" and rows[-1].label == "outliers"


def test_outliers_are_never_remapped_and_fresh_ids_respect_the_floor():
    prev = _snap({-1: range(0, 50), 0: range(50, 100)})
    new = _snap({0: range(0, 50), -1: range(50, 100)})  # former outliers now a topic, and back
    mapping = match_topics(prev, new, id_floor=41)
    assert mapping[-1] == -1
    assert mapping[0] == 42


def test_centroids_carry_identity_when_no_document_is_shared():
    prev = _snap({0: range(0, 50), 1: range(50, 100)}, centroids={0: [1.0, 0.0, 0.0], 1: [0.0, 1.0, 0.0]})
    new = _snap(
        {0: range(500, 540), 1: range(540, 600), 2: range(600, 630)},
        centroids={0: [0.0, 0.99, 0.1], 1: [0.98, 0.05, 0.0], 2: [0.0, 0.0, 1.0]},
    )
    mapping = match_topics(prev, new)
    assert mapping == {-1: -1, 0: 1, 1: 0, 2: 2}


def test_membership_beats_centroids_when_documents_are_shared():
    prev = _snap({0: range(0, 50), 1: range(50, 100)}, centroids={0: [1.0, 0.0, 0.0], 1: [0.0, 1.0, 0.0]})
    # Same members, but centroids (e.g. from another embedding model) point the other way.
    new = _snap({0: range(0, 50), 1: range(50, 100)}, centroids={0: [0.0, 1.0, 0.0], 1: [1.0, 0.0, 0.0]})
    assert match_topics(prev, new) == {-1: -1, 0: 0, 1: 1}


def test_two_new_topics_never_claim_the_same_id():
    prev = _snap({0: range(0, 100)})
    new = _snap({0: range(0, 50), 1: range(50, 100)})
    mapping = match_topics(prev, new)
    assert sorted(mapping[t] for t in (0, 1)) == [0, 1]


def test_growth_is_judged_by_corpus_share_not_raw_counts():
    prev = _snap({0: range(0, 50), 1: range(50, 100)})
    # Corpus triples; topic 0 doubles, topic 1 gains 150 unseen documents.
    new = _snap(
        {0: list(range(0, 50)) + list(range(200, 250)), 1: list(range(50, 100)) + list(range(300, 450))}
    )
    rows = _by_topic(topic_changes(prev, new, match_topics(prev, new)))
    assert rows[0].status == "shrunk"  # 50 % -> 33 % of the corpus, though 50 -> 100 documents
    assert rows[1].status == "grown"  # 50 % -> 67 %
    even = _snap(
        {0: list(range(0, 50)) + list(range(200, 250)), 1: list(range(50, 100)) + list(range(300, 350))}
    )
    assert set(topic_changes(prev, even, match_topics(prev, even))["status"]) == {"unchanged"}


def test_snapshot_rejects_duplicate_documents():
    docs = pd.DataFrame({"doc_id": ["a", "a"], "topic": [0, 1]})
    with pytest.raises(ValueError, match="twice"):
        TopicSnapshot.from_documents(docs)


def test_top_terms_stand_in_for_missing_centroids():
    prev = _snap({0: range(0, 50), 1: range(50, 100)})
    new = _snap({0: range(500, 540), 1: range(540, 600)})
    prev = TopicSnapshot(
        prev.topics.assign(top_terms=[["graph", "node", "edge"], ["speech", "audio", "asr"]]), prev.documents
    )
    new = TopicSnapshot(
        new.topics.assign(top_terms=[["speech", "audio", "tts"], ["robot", "arm", "grasp"]]), new.documents
    )
    assert match_topics(prev, new) == {-1: -1, 0: 1, 1: 2}
