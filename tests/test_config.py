"""config.yaml: defaults from the schema, and one-line errors that name the key."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml
from conftest import REPO, make_corpus_dir, run_snakemake

from papertopics.config import check_config, check_config_files, default_config, load_schema, read_config_file
from papertopics.errors import ConfigError


def test_shipped_config_is_valid_and_matches_the_schema_defaults():
    shipped = yaml.safe_load((REPO / "config.yaml").read_text(encoding="utf-8"))
    check_config(shipped)
    defaults = default_config()
    for section, values in shipped.items():
        if section == "listings":
            continue
        assert values == defaults[section], f"config.yaml's {section} differs from the schema default"


@pytest.mark.parametrize(
    "extra, message",
    [
        (
            {"umap": {"n_neighbours": 10}},
            "config: umap: unknown key 'n_neighbours' (allowed: fit_sample, low_memory",
        ),
        ({"colour": "red"}, "config: unknown key 'colour'"),
        (
            {"hdbscan": {"min_cluster_size": -3}},
            "config: hdbscan.min_cluster_size: -3 is less than the minimum of 1",
        ),
        (
            {"umap": {"n_neighbors": 2.5}},
            "config: umap.n_neighbors: expected an integer >= 2 or 'auto', got 2.5",
        ),
        ({"embedding": {"backend": "onnx"}}, "config: embedding.backend: expected one of 'auto', 'openvino'"),
        ({"listings": [{"path": "a.csv", "name": "a;b"}]}, "config: listings[0].name: 'a;b' may not contain"),
        ({"listings": []}, "config: listings: [] should be non-empty"),
        # accepted by the schema before issue 14, then crashed mid-run
        ({"umap": {"n_neighbors": 1}}, "config: umap.n_neighbors: 1 is less than the minimum of 2"),
        ({"umap": {"metric": "foo"}}, "config: umap.metric: expected one of 'cosine', 'euclidean'"),
        (
            {"umap": {"min_dist": 5}},
            "config: umap.min_dist: 5 is greater than the maximum of 1 (UMAP needs min_dist <= spread (1.0))",
        ),
        (
            {"vectorizer": {"ngram_range": [2, 1]}},
            "config: vectorizer.ngram_range: [2, 1] has its lower bound above its upper; use [1, 2]",
        ),
        (
            {"random_state": 99999999999999999999},
            "config: random_state: 99999999999999999999 is greater than the maximum of 2147483647 "
            "(numpy and UMAP seeds must fit in 32 bits, and stability refits add up to 50)",
        ),
        (
            {"listings": [{"path": "a.txt", "name": "papers {v2}"}]},
            "config: listings[0].name: 'papers {v2}' may not contain '/', '\\', ';' or braces",
        ),
    ],
)
def test_violations_name_the_key_and_what_was_expected(extra, message):
    config = {"listings": ["seeds/*.txt"], **extra}
    with pytest.raises(ConfigError) as caught:
        check_config(config)
    assert str(caught.value).startswith(message), str(caught.value)
    assert "\n" not in str(caught.value)


def test_every_allowed_umap_metric_is_one_umap_knows():
    import umap.distances

    allowed = load_schema()["properties"]["umap"]["properties"]["metric"]["enum"]
    assert set(allowed) <= set(umap.distances.named_distances)


def test_min_df_above_the_number_of_topics_names_the_key():
    import numpy as np

    from papertopics.topics.representation import check_vectorizer, fit_topic_model

    labels = np.array([0, 0, 1, 1, 2, -1])
    check_vectorizer({"min_df": 4, "max_df": 1.0}, labels)  # 4 topic texts, the outliers one too
    with pytest.raises(ConfigError) as caught:
        check_vectorizer({"min_df": 1000, "max_df": 1.0}, labels)
    assert str(caught.value) == (
        "vectorizer.min_df: 1000, but this corpus gives 4 topic text(s) "
        "(min_df counts topics, not abstracts); use at most 4, or 1"
    )
    with pytest.raises(ConfigError, match=r"^vectorizer.min_df: 3, but this corpus gives 2 topic"):
        check_vectorizer({"min_df": 3, "max_df": 1.0}, labels, nr_topics=2 - 1)
    with pytest.raises(
        ConfigError, match=r"^vectorizer.max_df: 0.5 of 4 topic texts is fewer than vectorizer.min_df \(3\)"
    ):
        check_vectorizer({"min_df": 3, "max_df": 0.5}, labels)
    config = default_config(vectorizer={"min_df": 1000})
    texts = [f"abstract {i} about topic {i % 3} words" for i in range(6)]
    with pytest.raises(ConfigError, match=r"^vectorizer.min_df: 1000"):
        fit_topic_model(
            texts,
            np.eye(6, 8),
            labels,
            vectorizer=config["vectorizer"],
            representation=config["representation"],
            topics=config["topics"],
        )


def test_each_config_file_is_checked_on_its_own(tmp_path):
    own = tmp_path / "config.yaml"
    own.write_text("listings: [seeds/*.txt]\numap:\n  n_neighbours: 5\n")
    extra = tmp_path / "extra.yaml"
    extra.write_text("random_state: 7\n")
    merged = {"listings": ["seeds/*.txt"], "umap": {"n_neighbours": 5}, "random_state": 7}
    with pytest.raises(ConfigError, match=rf"^{own}: umap: unknown key 'n_neighbours'"):
        check_config_files([own, extra], merged)
    extra.write_text("hdbscan: {min_samples: many}\n")
    own.write_text("listings: [seeds/*.txt]\n")
    with pytest.raises(ConfigError, match=rf"^{extra}: hdbscan.min_samples: expected"):
        check_config_files([own, extra], {"listings": ["seeds/*.txt"], "hdbscan": {"min_samples": "many"}})
    with pytest.raises(ConfigError, match=r"^--config: random_state: expected integer"):
        check_config_files(
            [own], {"listings": ["seeds/*.txt"], "random_state": "x"}, overrides={"random_state": "x"}
        )


def test_yaml_syntax_error_names_the_file_and_line(tmp_path):
    bad = tmp_path / "config.yaml"
    bad.write_text("listings:\n  - seeds/*.txt\numap:\n  n_neighbors: [1\nrandom_state: 3\n")
    with pytest.raises(ConfigError) as caught:
        read_config_file(bad)
    message = str(caught.value)
    assert message.startswith(f"{bad}: line ") and "YAML syntax error" in message and "\n" not in message
    with pytest.raises(ConfigError, match=r"config file not found$"):
        read_config_file(tmp_path / "missing.yaml")


def test_missing_listings_is_named():
    with pytest.raises(ConfigError, match="'listings' is a required property"):
        check_config({"random_state": 1})


def test_snakemake_stops_with_one_line_and_writes_nothing(tmp_path):
    workdir = make_corpus_dir(tmp_path / "bad", "listings:\n  - seeds/*.txt\nhdbscan:\n  min_samples: many\n")
    result = run_snakemake(workdir, "--cores", "1", check=False)
    assert result.returncode != 0
    lines = [line for line in result.stderr.splitlines() if line.startswith("papertopics error:")]
    assert lines == [
        f"papertopics error: {workdir / 'config.yaml'}: "
        "hdbscan.min_samples: expected an integer >= 1 or 'auto', got 'many'"
    ]
    assert not (workdir / "results").exists()


def test_a_listing_glob_that_matches_nothing_is_named(tmp_path):
    workdir = make_corpus_dir(tmp_path / "none", "listings:\n  - exports/*.csv\n")
    result = run_snakemake(workdir, "--cores", "1", check=False)
    assert result.returncode != 0
    assert "papertopics error: exports/*.csv: matches no file" in result.stderr
    assert not (workdir / "results").exists()


def test_schema_ships_inside_the_package_as_package_data():
    """A non-editable install has no workflow/ folder beside the package (issue 13 bug 4)."""
    import tomllib

    import papertopics
    from papertopics import config as config_module

    package = Path(papertopics.__file__).resolve().parent
    assert config_module.SCHEMA.resolve().is_relative_to(package)
    assert config_module.SCHEMA.is_file()
    data = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"][
        "papertopics"
    ]
    assert any(config_module.SCHEMA.relative_to(package).match(pattern) for pattern in data)
    assert not (REPO / "workflow" / "schemas").exists(), (
        "one schema, the package's, for check_config and validate"
    )


@pytest.mark.parametrize("device", ["cuda:0", "cuda:3", "cpu", "cuda", "auto"])
def test_schema_accepts_every_device_the_embedder_accepts(device):
    check_config({"listings": ["seeds/*.txt"], "embedding": {"device": device}})


@pytest.mark.parametrize("device", ["gpu", "cuda:", "cuda:x", "cuda0"])
def test_schema_rejects_other_devices_naming_the_key(device):
    with pytest.raises(ConfigError, match=r"embedding\.device"):
        check_config({"listings": ["seeds/*.txt"], "embedding": {"device": device}})


def test_config_yaml_documents_every_choice_the_schema_allows():
    """Each enum value of a key is named in that key's comment in config.yaml (fp16, cuda:N ...)."""
    from papertopics.config import load_schema

    lines = (REPO / "config.yaml").read_text(encoding="utf-8").splitlines()
    schema = load_schema()
    for section, spec in schema["properties"].items():
        for key, sub in spec.get("properties", {}).items():
            if "enum" not in sub:
                continue
            comment = next((line for line in lines if line.strip().startswith(f"{key}:")), "")
            for choice in sub["enum"]:
                assert str(choice) in comment.partition("#")[2], (
                    f"config.yaml: {section}.{key} omits {choice}"
                )


