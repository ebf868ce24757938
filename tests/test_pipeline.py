"""The whole DAG on the seed listings: the output contract users and other stages rely on."""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from pathlib import Path

import pandas as pd
import pytest
from conftest import REPO, make_corpus_dir, run_snakemake

from papertopics.topics.stopwords import stop_words

FIXTURES = REPO / "tests" / "fixtures"

pytestmark = pytest.mark.slow
SEED_NAMES = {"000_5ed41c11dbfea66b", "004_391dbc78c55f1b33"}


def test_document_table_contract(seed_run):
    documents = pd.read_csv(seed_run / "results/topics/document_topics.csv")
    assert list(documents.columns[:6]) == ["doc_id", "listings", "topic", "topic_label", "title", "text"]
    assert len(documents) == 37
    assert documents["doc_id"].is_unique
    assert set(";".join(documents["listings"]).split(";")) == SEED_NAMES
    assert documents["text"].str.len().min() > 200


def test_seeds_give_real_topics(seed_run):
    documents = pd.read_csv(seed_run / "results/topics/document_topics.csv")
    topics = pd.read_csv(seed_run / "results/topics/topics.csv")
    real = topics[topics["topic"] >= 0]
    assert len(real) >= 5, topics
    assert (documents["topic"] == -1).mean() <= 0.15
    assert real["size"].sum() + topics.loc[topics["topic"] == -1, "size"].sum() == 37
    assert {"topic", "label", "size", "top_terms", "representative_doc_ids"} <= set(topics.columns)
    for terms in real["top_terms"]:
        assert len(terms.split("; ")) == 10
    for ids in real["representative_doc_ids"]:
        assert set(ids.split(";")) <= set(documents["doc_id"])


def test_labels_are_informative(seed_run):
    """Names are phrases of 1-6 words, no label made only of stop words or generic ML words;
    no two topics share a label ("diffusion models" may end in a generic word, not be one)."""
    topics = pd.read_csv(seed_run / "results/topics/topics.csv")
    generic = set(stop_words(domain=True))
    labels = topics.loc[topics["topic"] >= 0, "label"].tolist()
    assert len(set(labels)) == len(labels)
    for label in labels:
        words = set(re.findall(r"[a-z0-9\-]+", label.lower()))
        assert words - generic, f"label made only of generic words: {label!r}"
        assert not words & {"paper", "propose", "results", "using"}, label
        assert 1 <= len(label.split()) <= 6 and "," not in label, label


def test_hierarchy_and_regions_are_named(seed_run):
    topics = pd.read_csv(seed_run / "results/topics/topics.csv", keep_default_na=False)
    hierarchy = pd.read_csv(seed_run / "results/topics/hierarchy.csv", keep_default_na=False)
    real = topics[topics["topic"] >= 0]
    assert list(hierarchy.columns) == ["node", "parent", "level", "topics", "size", "label"]
    assert len(hierarchy) == 2 * len(real) - 1 and (hierarchy["parent"] == -1).sum() == 1
    assert (hierarchy["label"] != "").all()
    leaves = hierarchy[hierarchy["level"] == 0].set_index("node")
    assert dict(zip(real["topic"], real["label"])) == leaves["label"].to_dict()
    assert hierarchy.loc[hierarchy["parent"] == -1, "size"].item() == real["size"].sum()
    node_label = dict(zip(hierarchy["node"], hierarchy["label"]))
    assert all(node_label[r] == lab for r, lab in zip(real["region"], real["region_label"]))
    assert min(len(real), 6) <= real["region"].nunique() <= 15
    page = (seed_run / "results/report/intertopic.html").read_text()
    for label in real["label"]:  # bubbles carry names (as plotly's JSON escapes them), not numbers
        encoded = json.dumps(label[:20])[1:-1]
        assert any(form in page for form in (encoded, encoded.replace("/", "\\u002f"))), label


