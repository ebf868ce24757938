"""Issue 57 cases 1-5: readers that never mis-split or silently drop a record."""

import csv
import io
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from papertopics.errors import ListingError
from papertopics.ingest.formats.delimited import read_csv
from papertopics.ingest.listings import ListingSpec, ListingWarning, listing_name, read_listing

A1 = "We study sparse autoencoders and find that polysemanticity is a data problem in language models."
A2 = "Diffusion models erase concepts poorly; we propose a fix that keeps image quality high."
A3 = "Graph neural networks over-smooth; a residual scheme keeps node features apart at depth."


def read(path, **kw):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = read_listing(ListingSpec(listing_name(path), Path(path), **kw))
    return table, [str(w.message) for w in caught if issubclass(w.category, ListingWarning)]


def error(path) -> str:
    with pytest.raises(ListingError) as exc:
        read_listing(ListingSpec(listing_name(path), Path(path)))
    msg = str(exc.value)
    assert "\n" not in msg and msg.startswith(str(path)), msg
    return msg


def _written(rows) -> str:
    buf = io.StringIO()
    csv.writer(buf).writerows(rows)
    return buf.getvalue()


# case 1: Python's csv.writer output always reads
def test_a_doubled_quote_before_two_commas_is_no_stray_quote(tmp_path):
    """The ICLR sample as csv.writer wrote it stopped at "line 551: a quote opens a field here"."""
    abstract = f'{A1}\nWe release checkpoints "small", "base",, and "large".'
    path = tmp_path / "iclr.csv"
    path.write_text(_written([["title", "abstract", "year"], ["T1", abstract, "2026"], ["T2", A2, "2026"]]))
    table, warned = read(path)
    assert table["title"].tolist() == ["T1", "T2"] and not warned
    assert table["text_raw"].tolist()[0] == abstract


# the characters RFC 4180 quoting is about, often, and any other character now and then
_TEXT = st.text(
    st.one_of(
        st.sampled_from(['"', ",", "\n", "\r", " ", "a", "b"]),
        st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"),
    ),
    max_size=40,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(_TEXT, _TEXT.filter(lambda s: s.strip()), _TEXT), min_size=1, max_size=6))
@example([("T", 'Two paragraphs.\nSizes "small", "base",, and more', "")])  # the ICLR record
def test_csv_writer_output_reads_back_identical(rows):
    """RFC 4180 (quotes doubled, fields quoted when they hold a comma, quote or line break)."""
    parsed = read_csv(_written([["title", "abstract", "notes"], *rows]), Path("random.csv"))
    assert parsed.columns == ["title", "abstract", "notes"]
    assert [tuple(rec.values()) for _, rec in parsed.records] == [tuple(r) for r in rows]


# case 2: a stray quote that moves text to another column is never read as a record
def test_an_undoubled_quote_in_a_zotero_csv_keeps_the_abstract_whole(tmp_path):
    """Zotero CSV, 87 columns most of them empty: `"fast, cheap"` undoubled made the abstract
    "We call it fast" and spread the rest over Date, Date Added and Pages."""
    header = ["Key", "Title", "Abstract Note", "Date", "Date Added", "Pages"] + [f"C{i}" for i in range(10)]
    empties = "," * 10
    path = tmp_path / "zotero.csv"
    path.write_text(
        ",".join(f'"{h}"' for h in header)
        + f'\n"K1","T1","We call it "fast, cheap" and good.","2021","2022-01-01","1-9"{empties}\n'
        + f'"K2","T2","{A2}","2020","2021-01-01","3-4"{empties}\n'
    )
    table, warned = read(path)
    assert table["text_raw"].tolist() == ['We call it "fast, cheap" and good.', A2]
    assert table["date"].tolist() == ["2021", "2020"]
    assert len(warned) == 1 and "line 2" in warned[0]
    # a quote that ends its field early takes text into the next column: the strict error stands
    bad = tmp_path / "bad.csv"
    bad.write_text(
        ",".join(f'"{h}"' for h in header)
        + f'\n"K1","T1","We call it "fast", cheap and good.","2021","2022-01-01","1-9"{empties}\n'
        + f'"K2","T2","{A2}","2020","2021-01-01","3-4"{empties}\n'
    )
    assert "line 2: malformed CSV" in error(bad)