# --- issue 14: config files, listings seen by Snakemake --------------------------------------


def snakemake_in(workdir, *args):
    """`snakemake --directory DIR ...` as README says -> (result, stdout + stderr)."""
    result = run_snakemake(workdir, *args, check=False, timeout=600)
    return result, result.stdout + result.stderr


def error_lines(output):
    return [line for line in output.splitlines() if line.startswith("papertopics error:")]


def test_directory_alone_reads_the_folders_config_once(tmp_path):
    workdir = make_corpus_dir(tmp_path / "one")
    result, output = snakemake_in(workdir, "--cores", "1", "--dry-run")
    assert result.returncode == 0 and "parse_listing" in output, output[-3000:]
    result, output = snakemake_in(workdir, "--configfile", str(workdir / "config.yaml"), "--dry-run")
    assert result.returncode == 0, output[-3000:]
    assert "extended by additional config" not in output


def test_a_misspelt_key_is_reported_against_the_file_it_is_in(tmp_path):
    workdir = make_corpus_dir(tmp_path / "typo", "listings:\n  - seeds/*.txt\numap:\n  n_neighbours: 5\n")
    (workdir / "other.yaml").write_text("random_state: 7\n")
    result, output = snakemake_in(workdir, "--configfile", str(workdir / "other.yaml"), "--dry-run")
    assert result.returncode != 0
    assert error_lines(output) == [
        f"papertopics error: {workdir / 'config.yaml'}: umap: unknown key 'n_neighbours' "
        f"(allowed: fit_sample, low_memory, map_min_dist, metric, min_dist, n_components, n_neighbors)"
    ]