def test_names_say_how_much_of_their_topic_uses_them(seed_run):
    from papertopics.topics.names.phrases import letters_fit

    topics = pd.read_csv(seed_run / "results/topics/topics.csv", keep_default_na=False)
    documents = pd.read_csv(seed_run / "results/topics/document_topics.csv")
    real = topics[topics["topic"] >= 0]
    coverage = pd.to_numeric(real["coverage"])
    assert coverage.between(0, 1).all() and coverage.median() >= 0.5, real[["label", "coverage"]]
    for label in real["label"]:  # "long form (ACRONYM)": the acronym's capitals spell the long form
        m = re.match(r"(?:Mixed: )?(.*) \(([^)]+)\)$", label)
        if m and not m.group(2).isdigit():
            assert letters_fit(re.sub(r"s$", "", m.group(2)), m.group(1).split()), label
    # the five papers on LLM agents share a subject; the 11-abstract bag does not
    agents = documents.loc[documents["text"].str.contains("PokéAgent"), "topic"].iloc[0]
    agent_label = real.set_index("topic").loc[agents, "label"]
    assert not agent_label.startswith("Mixed: "), agent_label
    largest = real.sort_values("size").iloc[-1]
    assert largest["size"] == 11 and largest["label"].startswith("Mixed: "), largest["label"]
    page = (seed_run / "results/report/index.html").read_text()
    assert page.count("name used by ") == len(real)
    assert "on 37 abstracts" in page and "noise" in page, "the NPMI tile reads for this corpus size"


def test_metrics_and_model(seed_run):
    metrics = json.loads((seed_run / "results/metrics.json").read_text())
    documents = pd.read_csv(seed_run / "results/topics/document_topics.csv")
    assert metrics["n_documents"] == 37
    assert metrics["n_listings"] == 2
    assert metrics["n_topics"] == documents.loc[documents["topic"] >= 0, "topic"].nunique()
    assert metrics["outlier_share"] == pytest.approx((documents["topic"] == -1).mean(), abs=1e-4)
    model = seed_run / "results/topics/model"
    assert (model / "topic_embeddings.safetensors").exists()
    assert (model / "ctfidf.safetensors").exists()


def test_report_pages_work_offline(seed_run):
    report = seed_run / "results/report"
    pages = sorted(report.glob("*.html"))
    assert report / "index.html" in pages and len(pages) >= 7
    assert (report / "plotly.min.js").stat().st_size > 1_000_000
    for page in pages:
        html = page.read_text(encoding="utf-8")
        assert not re.search(r"""(src|href)=["']https?://""", html), f"{page.name} loads from the network"
        assert "cdn.plot.ly" not in html


def test_every_rule_logs_and_benchmarks(seed_run):
    for rule in (
        "build_corpus",
        "gather_embeddings",
        "reduce_embeddings",
        "cluster_documents",
        "count_terms",
        "index_phrases",
        "fit_topics",
        "evaluate_topics",
        "render_report",
        "bundle_report",
        "write_workbook",
        "describe_topics",
        "draw_figures",
    ):
        assert (seed_run / f"results/logs/{rule}.log").exists(), rule
        assert (seed_run / f"results/benchmarks/{rule}.tsv").exists(), rule


def test_nothing_to_do_when_nothing_changed(seed_run):
    result = run_snakemake(seed_run, "--cores", "1", "--dry-run")
    assert "Nothing to be done" in result.stdout + result.stderr


def planned_rules(workdir) -> set[str]:
    result = run_snakemake(workdir, "--cores", "1", "--dry-run")
    table = (result.stdout + result.stderr).split("Job stats:")[-1]
    return {m.group(1) for m in re.finditer(r"^(\w+)\s+\d+\s*$", table, re.M)} - {"total", "all"}


