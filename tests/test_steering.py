"""Steering that is never silently wrong (issue 51): config.yaml values YAML or JSON schema would
read wrongly, names and pins tied to the run the reader saw, pins that change nothing else."""

from __future__ import annotations

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
        ("topics:\n  names:\n    012: mine\n", "line 4, column 5: 012 reads as the number 10 in YAML"),
        # row 10: 5: and "5": both given, one dropped silently
        ("topics:\n  names:\n    5: a\n    '5': b\n", "topics.names: topic 5 is named twice (5 and '5')"),
        (
            "topics:\n  names:\n    5: a\n    5: b\n",
            "line 5, column 5: 5 is given twice in one mapping (also line 4)",
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
