"""The reader's curation from config.yaml (topics.names, topics.merge, topics.pinned): what a
reader sees after editing the config and rerunning."""

from __future__ import annotations

import shutil

import numpy as np
import pandas as pd
import pytest
from conftest import run_snakemake

from papertopics.config import check_config, default_config
from papertopics.errors import ConfigError
from papertopics.topics.curate import BY_CONFIG, BY_PAPERTOPICS, NAMED_BY, apply_names


def fitted_tables() -> dict[str, pd.DataFrame]:
    """Three topics and the outliers, as fit_topics writes them (text cells)."""
    topics = pd.DataFrame(
        {
            "topic": ["-1", "0", "1", "2"],
            "model_topic": ["-1", "0", "1", "2"],
            "label": ["Outliers", "labels & out-of-distribution (OOD)", "images & videos", "graphs"],
            "size": ["1", "2", "2", "1"],
        }
    )
    documents = pd.DataFrame(
        {
            "doc_id": list("abcdef"),
            "topic": ["0", "0", "1", "1", "2", "-1"],
            "topic_label": ["labels & out-of-distribution (OOD)"] * 2
            + ["images & videos"] * 2
            + ["graphs", "Outliers"],
        }
    )
    hierarchy = pd.DataFrame(
        {
            "node": ["0", "1", "2", "3"],
            "parent": ["3", "3", "", ""],
            "level": ["0", "0", "0", "1"],
            "topics": ["0", "1", "2", "0;1"],
            "size": ["2", "2", "1", "4"],
            "label": ["labels & out-of-distribution (OOD)", "images & videos", "graphs", "learning"],
        }
    )
    changes = pd.DataFrame(
        {
            "topic": ["0", "1", "2", "5"],
            "status": ["unchanged"] * 3 + ["vanished"],
            "label": ["x", "y", "z", "old"],
        }
    )
    return {
        "topics.csv": topics,
        "document_topics.csv": documents,
        "hierarchy.csv": hierarchy,
        "changes.csv": changes,
    }


def test_a_name_reaches_every_table_and_is_marked_as_the_readers():
    name = "semi-supervised learning and OOD detection"
    curated, missing = apply_names(fitted_tables(), {0: name, 17: "gone"})
    topics = curated["topics.csv"].set_index("topic")
    assert topics.loc["0", "label"] == name
    assert topics.loc["1", "label"] == "images & videos"  # untouched
    assert topics.loc["0", NAMED_BY] == BY_CONFIG
    assert topics.loc["1", NAMED_BY] == BY_PAPERTOPICS
    docs = curated["document_topics.csv"]
    assert (docs.loc[docs["topic"] == "0", "topic_label"] == name).all()
    assert (docs.loc[docs["topic"] == "1", "topic_label"] == "images & videos").all()
    hierarchy = curated["hierarchy.csv"].set_index("node")
    assert hierarchy.loc["0", "label"] == name
    assert hierarchy.loc["3", "label"] == "learning"  # a region is not topic 3
    assert curated["changes.csv"].set_index("topic").loc["0", "label"] == name
    assert missing == [17]


def test_names_of_topics_gone_are_reported_not_applied():
    curated, missing = apply_names(fitted_tables(), {5: "vanished one", -1: "not a topic"})
    assert missing == [-1, 5]
    assert curated["changes.csv"].set_index("topic").loc["5", "label"] == "old"
    assert (curated["topics.csv"][NAMED_BY] != BY_CONFIG).all()


@pytest.mark.parametrize(
    ("names", "says"),
    [
        ({"vision": "x"}, "topics.names: 'vision' is not a topic id"),
        ({-3: "x"}, "topics.names: -3 is not a topic id"),
        ({4: "  "}, "topics.names.4: the name is empty"),
    ],
)
def test_bad_names_are_one_line_naming_the_key(names, says):
    config = default_config(topics={"names": names})
    config["listings"] = ["a.txt"]
    with pytest.raises(ConfigError) as error:
        check_config(config, source="config.yaml")
    message = str(error.value)
    assert message.startswith("config.yaml: ") and says in message, message
    assert "\n" not in message