def test_config_edit_reruns_only_affected_stages(seed_run):
    """A label tweak refits only c-TF-IDF and what reads it; a clustering tweak reuses embeddings
    and every UMAP (the refits too); a report tweak redraws the pages only."""
    config = seed_run / "config.yaml"
    original = config.read_text()
    try:
        config.write_text(original + "representation:\n  label_terms: 2\n")
        assert planned_rules(seed_run) == {
            "fit_topics",
            "curate_topics",
            "evaluate_topics",
            "render_report",
            "bundle_report",
            "advance_history",
            "write_workbook",
            "describe_topics",
            "draw_figures",
            "write_vosviewer",
            "write_references",
        }
        config.write_text(original + "hdbscan:\n  min_cluster_size: 4\n")
        assert planned_rules(seed_run) == {
            "cluster_documents",
            "assess_stability",
            "fit_topics",
            "curate_topics",
            "evaluate_topics",
            "render_report",
            "bundle_report",
            "advance_history",
            "write_workbook",
            "describe_topics",
            "draw_figures",
            "write_vosviewer",
            "write_references",
        }
        # the history's marker follows every report; it finds the history at this run already;
        # the figures (draw_figures) read no report.* setting but the title: not redrawn
        config.write_text(original + "report:\n  max_hover_chars: 100\n")
        assert planned_rules(seed_run) == {"render_report", "bundle_report", "advance_history"}
        # a rename (topics.names) puts the name on the fitted tables: no refit, no metrics
        config.write_text(original + "topics:\n  names: {0: my name}\n")
        assert planned_rules(seed_run) == {
            "curate_topics",
            "render_report",
            "bundle_report",
            "advance_history",
            "write_workbook",
            "describe_topics",
            "draw_figures",
            "write_vosviewer",
            "write_references",
        }
        # min_df counts topics: the per-corpus term counts stay; a tokenising change recounts them
        fit_and_after = {
            "fit_topics",
            "curate_topics",
            "evaluate_topics",
            "render_report",
            "bundle_report",
            "advance_history",
            "write_workbook",
            "describe_topics",
            "draw_figures",
            "write_vosviewer",
            "write_references",
        }
        config.write_text(original + "vectorizer:\n  min_df: 2\n")
        assert planned_rules(seed_run) == fit_and_after
        config.write_text(original + "vectorizer:\n  extra_stop_words: [learning]\n")
        assert planned_rules(seed_run) == fit_and_after | {"count_terms"}
    finally:
        config.write_text(original)