# case 3: the header search never takes a data row, and names a header below line 1
def test_a_record_titled_text_is_not_the_header(tmp_path):
    path = tmp_path / "body.csv"
    path.write_text(f"Title,Body,Year\nA study,{A1},2020\nText,{A2},2021\n")
    assert "no text column" in error(path) and "columns found: Title, Body, Year" in error(path)
    table, _ = read(path, columns={"text": "Body"})
    assert table["title"].tolist() == ["A study", "Text"]
    assert table["text"].tolist()[1] == A2


def test_a_data_row_naming_abstract_on_line_4_is_not_the_header(tmp_path):
    path = tmp_path / "typ.csv"
    rows = [["Typ", "Title", "Summary text"], ["Article", "T1", A1], ["Article", "T2", A2]]
    rows += [["Abstract", "T3", A3]]
    path.write_text(_written(rows))
    table, warned = read(path, columns={"text": "Summary text"})
    assert table["title"].tolist() == ["T1", "T2", "T3"] and not warned


def test_a_header_below_line_1_is_named(tmp_path):
    path = tmp_path / "export.csv"
    path.write_text(f"Exported from MyDB 2024-01-01\n\nTitle,Abstract,Year\nT1,{A1},2020\nT2,{A2},2021\n")
    table, warned = read(path)
    assert table["title"].tolist() == ["T1", "T2"]
    assert warned == [
        f"{path}: line 3 is the header; lines 1-2 above it skipped (they name no column and are not records)"
    ]


# case 4: records glued or dropped
def test_ris_record_without_er_then_one_without_ty_is_counted_not_dropped(tmp_path):
    path = tmp_path / "glued.ris"
    path.write_text(
        f"TY  - JOUR\nTI  - Kept\nAB  - {A3}\nER  - \n\n"
        f"TY  - JOUR\nTI  - First\nAB  - {A1}\n\n"  # no ER
        f"TI  - Second\nAB  - {A2}\nER  - \n"  # no TY
    )
    table, warned = read(path)
    assert table["title"].tolist() == ["Kept"]
    assert warned == [
        f"{path}: 2 record(s) do not become documents: 2 unparsable: line 6 (no 'ER  -' after it and no "
        f"'TY  -' before the record at line 10, whose 'TI' it would take), line 10 (no 'TY  -' opens it)"
    ]


def test_ris_record_without_ty_after_an_er_is_counted(tmp_path):
    path = tmp_path / "no_ty.ris"
    path.write_text(f"TY  - JOUR\nTI  - First\nAB  - {A1}\nER  - \n\nTI  - Second\nAB  - {A2}\nER  - \n")
    table, warned = read(path)
    assert table["title"].tolist() == ["First"]
    assert warned == [
        f"{path}: 1 record(s) do not become documents: 1 unparsable: line 6 (no 'TY  -' opens it, after the "
        f"'ER  -' of line 4)"
    ]


def test_medline_abstract_in_two_ab_lines_is_read_whole(tmp_path):
    path = tmp_path / "two_ab.nbib"
    path.write_text(f"PMID- 1\nTI  - Two paragraphs\nAB  - {A1}\nAB  - {A2}\nSO  - J 2020\n")
    table, _ = read(path)
    assert table["text"].tolist() == [f"{A1} {A2}"]


def test_ieee_first_page_placeholder_is_no_abstract_and_merges_nothing(tmp_path):
    path = tmp_path / "ieee.csv"
    rows = [["Document Title", "Abstract", "DOI"]]
    rows += [[f"Scanned paper {w}", "First Page of the Article", f"10.1/{k}"] for k, w in enumerate("abcdef")]
    rows += [["Bats", A1, "10.1/x"], ["Radar", A2, "10.1/y"]]
    path.write_text(_written(rows))
    table, warned = read(path)
    assert table["title"].tolist() == ["Bats", "Radar"]
    assert warned == [
        f"{path}: 6 record(s) do not become documents: 6 placeholder: line 2, line 3, line 4 and 3 more"
    ]