def test_yaml_syntax_error_and_missing_config_are_one_line(tmp_path):
    workdir = make_corpus_dir(tmp_path / "yaml", "listings:\n  - seeds/*.txt\numap:\n  n_neighbors: [1\n")
    result, output = snakemake_in(workdir, "--dry-run")
    assert result.returncode != 0
    assert error_lines(output) == [
        f"papertopics error: {workdir / 'config.yaml'}: line 5, column 1: YAML syntax error: "
        f"expected ',' or ']', but got '<stream end>', while parsing a flow sequence that starts "
        f"at line 4, column 16"
    ]
    assert "Traceback" not in output
    (workdir / "config.yaml").unlink()
    result, output = snakemake_in(workdir, "--dry-run")
    assert result.returncode != 0 and "Traceback" not in output
    assert error_lines(output) == [
        f"papertopics error: no config.yaml in {workdir}; run with --directory FOLDER, a folder "
        f"holding a config.yaml that names its listings"
    ]


def test_braces_and_brackets_in_listing_file_names(tmp_path):
    workdir = make_corpus_dir(
        tmp_path / "names", 'listings:\n  - "x/papers {v2}.txt"\n  - "x/accepted[1].txt"\n'
    )
    (workdir / "x").mkdir()
    seeds = sorted((workdir / "seeds").glob("*.txt"))
    seeds[0].rename(workdir / "x" / "papers {v2}.txt")
    seeds[1].rename(workdir / "x" / "accepted[1].txt")
    result, output = snakemake_in(workdir, "--dry-run")
    assert result.returncode == 0, output[-3000:]
    assert "results/parse/papers (v2).parquet" in output
    assert "results/parse/accepted[1].parquet" in output


def test_an_edited_listing_with_an_older_date_is_parsed_again(tmp_path):
    """cp -p, rsync -a, unzip: new content, old mtime; Snakemake alone saw nothing to do."""
    import os

    workdir = make_corpus_dir(tmp_path / "edit")
    listing = sorted((workdir / "seeds").glob("*.txt"))[0]
    target = f"results/parse/{listing.stem}.parquet"
    result, output = snakemake_in(workdir, "--cores", "1", target)
    assert result.returncode == 0, output[-3000:]
    result, output = snakemake_in(workdir, "--cores", "1", "--dry-run", target)
    assert "Nothing to be done" in output, output[-3000:]
    old = listing.stat().st_mtime_ns - 86_400 * 10**9
    listing.write_text(
        listing.read_text(encoding="utf-8")
        + "\nOne more abstract, added later by hand, on sparse autoencoders.\n",
        encoding="utf-8",
    )
    os.utime(listing, ns=(old, old))
    result, output = snakemake_in(workdir, "--cores", "1", "--dry-run", target)
    assert "parse_listing" in output and "Nothing to be done" not in output, output[-3000:]