def test_names_keyed_by_text_or_number_are_valid():
    config = default_config(topics={"names": {3: "mine", "12": "also mine"}})
    config["listings"] = ["a.txt"]
    check_config(config)


def jobs_run(output: str) -> list[str]:
    return [
        line.split()[1].rstrip(":")
        for line in output.splitlines()
        if line.strip().startswith(("rule ", "localrule ")) and line.strip().endswith(":")
    ]


@pytest.mark.slow
def test_a_rename_reruns_only_the_report_and_stays_with_its_id(seed_run, tmp_path):
    folder = tmp_path / "renamed"
    shutil.copytree(seed_run, folder, symlinks=True)
    before = pd.read_csv(folder / "results/topics/topics.csv")
    topic = int(before.loc[before["topic"] >= 0, "topic"].iloc[0])
    config = folder / "config.yaml"
    config.write_text(
        config.read_text() + f'topics:\n  names:\n    {topic}: "my own name"\n    99: "a topic gone"\n'
    )
    result = run_snakemake(folder, "--cores", "2")
    jobs = jobs_run(result.stdout + result.stderr)
    assert "curate_topics" in jobs and "render_report" in jobs
    assert not {"fit_topics", "cluster_documents", "evaluate_topics"} & set(jobs), jobs
    warnings = [line for line in result.stderr.splitlines() if line.startswith("papertopics warning:")]
    assert len(warnings) == 1 and "config.yaml topics.names: 99" in warnings[0], result.stderr[-3000:]
    after = pd.read_csv(folder / "results/topics/topics.csv").set_index("topic")
    assert after.loc[topic, "label"] == "my own name"
    assert after.loc[topic, NAMED_BY] == BY_CONFIG
    documents = pd.read_csv(folder / "results/topics/document_topics.csv")
    assert set(documents.loc[documents["topic"] == topic, "topic_label"]) == {"my own name"}
    hierarchy = pd.read_csv(folder / "results/topics/hierarchy.csv")
    assert "my own name" in set(hierarchy.loc[hierarchy["level"] == 0, "label"])
    index = (folder / "results/report/index.html").read_text()
    assert "my own name" in index and "your name (config.yaml)" in index
    # issue 57 case 8: compared with the finished first run, not "the first run" again
    assert "This is the first run" not in (folder / "results/report/changes.html").read_text()
    assert (
        "my own name"
        in pd.read_excel(folder / "results/topics/topics.xlsx", sheet_name="topics")["name"].tolist()
    )

    # A rerun that refits (another seed for the stability refits leaves the topics) keeps the name on the id.
    config.write_text(config.read_text() + "representation:\n  label_terms: 4\n")
    result = run_snakemake(folder, "--cores", "2")
    assert "fit_topics" in jobs_run(result.stdout + result.stderr)
    again = pd.read_csv(folder / "results/topics/topics.csv").set_index("topic")
    assert again.loc[topic, "label"] == "my own name"


def previous_run(topics_of: dict[str, int], merged: dict | None = None):
    """A last run's snapshot (TopicSnapshot, meta) with these documents' topics."""
    from papertopics.topics.identity import TopicSnapshot

    docs = pd.DataFrame({"doc_id": list(topics_of), "topic": list(topics_of.values())})
    snapshot = TopicSnapshot.from_documents(docs, {t: f"topic {t}" for t in set(topics_of.values())})
    return snapshot, {"max_id": max(topics_of.values()), "merged": merged or {}}


def test_a_merge_joins_the_lists_clusters_and_keeps_the_first_id():
    from papertopics.topics.identity import TopicSnapshot, match_topics
    from papertopics.topics.merge import merge_clusters

    # last run: topic 4 = a b c, topic 7 = d e, topic 9 = f g h; this run's clusters number them otherwise
    previous = previous_run(dict(zip("abcdefghi", [4, 4, 4, 7, 7, 9, 9, 9, -1])))
    clusters = np.array([2, 2, 2, 0, 0, 1, 1, 1, -1])
    joined, against, record, warnings = merge_clusters(list("abcdefghi"), clusters, previous, [[7, 4]])
    assert warnings == []
    assert record == {7: [4]}
    assert len(set(joined[:5])) == 1 and joined[0] != joined[5]  # a..e one cluster, f g h another
    assert joined[8] == -1
    new = TopicSnapshot.from_documents(pd.DataFrame({"doc_id": list("abcdefghi"), "topic": joined}))
    mapping = match_topics(against[0], new, id_floor=against[1]["max_id"])
    assert mapping[int(joined[0])] == 7 and mapping[int(joined[5])] == 9