def test_a_snippet_shared_by_different_papers_merges_nothing(tmp_path):
    """Publish or Perish: Google Scholar's snippet, the same for papers with unrelated titles."""
    snippet = "… the proposed method outperforms the state of the art on several benchmarks …"
    path = tmp_path / "pop.csv"
    rows = [["Cites", "Authors", "Title", "Year", "Source", "Publisher", "ArticleURL", "GSRank", "Abstract"]]
    rows += [
        ["3", "A Lee", "Graph sparsification for citation networks", "2020", "J. Netw.", "", "", "1", snippet]
    ]
    rows += [
        [
            "5",
            "B Kim",
            "Protein folding with equivariant transformers",
            "2021",
            "Bioinf.",
            "",
            "",
            "2",
            snippet,
        ]
    ]
    rows += [
        ["1", "B Kim", "Protein Folding with Equivariant Transformers", "2021", "arXiv", "", "", "3", snippet]
    ]
    path.write_text(_written(rows))
    table, warned = read(path)
    assert table["doc_id"].nunique() == 2  # the two printings of one paper are one document
    assert warned == [
        f"{path}: 1 record(s) do not become documents: 1 duplicate of another record: line 4 (= line 3)"
    ]


# case 5: exports, round 2 leftovers
def test_old_scopus_csv_with_one_more_field_in_every_row(tmp_path):
    """bibliometrix's/litstudy's older Scopus CSV: every data row one field more than the
    header (the last one unnamed, empty in some rows, not in others)."""
    path = tmp_path / "scopus_old.csv"
    path.write_text(
        "Authors,Title,Year,Abstract,Source,EID\n"
        f'"Lee A.","T1",2020,"{A1}\n\nSecond paragraph.","Scopus","2-s2.0-1",\n'
        f'"Kim B.","T2",2021,"{A2}","Scopus","2-s2.0-2","x"\n'
        f'"Ng C.","T3",2022,"{A3}","Scopus","2-s2.0-3",""\n'
    )
    table, warned = read(path)
    assert table["title"].tolist() == ["T1", "T2", "T3"] and not warned
    assert table["id"].tolist() == ["2-s2.0-1", "2-s2.0-2", "2-s2.0-3"]
    assert table["column 7"].tolist() == ["", "x", ""]
    # a row one field longer than its neighbours is a stray delimiter still
    bad = tmp_path / "bad.csv"
    bad.write_text(f'Title,Abstract\nT1,"{A1}"\nT2,"{A2}",x\n')
    assert error(bad) == f"{bad}: line 3: 3 fields, the header has 2 (a stray delimiter or quote?)"


def test_ieee_and_scopus_subscripts_and_superscripts_are_text(tmp_path):
    path = tmp_path / "scopus.csv"
    rows = [["Title", "Abstract", "Author Keywords", "EID"]]
    abstract = f"Reducing CO<inf>2</inf> and Fe<sup>3+</sup> levels. {A1}"
    rows += [["CO<inf>2</inf> capture", abstract, "CO<inf>2</inf> capture; Soil", "2-s2.0-1"]]
    path.write_text(_written(rows))
    table, _ = read(path)
    assert table["title"].tolist() == ["CO2 capture"]
    assert table["keywords"].tolist() == ["CO2 capture; Soil"]
    assert table["text"].tolist()[0].startswith("Reducing CO2 and Fe3+ levels.")


