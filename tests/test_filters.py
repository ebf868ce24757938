"""config.yaml's filters (issue 66 goal 3): document types, languages, a year range and ids/DOIs
left out where the corpus is built, each step counted (PRISMA: read -> duplicates -> each filter
-> analysed); the readers' canonical document_type and language columns they select on."""

from __future__ import annotations

import re
import shutil
import warnings

import pandas as pd
import pytest
from conftest import shared_export

from papertopics.config import check_config, default_config
from papertopics.errors import ConfigError, CorpusTooSmallError
from papertopics.ingest.corpus import build_corpus
from papertopics.ingest.dates import add_dates
from papertopics.ingest.filters import apply_filters, prisma_line
from papertopics.ingest.listings import listing_name, read_listing
from papertopics.ingest.specs import ListingSpec


def corpus_of(*paths):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        frames = [read_listing(ListingSpec(listing_name(p), p)) for p in paths]
        corpus, stats = build_corpus(frames)
        return add_dates(corpus), stats


def raw_wos(path) -> list[dict]:
    """Each record of a WoS plain-text file with an abstract, read here by its tags alone (an
    independent reference for the reader and the filters): DT, LA, PY (else the early-access
    year EY, as ingest/dates.py dates an early-access paper), UT, DI."""
    records = []
    for chunk in re.split(r"^ER\s*$", path.read_text(encoding="utf-8-sig"), flags=re.M):
        tags = dict(re.findall(r"^(DT|LA|PY|EY|UT|DI|AB) (.*)$", chunk, re.M))
        tags.setdefault("PY", tags.get("EY", ""))
        if tags.get("AB", "").strip():
            records.append(tags)
    return records


# export: {canonical column: (tag, ...)} every record of it gives (README of shared/)
EXPORTS = {
    "wos-plain-capture-recapture-500.txt": {"document_type": "Article", "language": "English"},
    "wos-plain-tr-wok-500.txt": {"document_type": "Review", "language": "Chinese"},
    "scopus-csv-smart-on-fhir-701.csv": {"document_type": "Conference paper", "language": "German"},
    "pubmed-medline-mapofscience-252.txt": {"document_type": "Review", "language": "eng"},
    "pubmed-medline-pybibx-sample-crlf-335.txt": {"document_type": "Systematic Review", "language": "por"},
    "wos-ris-polcomm.ris": {"document_type": "CHAP", "language": "English"},
    "sciencedirect-bibtex-multicultural-100.bib": {"document_type": "incollection"},
    "ieee-csv-legal-re-492.csv": {"document_type": "IEEE Magazines"},
}


@pytest.mark.parametrize("name", sorted(EXPORTS))
def test_every_shared_export_gives_its_document_types_and_languages(tmp_path, name):
    """Each export's DT/PT/TY/entry type/Document Type and LA/Language land in the canonical
    columns, so one filter reads them all; a value each export writes is found."""
    corpus, _ = corpus_of(shared_export(tmp_path, name))
    for column, value in EXPORTS[name].items():
        parts = corpus[column].str.split(";").explode().str.strip()
        assert value in set(parts), (column, corpus[column].value_counts().head())
        assert corpus[column].ne("").mean() > 0.95
    if "language" not in EXPORTS[name]:
        assert "language" not in corpus.columns or corpus["language"].eq("").all()


