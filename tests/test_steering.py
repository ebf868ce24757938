"""Steering that is never silently wrong (issue 51): config.yaml values YAML or JSON schema would
read wrongly, names and pins tied to the run the reader saw, pins that change nothing else."""

from __future__ import annotations

from pathlib import Path

import pytest

from papertopics.config import check_config, default_config, read_config_file
from papertopics.errors import ConfigError


def _checked(tmp_path, text: str) -> None:
    path = tmp_path / "config.yaml"
    path.write_text("listings: [a.txt]\n" + text, encoding="utf-8")
    check_config(read_config_file(path), source=str(path), partial=True)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        # issue 51 row 9: .nan passed the schema's bounds and acted as 0
        ("topics:\n  pinned_min_similarity: .nan\n", "topics.pinned_min_similarity: .nan is not a number"),
        # row 10: YAML 1.1 read 012 as the octal 10 (renaming topic 10)
        (
            "topics:\n  names:\n    012: mine\n",
            "line 4, column 5: topics.names: 012 reads as the number 10 in YAML",
        ),
        # issue 57 case 11: hex, binary, underscores and base 60, named for what they are, with the key
        (
            "random_state: 0x1F\n",
            "line 2, column 15: random_state: 0x1F is hexadecimal (0x), the number 31 in YAML; write 31 "
            'for the number, or quote it ("0x1F") for text',
        ),
        ("random_state: 0b101\n", "random_state: 0b101 is binary (0b), the number 5 in YAML; write 5"),
        (
            "topics:\n  names:\n    5_0: mine\n",
            "line 4, column 5: topics.names: 5_0 reads as the number 50 in YAML (YAML drops the underscores)",
        ),
        ("hdbscan:\n  min_cluster_size: 1_0\n", "hdbscan.min_cluster_size: 1_0 reads as the number 10"),
        (
            "topics:\n  pinned_min_similarity: 0.2_5\n",
            "topics.pinned_min_similarity: 0.2_5 reads as the number 0.25",
        ),
        ("report:\n  title: 1:30\n", "report.title: 1:30 is base 60 (sexagesimal), the number 90 in YAML"),
        # row 10: 5: and "5": both given, one dropped silently
        ("topics:\n  names:\n    5: a\n    '5': b\n", "topics.names: topic 5 is named twice (5 and '5')"),
        (
            "topics:\n  names:\n    5: a\n    5: b\n",
            "line 5, column 5: topics.names: 5 is given twice in one mapping (also line 4)",
        ),
    ],
)
def test_values_yaml_or_the_schema_would_read_wrongly_are_one_line(tmp_path, text, says):
    with pytest.raises(ConfigError) as error:
        _checked(tmp_path, text)
    message = str(error.value)
    assert says in message and str(tmp_path / "config.yaml") in message, message
    assert "\n" not in message


def test_plain_numbers_and_quoted_ids_still_read(tmp_path):
    _checked(tmp_path, "topics:\n  names:\n    12: a\n    0: b\n  pinned_min_similarity: 0.25\n")
    path = tmp_path / "config.yaml"
    path.write_text("listings: [a.txt]\nevaluation:\n  stability_sample: 10_000\n", encoding="utf-8")
    assert read_config_file(path)["evaluation"]["stability_sample"] == 10000  # grouped by thousands
    config = default_config(topics={"names": {3: "mine", "12": "also"}})
    config["listings"] = ["a.txt"]
    check_config(config)