def test_a_merge_holds_when_the_clustering_moves_and_names_ids_that_are_gone():
    from papertopics.topics.merge import merge_clusters

    # the last run had merged 4 into 7 (a..e) ; this run splits a..e otherwise and adds a new document x
    previous = previous_run(dict(zip("abcdefghi", [7, 7, 7, 7, 7, 9, 9, 9, -1])), merged={"7": [4]})
    clusters = np.array([0, 0, 1, 1, 1, 2, 2, 2, -1, 1])
    joined, _, record, warnings = merge_clusters(list("abcdefghix"), clusters, previous, [[7, 4], [9, 12]])
    assert len(set(joined[:5])) == 1 and joined[9] == joined[0]
    assert record[7] == [4]
    assert len(warnings) == 1 and "topics.merge[1]" in warnings[0] and "no topic 12" in warnings[0]
    assert 9 not in record  # 12 was never merged into 9: a later run still names it


@pytest.mark.slow
def test_a_merge_refits_no_embedding_and_holds_across_a_reclustering(seed_run, tmp_path):
    folder = tmp_path / "merged"
    shutil.copytree(seed_run, folder, symlinks=True)
    before = pd.read_csv(folder / "results/topics/topics.csv")
    real = before[before["topic"] >= 0].sort_values("size")
    first, second = int(real["topic"].iloc[-1]), int(real["topic"].iloc[0])
    config = folder / "config.yaml"
    base = config.read_text()
    config.write_text(base + f"topics:\n  merge:\n    - [{first}, {second}]\n")
    result = run_snakemake(folder, "--cores", "2")
    jobs = jobs_run(result.stdout + result.stderr)
    assert "fit_topics" in jobs
    assert not {"embed_shard", "reduce_embeddings", "cluster_documents"} & set(jobs), jobs
    assert "topics.merge" not in result.stderr
    after = pd.read_csv(folder / "results/topics/topics.csv").set_index("topic")
    assert first in after.index and second not in after.index
    assert len(after) == len(before) - 1
    sizes = before.set_index("topic")["size"]
    assert after.loc[first, "size"] == sizes[first] + sizes[second]
    changes = pd.read_csv(folder / "results/topics/changes.csv", dtype={"to_topics": str}).set_index("topic")
    assert changes.loc[second, "status"] == "merged" and changes.loc[second, "to_topics"] == str(first)

    # another clustering (one topic more): the merge still holds on the first id
    config.write_text(
        base + f"topics:\n  merge:\n    - [{first}, {second}]\nagglomerative:\n  n_topics: {len(real) + 1}\n"
    )
    result = run_snakemake(folder, "--cores", "2")
    assert "cluster_documents" in jobs_run(result.stdout + result.stderr)
    assert "topics.merge" not in result.stderr, result.stderr[-2000:]
    again = pd.read_csv(folder / "results/topics/topics.csv").set_index("topic")
    assert first in again.index and second not in again.index


BIBTEX = """@article{mine1,
  title = {Tool-using language model agents that plan},
  abstract = {We study agents built on large language models that call tools and plan multi-step tasks.},
  author = {Doe, Jane},
  year = {2025}
}
"""