def test_filters_on_a_web_of_science_export_count_what_each_step_removed(tmp_path):
    """Document types, languages, years and two exclusions (a UT, a DOI written as a URL in
    other capitals) on the microfluidics export (articles, reviews, proceedings papers): each
    step's count equals the one computed from the file's own tags, in order, and the table adds
    up."""
    path = shared_export(tmp_path, "wos-plain-tr-wok-500.txt")
    raw = raw_wos(path)
    corpus, stats = corpus_of(path)
    assert stats["n_rows"] == len(raw) and stats["n_duplicates_merged"] == 0

    ut, doi = raw[0]["UT"].strip(), next(r["DI"] for r in raw[1:] if r.get("DI") and r.get("PY") == "2012")
    settings = {
        "document_types": ["article"],
        "languages": ["English"],
        "years": [2012, None],
        "exclude": [ut, f"https://doi.org/{doi.upper()}", "WOS:000000000000000"],
    }
    with pytest.warns(
        UserWarning, match=r"filters.exclude: 1 of 3 id\(s\) or DOI\(s\) match no record: WOS:0+"
    ):
        kept, table = apply_filters(corpus, stats, settings)

    left = raw
    expected = []
    for step, keep in (
        ("document types", lambda r: "article" in {p.strip().casefold() for p in r["DT"].split(";")}),
        ("languages", lambda r: r.get("LA", "").strip() == "English"),
        ("years", lambda r: r.get("PY", "").strip().isdigit() and int(r["PY"]) >= 2012),
        ("excluded by id or DOI", lambda r: r["UT"].strip() != ut and r.get("DI", "").strip() != doi),
    ):
        after = [r for r in left if keep(r)]
        expected.append((step, len(left) - len(after), len(after)))
        left = after
    got = [(r.step, r.removed, r.remaining) for r in table.itertuples()][2:-1]
    assert got == expected
    assert [r.step for r in table.itertuples()] == [
        "records read", "duplicates merged", "document types", "languages", "years", "excluded by id or DOI",
        "analysed",
    ]  # fmt: skip
    assert table["remaining"].iloc[-1] == len(kept) == len(left)
    assert table["remaining"].iloc[1] - table["removed"].iloc[2:].sum() == len(kept)
    assert sorted(kept["id"]) == sorted(r["UT"].strip() for r in left)
    assert all(e[1] > 0 for e in expected)  # every filter removed something on this export
    line = prisma_line(table)
    assert line.startswith(
        f"filters: {len(raw)} records read, 0 duplicates merged, document types (article): "
    )
    assert line.endswith(f", {len(kept)} analysed") and "\n" not in line


def test_no_filters_leave_the_corpus_as_it_was(tmp_path):
    path = shared_export(tmp_path, "scopus-csv-smart-on-fhir-701.csv")
    corpus, stats = corpus_of(path)
    kept, table = apply_filters(corpus, stats, default_config()["filters"])
    pd.testing.assert_frame_equal(kept, corpus)
    assert table["step"].tolist() == ["records read", "duplicates merged", "analysed"]


def test_pubmed_types_match_any_of_a_records_types(tmp_path):
    """PubMed writes several PT per record ("Journal Article; Review"): a review is kept by
    `Review` whatever else it is."""
    path = shared_export(tmp_path, "pubmed-medline-mapofscience-252.txt")
    corpus, stats = corpus_of(path)
    kept, table = apply_filters(corpus, stats, {"document_types": ["Review"]})
    reviews = corpus["document_type"].map(lambda v: "Review" in [p.strip() for p in v.split(";")])
    assert len(kept) == reviews.sum() > 20 and table["removed"].iloc[2] == (~reviews).sum()


def test_a_filter_on_a_column_no_listing_has_is_one_line(tmp_path):
    from conftest import SEEDS

    for seed in SEEDS:
        shutil.copy(seed, tmp_path / seed.name)
    corpus, stats = corpus_of(*sorted(tmp_path.glob("*.txt")))
    for settings, key in (({"languages": ["English"]}, "languages"), ({"years": [2020, None]}, "years")):
        with pytest.raises(ConfigError) as error:
            apply_filters(corpus, stats, settings)
        message = str(error.value)
        assert message.startswith(f"config.yaml: filters.{key}: no listing gives a ") and "\n" not in message
    with pytest.raises(CorpusTooSmallError, match=r"config.yaml's filters leave 1 document"):
        apply_filters(corpus, stats, {"exclude": corpus["doc_id"].tolist()[1:]})


@pytest.mark.parametrize(
    ("filters", "says"),
    [
        ({"years": [2020, 2010]}, "filters.years: [2020, 2010] has its first year after its last"),
        ({"years": [2020]}, "filters.years"),
        ({"document_types": "Article"}, "filters.document_types"),
        ({"language": ["English"]}, "filters"),
    ],
)
def test_the_schema_checks_the_filters(filters, says):
    with pytest.raises(ConfigError, match=re.escape(says)):
        check_config({"listings": ["a.txt"], "filters": filters})


def planned_rules(folder) -> set[str]:
    """The rules a dry run plans in `folder` (its "Job stats" table)."""
    from conftest import run_snakemake

    result = run_snakemake(folder, "--cores", "1", "--dry-run")
    table = (result.stdout + result.stderr).split("Job stats:")[-1]
    return {m.group(1) for m in re.finditer(r"^(\w+)\s+\d+\s*$", table, re.M)} - {"total", "all"}


