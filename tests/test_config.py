"""config.yaml: defaults from the schema, and one-line errors that name the key."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from conftest import REPO, make_corpus_dir, run_snakemake
from papertopics.config import check_config, default_config
from papertopics.errors import ConfigError


def test_shipped_config_is_valid_and_matches_the_schema_defaults():
    shipped = yaml.safe_load((REPO / "config.yaml").read_text(encoding="utf-8"))
    check_config(shipped)
    defaults = default_config()
    for section, values in shipped.items():
        if section == "listings":
            continue
        assert values == defaults[section], f"config.yaml's {section} differs from the schema default"


@pytest.mark.parametrize("extra, message", [
    ({"umap": {"n_neighbours": 10}}, "config: umap: unknown key 'n_neighbours' (allowed: low_memory"),
    ({"colour": "red"}, "config: unknown key 'colour'"),
    ({"hdbscan": {"min_cluster_size": -3}}, "config: hdbscan.min_cluster_size: -3 is less than the minimum of 1"),
    ({"umap": {"n_neighbors": 2.5}}, "config: umap.n_neighbors: expected an integer >= 1 or 'auto', got 2.5"),
    ({"embedding": {"backend": "onnx"}}, "config: embedding.backend: expected one of 'auto', 'openvino'"),
    ({"listings": [{"path": "a.csv", "name": "a;b"}]}, "config: listings[0].name: 'a;b' may not contain"),
    ({"listings": []}, "config: listings: [] should be non-empty"),
])
def test_violations_name_the_key_and_what_was_expected(extra, message):
    config = {"listings": ["seeds/*.txt"], **extra}
    with pytest.raises(ConfigError) as caught:
        check_config(config)
    assert str(caught.value).startswith(message), str(caught.value)
    assert "\n" not in str(caught.value)


def test_missing_listings_is_named():
    with pytest.raises(ConfigError, match="'listings' is a required property"):
        check_config({"random_state": 1})


def test_snakemake_stops_with_one_line_and_writes_nothing(tmp_path):
    workdir = make_corpus_dir(tmp_path / "bad", "listings:\n  - seeds/*.txt\nhdbscan:\n  min_samples: many\n")
    result = run_snakemake(workdir, "--cores", "1", check=False)
    assert result.returncode != 0
    lines = [line for line in result.stderr.splitlines() if line.startswith("papertopics error:")]
    assert lines == [f"papertopics error: {workdir / 'config.yaml'}: hdbscan.min_samples: expected an integer >= 1 or 'auto', got 'many'"]
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
    data = tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["papertopics"]
    assert any(config_module.SCHEMA.relative_to(package).match(pattern) for pattern in data)
    assert not (REPO / "workflow" / "schemas").exists(), "one schema, the package's, for check_config and validate"


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
                assert str(choice) in comment.partition("#")[2], f"config.yaml: {section}.{key} omits {choice}"