@pytest.mark.slow
def test_pinned_topics_gather_their_papers_keep_their_ids_and_read_as_a_list(seed_run, tmp_path):
    folder = tmp_path / "pinned"
    shutil.copytree(seed_run, folder, symlinks=True)
    (folder / "mine.bib").write_text(BIBTEX, encoding="utf-8")
    config = folder / "config.yaml"
    base = config.read_text()
    pinned = (
        "topics:\n  pinned:\n    - diffusion models\n"
        "    - {name: language model agents, description: LLMs that act, examples: mine.bib}\n"
    )
    config.write_text(base + pinned + "  pinned_min_similarity: 0\n")
    result = run_snakemake(folder, "--cores", "2")
    jobs = jobs_run(result.stdout + result.stderr)
    assert {"pin_topics", "cluster_documents", "fit_topics", "curate_topics"} <= set(jobs), jobs
    assert not {"embed_shard", "reduce_embeddings"} & set(jobs), jobs
    topics = pd.read_csv(folder / "results/topics/topics.csv", keep_default_na=False)
    real = topics[topics["topic"] >= 0]
    # min_similarity 0: every paper is in its nearest pinned topic, nothing is left to cluster
    assert sorted(real["label"]) == ["diffusion models", "language model agents"]
    assert (real[NAMED_BY] == BY_CONFIG).all() and (real["pinned"] == real["label"]).all()
    reading = pd.read_csv(folder / "results/topics/pinned.csv", keep_default_na=False)
    assert len(reading) == real["size"].sum() == 37
    assert list(reading["name"].drop_duplicates()) == [
        "diffusion models",
        "language model agents",
    ]  # config order
    for _, papers in reading.groupby("topic"):
        assert papers["similarity"].is_monotonic_decreasing and list(papers["rank"]) == list(
            range(1, len(papers) + 1)
        )
    page = (folder / "results/report/pinned.html").read_text()
    assert "language model agents" in page and f"documents.html#doc={reading['doc_id'].iloc[0]}" in page
    assert "pinned: its reading list" in (folder / "results/report/index.html").read_text()
    sheet = pd.read_excel(folder / "results/topics/topics.xlsx", sheet_name="pinned")
    assert len(sheet) == 37 and set(sheet["name"]) == {"diffusion models", "language model agents"}
    ids = dict(zip(real["label"], real["topic"]))

    # auto: only the papers that stand out join; the rest are clustered; the pinned ids stay
    config.write_text(base + pinned + "  pinned_min_similarity: auto\n")
    result = run_snakemake(folder, "--cores", "2")
    topics = pd.read_csv(folder / "results/topics/topics.csv", keep_default_na=False)
    real = topics[topics["topic"] >= 0]
    kept = real[real["pinned"] != ""]
    assert dict(zip(kept["label"], kept["topic"])) == ids
    assert len(real) > 2 and kept["size"].sum() < 37

    # an example listing that does not read: one line naming the key, nothing half-written
    (folder / "mine.bib").write_text("@article{broken,\n  title = {no closing brace\n", encoding="utf-8")
    failed = run_snakemake(folder, "--cores", "2", check=False)
    assert failed.returncode != 0
    errors = [line for line in failed.stderr.splitlines() if line.startswith("papertopics error:")]
    assert errors and "topics.pinned[1].examples" in errors[-1], failed.stderr[-3000:]


def test_pinned_min_similarity_zero_a_number_and_auto():
    from papertopics.cluster.pinned import NOT_PINNED, assign_pinned, centred

    rng = np.random.default_rng(0)
    pinned = np.eye(3, 8, dtype=np.float32)[:2]  # two pinned topics: axes 0 and 1
    docs = rng.normal(size=(200, 8)).astype(np.float32)
    docs[:10, 0] += 12  # ten papers clearly about the first
    docs /= np.linalg.norm(docs, axis=1, keepdims=True)
    everyone, best, _ = assign_pinned(docs, pinned, 0)
    assert (everyone != NOT_PINNED).all() and set(everyone) == {0, 1}
    # cosine seen from the corpus' average paper
    assert np.allclose(best, (centred(docs) @ pinned.T).max(axis=1), atol=1e-6)
    some, _, thresholds = assign_pinned(docs, pinned, 0.5)
    assert ((some != NOT_PINNED) == (best >= 0.5)).all() and list(thresholds) == [0.5, 0.5]
    auto, _, thresholds = assign_pinned(docs, pinned, "auto")
    assert set(np.flatnonzero(auto == 0)) >= set(range(10))  # the papers that stand out join
    assert (auto != NOT_PINNED).sum() < 40  # the rest is left to the clustering