def test_the_papers_left_by_two_pins_are_clustered_as_the_whole_listing_would_be(tmp_path):
    """Issue 51 row 3: 2 pins on 300 abstracts left 281 (under small_corpus 300): Ward instead of
    HDBSCAN, 13 -> 19 topics, silently. The rest is clustered by the whole listing's method."""
    import json
    import logging
    from types import SimpleNamespace

    import numpy as np
    import pandas as pd

    from papertopics.artifacts import save_embeddings
    from papertopics.cluster.stage import cluster_documents_job

    rng = np.random.default_rng(0)
    centres = rng.normal(size=(6, 16)) * 4
    vectors = (centres[np.arange(300) % 6] + rng.normal(size=(300, 16))).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    doc_ids = [f"d{i}" for i in range(300)]
    save_embeddings(tmp_path / "embeddings.parquet", doc_ids, vectors)
    reduced = pd.DataFrame(vectors[:, :5].astype(np.float64), columns=[f"x{i}" for i in range(5)])
    reduced.insert(0, "doc_id", doc_ids)
    reduced.to_parquet(tmp_path / "reduced.parquet")
    pins = vectors[:2] - vectors.mean(axis=0)  # two pins, each gathering its nearest papers
    save_embeddings(
        tmp_path / "pinned.parquet", ["a", "b"], pins / np.linalg.norm(pins, axis=1, keepdims=True)
    )
    config = default_config()

    def run(pinned: bool) -> dict:
        inputs = {"embeddings": tmp_path / "embeddings.parquet", "reduced": tmp_path / "reduced.parquet"}
        job = SimpleNamespace(
            input=SimpleNamespace(**inputs, pinned=[tmp_path / "pinned.parquet"] if pinned else []),
            output=SimpleNamespace(clusters=tmp_path / "clusters.parquet", params=tmp_path / "params.json"),
            params=SimpleNamespace(
                clustering=config["clustering"],
                hdbscan=config["hdbscan"],
                agglomerative=config["agglomerative"],
                pinned_min_similarity=0.9 if pinned else None,
            ),
            threads=1,
        )
        cluster_documents_job(job, logging.getLogger("test"))
        return json.loads((tmp_path / "params.json").read_text())

    assert run(pinned=False)["method"] == "hdbscan"
    params = run(pinned=True)
    left = 300 - params["pinned"]["n_documents"]
    assert 200 < left < config["clustering"]["small_corpus"]
    assert params["method"] == "hdbscan", params["method"]  # not Ward for the papers left


def test_a_pin_that_gathers_no_paper_gives_its_id_and_name_to_nothing_else():
    """Issue 51 row 1: 'medieval french poetry' gathered 38 ML papers at pinned_min_similarity 0;
    at 0.3 it gathers none, and the ordinary cluster of those 38 papers took its id and with it
    its name, pinned flag and reading list. Now that cluster gets a fresh id and no pinned name;
    the empty pin's id stays reserved for it."""
    import numpy as np
    import pandas as pd

    from papertopics.topics.history import stable_topic_ids
    from papertopics.topics.identity import TopicSnapshot
    from papertopics.topics.merge import pin_previous, pinned_ids

    rng = np.random.default_rng(0)
    doc_ids = [f"d{i}" for i in range(60)]
    vectors = rng.normal(size=(60, 8))
    vectors[:20, 0] += 6  # topic 0: gnn (pinned, id 0)
    vectors[20:40, 1] += 6  # the ML papers the poetry pin took at 0 (pinned, id 1)
    vectors[40:, 2] += 6  # an ordinary topic (id 2)
    first = np.repeat([0, 1, 2], 20)
    previous = TopicSnapshot.from_documents(
        pd.DataFrame({"doc_id": doc_ids, "topic": first}),
        {0: "gnn", 1: "medieval french poetry", 2: "x"},
        vectors,
    )
    meta = {"max_id": 2, "label_config": "k", "pinned": {"gnn": 0, "medieval french poetry": 1}}
    # this run: the poetry pin gathers nothing; its 20 papers are an ordinary cluster (raw id 1)
    pinned = np.array(["gnn"] * 20 + [""] * 40, dtype=object)
    shown = pin_previous((previous, meta), doc_ids, pinned)
    mapping, labels, _, _, new_meta = stable_topic_ids(
        doc_ids, first, {0: "gnn", 1: "neural nets", 2: "x"}, vectors, shown, "k"
    )
    assert mapping[0] == 0 and mapping[2] == 2
    assert mapping[1] == 3, mapping  # a fresh id, not the pin's 1
    assert labels[1] == "neural nets"  # not "medieval french poetry"
    documents = pd.DataFrame({"doc_id": doc_ids, "topic": [mapping[t] for t in first]})
    here, kept = pinned_ids(documents, doc_ids, pinned, (previous, meta), ["gnn", "medieval french poetry"])
    assert here == {"gnn": 0}  # topics.csv's `pinned`: the ML cluster is not marked pinned
    assert kept == {"gnn": 0, "medieval french poetry": 1}  # the id waits for the pin