def test_the_remaining_scopus_copyright_notices_are_split_off(tmp_path):
    jmir = (
        "© Gari Clifford, Tony Nguyen. Originally published in JMIR Formative Research (), 11.01.2022. This"
        " is an open-access article distributed under the terms of the Creative Commons Attribution License"
        " (), which permits unrestricted use, distribution, and reproduction in any medium, provided the"
        " original work, first published in JMIR Formative Research, is properly cited. The complete"
        " bibliographic information, a link to the original publication on, as well as this copyright and"
        " license information must be included." + " Extra licence words." * 12
    )
    path = tmp_path / "scopus.csv"
    rows = [["Title", "Abstract", "EID"]]
    rows += [["T1", f"{A1} {jmir}", "e1"], ["T2", f"{A2} Trial identifier: NCT04540315 © 2021", "e2"]]
    rows += [["T3", f"{A3} Copyrights © Roman Science Publications", "e3"]]
    rows += [["T4", "Our tool Surgeon© files photographs from a smartphone on the hospital server.", "e4"]]
    path.write_text(_written(rows))
    table, _ = read(path)
    assert table["text"].tolist()[:3] == [A1, f"{A2} Trial identifier: NCT04540315", A3]
    assert "Surgeon©" in table["text"].tolist()[3]  # a mark inside a sentence is no notice
    assert table["copyright"].tolist()[1:3] == ["© 2021", "Copyrights © Roman Science Publications"]


def test_endnote_label_is_the_users_note_not_a_label_column(tmp_path):
    path = tmp_path / "library.xml"
    path.write_text(
        '<?xml version="1.0" encoding="UTF-8"?><xml><records>'
        f"<record><titles><title>T1</title></titles><abstract>{A1}</abstract><label>Printed;Read</label></record>"
        f"<record><titles><title>T2</title></titles><abstract>{A2}</abstract><label>Read</label></record>"
        "</records></xml>"
    )
    table, _ = read(path)
    assert "label" not in table.columns
    assert table["endnote_label"].tolist() == ["Printed;Read", "Read"]


def test_pubmed_xml_saved_as_xml_says_what_it_is_and_what_to_export(tmp_path):
    path = tmp_path / "pubmed.xml"
    path.write_text(
        '<?xml version="1.0" ?>\n<!DOCTYPE PubmedArticleSet PUBLIC "-//NLM//DTD PubMedArticle, 1st January'
        ' 2024//EN" "https://dtd.nlm.nih.gov/ncbi/pubmed/out/pubmed_240101.dtd">\n<PubmedArticleSet>\n'
        "<PubmedArticle><MedlineCitation><PMID>1</PMID></MedlineCitation></PubmedArticle>\n</PubmedArticleSet>\n"
    )
    assert error(path) == (
        f"{path}: this is PubMed XML (PubmedArticleSet), which is not read; in PubMed choose Save > Format:"
        f" PubMed and list that file (MEDLINE text, .txt or .nbib) instead"
    )


def test_lens_authors_and_publish_or_perish_source_are_authors_and_venue(tmp_path):
    lens = tmp_path / "lens.csv"
    rows = [
        ["Lens ID", "Title", "Publication Year", "Source Title", "Author/s", "Abstract", "Open Access Colour"]
    ]
    rows += [["000-1", "T1", "2020", "Nature", "Ann Lee; Bo Kim", A1, "gold"]]
    lens.write_text(_written(rows))
    table, _ = read(lens)
    assert table["authors"].tolist() == ["Ann Lee; Bo Kim"] and table["journal"].tolist() == ["Nature"]
    assert table["id"].tolist() == ["000-1"]
    pop = tmp_path / "pop.csv"
    rows = [["Cites", "Authors", "Title", "Year", "Source", "Publisher", "ArticleURL", "GSRank", "Abstract"]]
    rows += [["3", "A Lee, B Kim", "T1", "2020", "J. Netw.", "Wiley", "https://x.org/1", "1", A1]]
    pop.write_text(_written(rows))
    table, _ = read(pop)
    assert table["authors"].tolist() == ["A Lee, B Kim"] and table["journal"].tolist() == ["J. Netw."]
    assert table["url"].tolist() == ["https://x.org/1"]