def test_example_papers_pull_a_pinned_topic_towards_them():
    from papertopics.cluster.pinned import PinnedTopic, topic_vector

    name = np.array([1.0, 0.0, 0.0])
    examples = np.array([[0.0, 1.0, 0.0], [0.0, 0.8, 0.6]])
    vector = topic_vector(name, examples)
    assert np.isclose(np.linalg.norm(vector), 1.0)
    assert vector[0] > 0.5 and vector[1] > 0.5  # halfway: the name and the examples weigh alike
    assert PinnedTopic("graph neural networks", "message passing").text == (
        "a paper about graph neural networks. message passing"
    )


def test_run_help_and_the_commented_config_show_the_three_keys():
    import subprocess
    import sys

    from conftest import REPO

    shown = subprocess.run(
        [sys.executable, "-m", "papertopics", "run", "--help"], capture_output=True, text=True, check=True
    ).stdout
    for key in ("names:", "merge:", "pinned:", "pinned_min_similarity:"):
        assert key in shown
    config = (REPO / "config.yaml").read_text()
    import yaml

    topics = yaml.safe_load(config)["topics"]
    assert topics["names"] == {} and topics["merge"] == [] and topics["pinned"] == []
    assert topics["pinned_min_similarity"] == "auto"


def test_what_every_paper_shares_does_not_draw_them_all_to_one_pinned_topic():
    from papertopics.cluster.pinned import assign_pinned

    rng = np.random.default_rng(1)
    common = np.eye(6)[0]  # the field every paper of the corpus is in
    a, b = np.eye(6)[1], np.eye(6)[2]
    docs = np.vstack([3 * common + a + 0.1 * rng.normal(size=6) for _ in range(20)])
    docs = np.vstack([docs, [3 * common + b + 0.1 * rng.normal(size=6) for _ in range(20)]])
    docs /= np.linalg.norm(docs, axis=1, keepdims=True)
    broad = (common + a) / np.sqrt(2)  # a name close to the field itself
    pinned = np.vstack([broad, b]).astype(np.float32)
    plain = (docs @ pinned.T).argmax(axis=1)
    assert (plain == 0).all()  # plain cosine: the broad name takes every paper
    assigned, _, _ = assign_pinned(docs.astype(np.float32), pinned, 0)
    assert (assigned[:20] == 0).all() and (assigned[20:] == 1).all()


def test_pinned_topics_are_marked_on_the_map_and_listed_nearest_first_on_their_page():
    from report_sample import sample_inputs

    from papertopics.report.documents import document_payload
    from papertopics.report.pinned import PIN, pinned_page

    inputs = sample_inputs(40, n_topics=3)
    topic = int(inputs.topics.loc[inputs.topics["topic"] >= 0, "topic"].iloc[0])
    inputs.topics["pinned"] = ["my interest" if t == topic else "" for t in inputs.topics["topic"]]
    members = inputs.documents["topic"] == topic
    inputs.documents["confidence"] = 0.0
    inputs.documents.loc[members, "confidence"] = np.linspace(0.2, 0.9, int(members.sum()))
    payload = document_payload(inputs.documents, inputs.map2d, inputs.topics, inputs.listings)
    labels = {entry["topic"]: entry["label"] for entry in payload["topics"]}
    assert labels[topic].startswith(PIN) and not any(
        v.startswith(PIN) for t, v in labels.items() if t != topic
    )
    page = pinned_page(inputs)
    nearest = inputs.documents[members].sort_values("confidence", ascending=False)["doc_id"].tolist()
    positions = [page.index(f"documents.html#doc={doc_id}") for doc_id in nearest]
    assert positions == sorted(positions)  # nearest first
    assert f"documents.html#topic={topic}" in page


def test_renaming_a_topic_that_is_a_region_of_its_own_renames_the_region():
    """Issue 51 row 6: topic 2 is a one-topic region (node 2 is its own region); its rename left
    topics.csv's region_label, which the zoomed-out map shows, at the old name."""
    tables = fitted_tables()
    tables["topics.csv"]["region"] = ["-1", "3", "3", "2"]
    tables["topics.csv"]["region_label"] = ["", "learning", "learning", "graphs"]
    curated, _ = apply_names(tables, {2: "graph neural networks", 0: "OOD"})
    topics = curated["topics.csv"].set_index("topic")
    assert topics.loc["2", "region_label"] == "graph neural networks"
    assert topics.loc["0", "region_label"] == "learning"  # a region of two topics keeps its own name
    assert curated["hierarchy.csv"].set_index("node").loc["2", "label"] == "graph neural networks"