@pytest.mark.slow
def test_an_example_file_with_new_papers_under_an_old_date_reruns_the_pin(tmp_path):
    """Issue 51 row 5: `cp -p`, rsync -a, unzip put new examples under an old date; Snakemake saw
    'Nothing to be done' and the old examples stayed. Example files are tracked by content."""
    import os

    from conftest import make_corpus_dir, run_snakemake

    workdir = make_corpus_dir(
        tmp_path / "pins",
        "listings:\n  - seeds/*.txt\ntopics:\n  pinned:\n"
        "    - {name: reinforcement learning, examples: mine.txt}\n",
    )
    examples = workdir / "mine.txt"
    examples.write_text("A policy gradient method for robot control with sparse rewards.\n", encoding="utf-8")
    target = "results/cluster/pinned_topics.parquet"
    result = run_snakemake(workdir, "--cores", "1", target)
    assert result.returncode == 0, (result.stdout + result.stderr)[-3000:]
    old = examples.stat().st_mtime_ns - 86_400 * 10**9
    examples.write_text("A diffusion model for protein structure generation.\n", encoding="utf-8")
    os.utime(examples, ns=(old, old))
    result = run_snakemake(workdir, "--cores", "1", "--dry-run", target, check=False)
    output = result.stdout + result.stderr
    assert "pin_topics" in output and "Nothing to be done" not in output, output[-3000:]