# issue 60 goal 2: every reader maps into the one canonical set
def test_scopus_bibtex_author_keywords_are_the_keywords_and_its_keywords_the_index_terms(tmp_path):
    path = tmp_path / "scopus.bib"
    path.write_text(
        "@ARTICLE{Lee2020,\n  author = {Lee, Ann},\n  title = {T1},\n  year = {2020},\n"
        f"  abstract = {{{A1}}},\n  author_keywords = {{Crop yield; Remote sensing}},\n"
        "  keywords = {Humans; Female; Adult},\n  source = {Scopus},\n}\n"
    )
    table, _ = read(path)
    assert table["keywords"].tolist() == ["Crop yield; Remote sensing"]
    assert table["index_keywords"].tolist() == ["Humans; Female; Adult"]
    assert "author_keywords" not in table.columns


def test_every_readers_field_map_names_canonical_columns():
    """RIS, MEDLINE, Web of Science, EndNote and the databases' CSV exports all map into
    ingest/columns.py's canonical names (bibliometrix's one tag set: AU, SO, PY, DE, ID ...)."""
    from papertopics.ingest.columns import EXPORTS, SPELLINGS, TAGS

    canonical = {*SPELLINGS, "abstract"}
    tables = {**TAGS, **{e.name: e.columns for e in EXPORTS}}
    assert set(TAGS) == {"ris", "medline", "wos", "endnote"}
    off = {name: sorted(set(table) - canonical) for name, table in tables.items() if set(table) - canonical}
    assert off == {}


SHARED_EXPORTS = Path(__file__).resolve().parents[2] / "shared" / "data" / "exports"
# export: (documents, {canonical column: documents with a value}); README of shared/ for the
# keyword counts (the authors' keywords: DE, OT, Author Keywords, KW)
EXPORT_COLUMNS = {
    "ieee-csv-legal-re-492.csv.gz": (
        492,
        {"title": 492, "authors": 491, "year": 490, "journal": 492, "keywords": 341, "doi": 474, "url": 492},
    ),
    "pubmed-medline-mapofscience-252.txt.gz": (
        249,
        {
            "id": 249,
            "title": 249,
            "authors": 249,
            "year": 249,
            "journal": 249,
            "keywords": 213,
            "index_keywords": 149,
        },
    ),
    "pubmed-medline-pybibx-sample-crlf-335.txt.gz": (
        335,
        {"id": 335, "title": 335, "authors": 335, "year": 335, "journal": 334, "keywords": 220, "doi": 331},
    ),
    "sciencedirect-bibtex-multicultural-100.bib.gz": (
        96,
        {"id": 96, "title": 96, "authors": 96, "year": 96, "journal": 90, "keywords": 95, "doi": 96},
    ),
    "scopus-csv-smart-on-fhir-701.csv.gz": (
        652,
        {
            "id": 652,
            "title": 652,
            "authors": 652,
            "year": 652,
            "journal": 652,
            "keywords": 524,
            "index_keywords": 507,
        },
    ),
    "wos-plain-capture-recapture-500.txt.gz": (
        499,
        {
            "id": 499,
            "title": 499,
            "authors": 499,
            "year": 492,
            "journal": 499,
            "keywords": 425,
            "index_keywords": 491,
        },
    ),
    "wos-plain-tr-wok-500.txt.gz": (
        499,
        {
            "id": 499,
            "title": 499,
            "authors": 499,
            "year": 499,
            "journal": 499,
            "keywords": 261,
            "index_keywords": 495,
        },
    ),
    "wos-ris-polcomm.ris.gz": (
        484,
        {"title": 484, "authors": 484, "year": 439, "journal": 484, "keywords": 451, "doi": 484},
    ),
}


@pytest.mark.skipif(not SHARED_EXPORTS.is_dir(), reason="needs ../shared/data/exports")
@pytest.mark.parametrize("name", sorted(EXPORT_COLUMNS))
def test_each_shared_export_gives_its_canonical_columns(name):
    table, _ = read(SHARED_EXPORTS / name)
    documents, filled = EXPORT_COLUMNS[name]
    assert len(table) == documents
    assert {c: int((table[c] != "").sum()) for c in filled if c in table.columns} == filled


