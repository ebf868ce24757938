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
    table, _ = read(path, columns={"text": "Body"})
    assert table["title"].tolist() == ["A study", "Text"]
    assert table["text"].tolist()[1] == A2


def test_a_data_row_naming_abstract_on_line_4_is_not_the_header(tmp_path):
    path = tmp_path / "typ.csv"
    rows = [["Typ", "Title", "Summary text"], ["Article", "T1", A1], ["Article", "T2", A2], ["Abstract", "T3", A3]]
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
    rows = [["Cites", "Authors", "Title", "Year", "Source", "Abstract"]]
    rows += [["3", "A Lee", "Graph sparsification for citation networks", "2020", "J. Netw.", snippet]]
    rows += [["5", "B Kim", "Protein folding with equivariant transformers", "2021", "Bioinf.", snippet]]
    rows += [["1", "B Kim", "Protein Folding with Equivariant Transformers", "2021", "arXiv", snippet]]
    path.write_text(_written(rows))
    table, warned = read(path)
    assert table["doc_id"].nunique() == 2  # the two printings of one paper are one document
    assert warned == [f"{path}: 1 record(s) do not become documents: 1 duplicate of another record: line 4 (= line 3)"]
    assert table["authors"].tolist()[0] == "A Lee" and table["journal"].tolist()[0] == "J. Netw."