def test_names_given_before_any_finished_run_wait_with_one_line(tmp_path):
    """Issue 51 row 2: names in a folder with no finished run (new folder, or results removed)
    landed on whatever topics got those ids, silently. They wait, and one line says so."""
    from papertopics.topics.curate import curate_tables

    for name, table in fitted_tables().items():
        table.to_csv(tmp_path / name, index=False)
    curated, warnings = curate_tables(tmp_path, {0: "my pruning", 2: "my molecules"}, finished_run=False)
    topics = curated["topics.csv"].set_index("topic")
    assert topics.loc["0", "label"] == "labels & out-of-distribution (OOD)"  # not renamed blindly
    assert topics.loc["2", "label"] == "graphs"
    assert len(warnings) == 1 and warnings[0].startswith(
        "config.yaml topics.names (0, 2): no finished run in this folder to take topic ids from"
    )
    curated, warnings = curate_tables(tmp_path, {0: "my pruning"}, finished_run=True)
    assert curated["topics.csv"].set_index("topic").loc["0", "label"] == "my pruning" and not warnings


def test_what_changed_after_a_rename_only_rerun_is_every_topic_unchanged_not_first_run(tmp_path):
    """Issue 57 case 8: a rename reruns curate_topics and the report, not fit_topics, whose
    changes.csv (every topic new: the first run had no history) stayed; "What changed" said
    "This is the first run in this results folder". The history now holds this fit's snapshot
    (the first run finished), so the rename run compares with it: every topic unchanged."""
    import logging
    from types import SimpleNamespace

    from papertopics.report.changes import FIRST_RUN, summary_line
    from papertopics.topics.curate import curate_topics_job
    from papertopics.topics.history import save_snapshot
    from papertopics.topics.identity import TopicSnapshot, topic_changes
    from papertopics.topics.snapshot_store import advance_history

    fit = tmp_path / "results/topics/fit"
    fit.mkdir(parents=True)
    tables = fitted_tables()
    docs = tables["document_topics.csv"].assign(topic=lambda t: t["topic"].astype(int))
    snapshot = TopicSnapshot.from_documents(docs, {0: "labels", 1: "images & videos", 2: "graphs"})
    first = topic_changes(TopicSnapshot.from_documents(docs.iloc[:0]), snapshot, {0: 0, 1: 1, 2: 2, -1: -1})
    tables["changes.csv"] = first  # what fit_topics wrote on the first run
    assert summary_line(first).startswith(FIRST_RUN)
    for name, table in tables.items():
        table.to_csv(fit / name, index=False)
    save_snapshot(tmp_path / "results/topics/snapshot", snapshot, {"max_id": 2, "label_config": ""})
    out = tmp_path / "results/topics"
    job = SimpleNamespace(
        input=SimpleNamespace(
            topics=str(fit / "topics.csv"),
            clusters=str(tmp_path / "none.parquet"),
            snapshot=str(tmp_path / "results/topics/snapshot"),
        ),
        params=SimpleNamespace(
            names={1: "my images"}, pinned=[], finished_run=True, history=str(out / "history")
        ),
        output=SimpleNamespace(
            topics=str(out / "topics.csv"),
            documents=str(out / "document_topics.csv"),
            changes=str(out / "changes.csv"),
            hierarchy=str(out / "hierarchy.csv"),
            pinned=str(out / "pinned.csv"),
        ),
    )
    curate_topics_job(job, logging.getLogger("test"))  # the first run, before its report: no history yet
    assert summary_line(pd.read_csv(out / "changes.csv")).startswith(FIRST_RUN)
    advance_history(tmp_path / "results/topics/snapshot", out / "history")  # the first run finished

    curate_topics_job(job, logging.getLogger("test"))  # the rename-only second run
    changes = pd.read_csv(out / "changes.csv").set_index("topic")
    line = summary_line(changes.reset_index())
    assert FIRST_RUN not in line and "Every topic is unchanged" in line, line
    assert changes.loc[[0, 1, 2], "status"].tolist() == ["unchanged"] * 3
    assert changes.loc[1, "label"] == "my images" and changes.loc[1, "prev_size"] == 2