def test_a_pinned_paper_is_assignment_pinned_in_the_tables_as_in_transform():
    """Issue 57 case 10: pinned papers were `core` in clusters.parquet and document_topics.csv
    but `pinned` in transform(); one word, `pinned`, and they still count as their topic's
    members (the map's name anchors, transform's centroids, metrics' core_share)."""
    import numpy as np
    import pandas as pd

    from papertopics.cluster.pinned import pin_and_cluster
    from papertopics.results import PINNED

    rng = np.random.default_rng(0)
    vectors = rng.normal(size=(40, 8)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    pin = vectors[0] - vectors.mean(axis=0)

    def cluster(ids, vecs, reduced):
        return pd.DataFrame({"doc_id": ids, "cluster": 0, "assignment": "core", "confidence": 1.0}), {}

    table, _ = pin_and_cluster(
        [f"d{i}" for i in range(40)],
        vectors,
        vectors,
        ["my pin"],
        (pin / np.linalg.norm(pin))[None, :],
        0.5,
        cluster,
    )
    pinned = table[table["pinned"] == "my pin"]
    assert len(pinned) >= 1 and set(pinned["assignment"]) == {PINNED} == {"pinned"}
    assert set(table.loc[table["pinned"] == "", "assignment"]) == {"core"}
    from papertopics.constants import MEMBERS

    assert PINNED in MEMBERS


ICLR = Path(__file__).resolve().parents[2] / "shared/data/iclr2026-sample/iclr2026-sample.jsonl.gz"


@pytest.mark.slow
@pytest.mark.skipif(not ICLR.is_file(), reason="the ICLR 2026 sample (../shared) is not here")
def test_a_nonsense_pin_on_the_iclr_sample_gathers_no_paper_and_says_why(tmp_path, monkeypatch):
    """Issue 57 case 6: "medieval French troubadour poetry" pinned on 300 ICLR abstracts with the
    automatic threshold got 9 unrelated papers (cosine 0.15-0.20) and a reading list, without a
    word: mean + 2 SD always selects a tail. Its best papers are no closer to it than to an
    unrelated phrase (the null), so it gathers none and the warning says so; a pin the listing
    has papers about still gathers them, from its own area."""
    import json
    import logging
    from types import SimpleNamespace

    import numpy as np
    import pandas as pd

    from papertopics.artifacts import save_embeddings
    from papertopics.cluster.pinned import pin_topics_job
    from papertopics.cluster.stage import cluster_documents_job
    from papertopics.embed import ENCODER_KEYS, embed_texts
    from papertopics.ingest.corpus import build_corpus
    from papertopics.ingest.listings import ListingSpec, read_listing

    monkeypatch.chdir(tmp_path)
    frame = read_listing(ListingSpec("iclr", ICLR, columns={"label": "primary_area"}))
    corpus = build_corpus([frame])[0].iloc[:300]
    config = default_config()
    settings = {key: config["embedding"][key] for key in ENCODER_KEYS}
    vectors, _ = embed_texts(corpus["text"].tolist(), **settings)
    doc_ids = corpus["doc_id"].tolist()
    save_embeddings(tmp_path / "embeddings.parquet", doc_ids, vectors)
    reduced = pd.DataFrame(vectors[:, :5].astype(np.float64), columns=[f"x{i}" for i in range(5)])
    reduced.insert(0, "doc_id", doc_ids)
    reduced.to_parquet(tmp_path / "reduced.parquet")
    pins = ["medieval French troubadour poetry", "reinforcement learning"]
    log = logging.getLogger("test")
    pin_topics_job(
        SimpleNamespace(
            input=SimpleNamespace(embeddings=tmp_path / "embeddings.parquet"),
            output=SimpleNamespace(pinned=tmp_path / "pinned.parquet"),
            params=SimpleNamespace(**settings, pinned=pins, cache_dir=None),
            threads=1,
        ),
        log,
    )
    cluster_documents_job(
        SimpleNamespace(
            input=SimpleNamespace(
                embeddings=tmp_path / "embeddings.parquet",
                reduced=tmp_path / "reduced.parquet",
                pinned=[tmp_path / "pinned.parquet"],
            ),
            output=SimpleNamespace(clusters=tmp_path / "clusters.parquet", params=tmp_path / "params.json"),
            params=SimpleNamespace(
                clustering=config["clustering"],
                hdbscan=config["hdbscan"],
                agglomerative=config["agglomerative"],
                pinned_min_similarity="auto",
            ),
            threads=1,
        ),
        log,
    )
    pinned = json.loads((tmp_path / "params.json").read_text())["pinned"]
    assert pinned["topics"][pins[0]]["documents"] == 0, pinned  # 9 unrelated papers before
    from papertopics.artifacts import load_embeddings
    from papertopics.cluster.pinned import assign_pinned, split_controls

    # the pin the listing has papers about gathers what mean + 2 SD gives it, as before, a third
    # or more from its own area (the others: RL papers filed under LLMs or learning theory)
    _, pin_vectors, _ = split_controls(*load_embeddings(tmp_path / "pinned.parquet"))
    index, _, _ = assign_pinned(vectors, pin_vectors[1:], "auto")
    clusters = pd.read_parquet(tmp_path / "clusters.parquet").set_index("doc_id")
    joined = clusters.index[clusters["pinned"] == pins[1]]
    assert len(joined) == int((index == 0).sum()) >= 5, pinned
    areas = corpus.set_index("doc_id").loc[joined, "label"]
    assert (areas == "reinforcement learning").mean() >= 1 / 3, areas.tolist()
    from papertopics.topics.curate import unjoined_pin_line

    line = unjoined_pin_line(0, pins[0], pinned)
    assert line.startswith(
        "config.yaml topics.pinned[0] ('medieval French troubadour poetry'): no paper joined it: its "
        "best papers are no closer to it than to phrases about nothing in this listing"
    ), line
    assert "\n" not in line


def test_the_command_lines_config_values_are_read_as_config_yaml_is():
    """Issue 57 case 11 on `papertopics run --config`: random_state=0x1F was 31 without a word."""
    from papertopics.errors import CliError
    from papertopics.runtime.overrides import parse_overrides

    with pytest.raises(CliError) as error:
        parse_overrides(["random_state=0x1F"])
    assert str(error.value) == (
        "--config 'random_state=0x1F': 0x1F is hexadecimal (0x), the number 31 in YAML; write 31 for "
        'the number, or quote it ("0x1F") for text'
    )
    assert parse_overrides(["random_state=31", "umap.n_neighbors=10"]) == {
        "random_state": 31,
        "umap": {"n_neighbors": 10},
    }