@pytest.mark.slow
def test_a_filter_edit_reruns_from_the_corpus_on_never_the_parse(seed_run, tmp_path):
    """Excluding one paper of a finished folder plans build_corpus and what reads the corpus,
    not parse_listing; the run then counts it and analyses one paper fewer."""
    from conftest import run_snakemake

    folder = tmp_path / "folder"
    shutil.copytree(seed_run, folder, symlinks=True)
    assert planned_rules(folder) == set()
    corpus = pd.read_parquet(folder / "results/corpus/corpus.parquet")
    config = folder / "config.yaml"
    config.write_text(config.read_text() + f"filters:\n  exclude: [{corpus['doc_id'].iloc[0]}]\n")
    planned = planned_rules(folder)
    assert "build_corpus" in planned and "parse_listing" not in planned, planned
    result = run_snakemake(folder, "--cores", "2")
    table = pd.read_csv(folder / "results/corpus/filters.csv")
    assert table.set_index("step")["removed"].to_dict()["excluded by id or DOI"] == 1
    assert table["remaining"].iloc[-1] == len(corpus) - 1
    said = [line for line in result.stderr.splitlines() if line.startswith("papertopics warning: filters: ")]
    assert said == [
        f"papertopics warning: filters: {len(corpus)} records read, 0 duplicates merged, excluded by id or"
        f" DOI (1 id(s) or DOI(s)): 1 removed, {len(corpus) - 1} analysed"
    ]
    analysed = pd.read_csv(folder / "results/topics/document_topics.csv")
    assert len(analysed) == len(corpus) - 1 and corpus["doc_id"].iloc[0] not in set(analysed["doc_id"])
    # the count on the overview and in the workbook; the papers for a reference manager
    overview = (folder / "results/report/index.html").read_text(encoding="utf-8")
    assert "<h2>Records analysed</h2>" in overview and "excluded by id or DOI" in overview
    sheet = pd.read_excel(folder / "results/topics/topics.xlsx", sheet_name="filters")
    assert sheet["step"].tolist() == table["step"].tolist() and sheet["removed"].sum() == 1
    import rispy

    from papertopics.report.references import topic_tag

    ris = rispy.loads((folder / "results/topics/papers_by_topic.ris").read_text(encoding="utf-8"))
    assert len(ris) == len(analysed)
    assert {r["keywords"][-1] for r in ris} == {topic_tag(n) for n in analysed["topic_label"]}
    assert 'href="vosviewer/documents_map.txt"' in overview
    assert (folder / "results/report/vosviewer/documents_map.txt").read_text().count("\n") == len(
        analysed
    ) + 1
    unfiltered = (seed_run / "results/report/index.html").read_text(encoding="utf-8")
    assert "Records analysed" not in unfiltered


def test_the_overview_and_the_workbook_show_the_count_only_where_a_filter_is_set(tmp_path):
    from papertopics.report.summary import filter_rows
    from papertopics.report.workbook import filters_sheet

    path = shared_export(tmp_path, "scopus-csv-smart-on-fhir-701.csv")
    corpus, stats = corpus_of(path)
    _, none = apply_filters(corpus, stats, {})
    _, some = apply_filters(corpus, stats, {"languages": ["english"]})
    assert filter_rows(none) == []
    none.to_csv(tmp_path / "none.csv", index=False)
    assert filters_sheet(tmp_path / "none.csv").empty
    rows = filter_rows(some)
    german_or_chinese = int((corpus["language"] != "English").sum())
    assert [r["step"] for r in rows] == ["records read", "duplicates merged", "languages", "analysed"]
    assert rows[2] == {
        "step": "languages",
        "setting": "english",
        "removed": f"{german_or_chinese:,}",
        "remaining": f"{len(corpus) - german_or_chinese:,}",
    }
    assert rows[0]["removed"] == "" and rows[1]["removed"] == str(stats["n_duplicates_merged"])
    some.to_csv(tmp_path / "some.csv", index=False)
    sheet = filters_sheet(tmp_path / "some.csv")
    assert sheet["removed"].tolist()[2] == german_or_chinese and sheet["remaining"].dtype.kind == "i"