def test_an_edited_job_module_reruns_its_job(seed_run):
    """The light rules run a package function in Snakemake's process (papertopics.runtime.inprocess);
    the module holding it is in their code param, so editing it reruns the job, as editing a script
    reruns a `script:` job (a mere touch does not: the param is a digest of the content)."""
    script = REPO / "src" / "papertopics" / "report" / "render.py"
    text, before = script.read_bytes(), script.stat()
    try:
        os.utime(script, (time.time(), time.time()))
        assert planned_rules(seed_run) == set()
        script.write_bytes(text + b"# edited\n")
        assert planned_rules(seed_run) == {"render_report", "bundle_report", "advance_history"}
    finally:
        script.write_bytes(text)
        os.utime(script, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert planned_rules(seed_run) == set()


def test_stability_refits_are_one_job_per_seed(seed_run):
    """UMAP refits run as separate jobs (side by side with --cores N or on a cluster); the
    seedless Ward clustering of a small corpus has none."""
    config = seed_run / "config.yaml"
    original = config.read_text()
    try:
        config.write_text(original + "clustering:\n  method: hdbscan\n")
        result = run_snakemake(seed_run, "--cores", "1", "--dry-run")
        table = (result.stdout + result.stderr).split("Job stats:")[-1]
        counts = {m.group(1): int(m.group(2)) for m in re.finditer(r"^(\w+)\s+(\d+)\s*$", table, re.M)}
        assert counts.get("refit_reduction") == 5
    finally:
        config.write_text(original)
    assert not list((seed_run / "results/evaluation").glob("refits/*.parquet"))
    stability = json.loads((seed_run / "results/metrics.json").read_text())["stability"]
    assert stability["measured_by"] == "subsamples of 90%" and stability["runs"] == 5


def test_two_runs_are_byte_identical(seed_run, tmp_path):
    other = make_corpus_dir(tmp_path / "again")
    run_snakemake(other, "--cores", "2")
    for name in ("document_topics.csv", "topics.csv"):
        assert (other / "results/topics" / name).read_bytes() == (
            seed_run / "results/topics" / name
        ).read_bytes(), name
    # The converted model and the vectors live in the per-user cache: a new folder converts
    # nothing and re-embeds nothing it already knows.
    metrics = json.loads((other / "results/metrics.json").read_text())
    assert (metrics["embedding"]["computed"], metrics["embedding"]["reused"]) == (0, 37)
    assert not (other / "results/cache").exists()
    # OpenVINO's converted model: one, made by the first folder (none where auto chose torch)
    cache = Path(os.environ["PAPERTOPICS_CACHE_DIR"])
    converted = 1 if metrics["embedding"]["backend"] == "openvino" else 0
    assert len(list(cache.glob("openvino/*/model.xml"))) == converted


def test_a_moved_or_copied_folder_reruns_nothing(seed_run, tmp_path):
    """Researchers rsync a finished folder to a cluster, rename it, share it: listings are known
    by their content and paths inside the folder are relative, so no job runs again."""
    before = run_snakemake(seed_run, "--cores", "1", "--dry-run")
    assert "Nothing to be done" in before.stdout + before.stderr, "the session's seed run is not finished"
    copied = tmp_path / "copied"
    shutil.copytree(seed_run, copied, symlinks=True)  # as cp -a or rsync -a: file times kept
    moved = tmp_path / "elsewhere" / "renamed"
    moved.parent.mkdir()
    copied.rename(moved)
    stamps = {p: p.stat().st_mtime_ns for p in (moved / "results").rglob("*") if p.is_file()}
    for attempt in ("--dry-run", None):  # what Snakemake plans, then a real run
        result = run_snakemake(moved, "--cores", "2", *filter(None, [attempt]))
        output = result.stdout + result.stderr
        assert "Nothing to be done" in output and "reason:" not in output, output[-3000:]
    assert {p: p.stat().st_mtime_ns for p in (moved / "results").rglob("*") if p.is_file()} == stamps


def test_dry_run_of_the_repository():
    result = run_snakemake(REPO, "--cores", "1", "--dry-run")
    assert "rule" in result.stdout + result.stderr or "Nothing to be done" in result.stdout + result.stderr


def test_lint_finds_nothing_but_conda_advice():
    result = run_snakemake(REPO, "--lint", check=False)
    output = result.stdout + result.stderr
    findings = set(re.findall(r"^\s+\* (.+?):$", output, re.M))
    assert findings <= {"Specify a conda environment or container for each rule."}, output


def test_added_listing_embeds_only_new_abstracts_and_keeps_topic_ids(seed_run, tmp_path):
    """A new listing: its 5 abstracts are embedded, the 37 others reused, topic ids carried over."""
    grown = tmp_path / "grown"
    shutil.copytree(seed_run, grown, symlinks=True)
    shutil.copy(FIXTURES / "added_listing.txt", grown / "seeds" / "added_listing.txt")
    run_snakemake(grown, "--cores", "2")
    metrics = json.loads((grown / "results/metrics.json").read_text())
    assert (metrics["embedding"]["computed"], metrics["embedding"]["reused"]) == (5, 37)
    assert metrics["n_documents"] == 42 and metrics["n_listings"] == 3
    # the candidate names too: a name the first run embedded is reused (issue 67)
    pattern = r"embedding (\d+) texts: (\d+) from cache, (\d+) to compute"
    names = re.search(pattern, (grown / "results/logs/embed_phrases.log").read_text())
    total, reused, computed = map(int, names.groups())
    seen = int(re.search(pattern, (seed_run / "results/logs/embed_phrases.log").read_text()).group(1))
    assert reused >= 0.8 * min(seen, total) and computed == total - reused < total / 5, names.group(0)

    before = pd.read_csv(seed_run / "results/topics/document_topics.csv")
    after = pd.read_csv(grown / "results/topics/document_topics.csv")
    both = before.merge(after, on="doc_id", suffixes=("_before", "_after"))
    assert len(both) == 37
    # Most abstracts keep the topic id they had: ids follow topics, not the refit's numbering.
    assert (both["topic_before"] == both["topic_after"]).mean() >= 0.6, both[["topic_before", "topic_after"]]

    changes = pd.read_csv(grown / "results/topics/changes.csv")
    assert set(changes["status"]) <= {"new", "vanished", "grown", "shrunk", "unchanged", "merged", "split"}
    assert set(after["topic"]) <= set(changes["topic"])
    first = pd.read_csv(seed_run / "results/topics/changes.csv")
    assert set(first.loc[first["topic"] >= 0, "status"]) == {"new"}


def test_min_version_is_what_the_package_requires():
    """The Snakefile's min_version is pyproject.toml's lower bound for snakemake (the version
    the tests run): an older Snakemake stops with one line instead of failing somewhere later."""
    import tomllib

    from snakemake import __version__

    required = re.search(
        r"snakemake>=([\d.]+)",
        " ".join(tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["dependencies"]),
    ).group(1)
    assert (
        re.search(r'^min_version\("([\d.]+)"\)', (REPO / "Snakefile").read_text(), re.M).group(1) == required
    )
    assert tuple(map(int, __version__.split(".")[:2])) >= tuple(map(int, required.split(".")))
