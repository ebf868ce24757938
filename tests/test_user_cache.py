"""The per-user cache folder: config key, then PAPERTOPICS_CACHE_DIR, then the platform default."""

from __future__ import annotations

from papertopics.embed import cpu
from papertopics.embed.user_cache import ENV_VAR, cache_root, library_versions, versions_digest


def test_config_key_wins_and_relative_paths_follow_the_corpus_folder(tmp_path, monkeypatch):
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "from-env"))
    assert cache_root("shared-cache", base=tmp_path) == tmp_path / "shared-cache"
    assert cache_root(str(tmp_path / "abs")) == tmp_path / "abs"


def test_environment_variable_then_platform_default(tmp_path, monkeypatch):
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "from-env"))
    assert cache_root(None) == tmp_path / "from-env"
    monkeypatch.delenv(ENV_VAR)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache_root(None) == tmp_path / "xdg" / "papertopics"  # Linux: $XDG_CACHE_HOME/papertopics


def test_versions_cover_the_libraries_that_change_vectors():
    versions = library_versions()
    assert {"openvino", "torch", "transformers", "sentence-transformers"} <= set(versions)
    assert versions["torch"]  # installed here, so known; openvino too where it is installed (x86-64)
    assert (versions["openvino"] is not None) == cpu.openvino_installed()
    upgraded = {**versions, "torch": "99.0"}
    assert versions_digest(upgraded) != versions_digest(versions)
    assert versions_digest(versions) == versions_digest()