def test_an_excel_record_titled_text_is_not_the_header(tmp_path):
    import openpyxl

    path = tmp_path / "body.xlsx"
    book = openpyxl.Workbook()
    for row in (["Title", "Body", "Year"], ["A study", A1, "2020"], ["Text", A2, "2021"]):
        book.active.append(row)
    book.save(path)
    assert error(path) == (
        f"{path}: no text column (looked for abstract, text, summary, Abstract Note, AB, description and"
        f" other spellings in docs/listings.md); columns found: Title, Body, Year; set"
        f" 'columns: {{text: ...}}'"
    )
    table, _ = read(path, columns={"text": "Body"})
    assert table["title"].tolist() == ["A study", "Text"]


def test_records_with_one_abstract_are_one_paper_only_on_a_doi_or_a_matching_title():
    """Hand-worked: the abstract key is equal in every call; what decides is the DOI or title."""
    from papertopics.ingest.identity import Duplicates

    seen = Duplicates()
    assert seen.place(
        "k", "Zeroth-Order Methods for Nonsmooth, Nonconvex, and Hierarchical FL", "", "line 1"
    ) == (
        "k",
        None,
    )
    # 8 of the 9 words of the shorter title: a retitled version
    assert seen.place(
        "k", "Zeroth-order methods for nondifferentiable, nonconvex, and hierarchical FL", "", "line 2"
    ) == (
        "k",
        "line 1",
    )
    assert seen.place("k", "", "", "line 3") == ("k", "line 1")  # no title: nothing says otherwise
    other, first = seen.place("k", "Graph sparsification for citation networks", "", "line 4")
    assert first is None and other != "k"  # unrelated words: another paper, another document
    assert seen.place("k", "Graph Sparsification for Citation Networks!", "", "line 5") == (other, "line 4")
    by_doi = Duplicates()
    by_doi.place("k", "A title", "10.1/A", "line 1")
    assert by_doi.place("k", "Something else entirely", "10.1/a", "line 2") == ("k", "line 1")
    assert by_doi.place("k", "", "10.1/b", "line 3")[1] is None  # no title, another DOI


ICLR = SHARED_EXPORTS.parent / "iclr2026-sample" / "iclr2026-sample.jsonl.gz"


@pytest.mark.skipif(not ICLR.is_file(), reason="needs ../shared/data/iclr2026-sample")
def test_the_iclr_sample_written_by_csv_writer_reads_whole(tmp_path):
    """Issue 57 case 1 as found: csv.writer's output of the ICLR sample stopped at line 551."""
    import gzip
    import json

    papers = [json.loads(line) for line in gzip.open(ICLR, "rt", encoding="utf-8")]
    rows = [["title", "abstract", "primary_area"]] + [
        [p["title"], p["abstract"], p["primary_area"]] for p in papers
    ]
    path = tmp_path / "iclr.csv"
    path.write_text(_written(rows), encoding="utf-8")
    table, warned = read(path)
    assert len(table) == len(papers) == 1000 and not warned
    as_jsonl, _ = read(ICLR)  # the same records as the JSONL reader reads them
    assert table["text_raw"].tolist() == as_jsonl["text_raw"].tolist()
    assert table["title"].tolist() == as_jsonl["title"].tolist()


def test_a_stray_quote_that_would_swallow_the_next_record_stays_an_error(tmp_path):
    path = tmp_path / "swallow.csv"
    path.write_text(f'title,abstract,year\nT1,"{A1},2020\nT2,"{A2}",2021\nT3,"{A3}",2022\n')
    assert error(path).startswith(f"{path}: line 3: malformed CSV")


def test_an_unquoted_comma_in_every_row_is_not_an_unnamed_column(tmp_path):
    """Every row one field longer, the last never empty: `Lee, Ann` unquoted, not old Scopus."""
    path = tmp_path / "authors.csv"
    path.write_text(f"Authors,Title,Abstract\nLee, Ann,T1,{A1}\nKim, Bo,T2,{A2}\n")
    assert error(path) == f"{path}: line 2: 4 fields, the header has 3 (a stray delimiter or quote?)"
