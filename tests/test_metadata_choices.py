"""Issue 65 (dates 1-4, two columns for one field 5-6, readers 13-15): metadata read as the
export means it, and every choice among columns or values said in one line."""

import datetime as dt
import warnings
from pathlib import Path

import pandas as pd
import pytest
from conftest import shared_export
from dateutil.parser import parserinfo
from hypothesis import given, settings
from hypothesis import strategies as st
from test_readers_round6 import A1, A2, A3, error, read  # round 6's readers, the same helpers

from papertopics.ingest.dates import add_dates, parse_date
from papertopics.ingest.text import split_abstract

FIXTURES = Path(__file__).parent / "fixtures"


# item 13: IEEE Xplore never doubles a quote inside a quoted field
_IEEE = [
    "Document Title", "Authors", "Author Affiliations", "Publication Title", "Date Added To Xplore",
    "Publication Year", "Volume", "Issue", "Start Page", "End Page", "Abstract", "ISSN", "ISBNs", "DOI",
    "Funding Information", "PDF Link", "Author Keywords", "IEEE Terms", "INSPEC Controlled Terms",
    "INSPEC Non-Controlled Terms", "Mesh_Terms", "Article Citation Count", "Patent Citation Count",
    "Reference Count", "License", "Online Date", "Issue Date", "Meeting Date", "Publisher",
    "Document Identifier",
]  # fmt: skip
EUROCON = 'EUROCON 2007 - The International Conference on "Computer as a Tool"'


def _ieee_row(title, venue, abstract, year="2007"):
    values = dict.fromkeys(_IEEE, "")
    values.update({
        "Document Title": title, "Authors": "A. Lee; B. Kim", "Publication Title": venue,
        "Publication Year": year, "Abstract": abstract, "DOI": "10.1109/EURCON.2007.1",
        "PDF Link": "https://ieeexplore.ieee.org/stamp/stamp.jsp?arnumber=1", "IEEE Terms": "Logic;Law",
        "Publisher": "IEEE", "Document Identifier": "IEEE Conferences",
    })  # fmt: skip
    return ",".join(f'"{values[c]}"' for c in _IEEE)  # as IEEE writes it: every quote as it is


def test_an_ieee_csv_with_undoubled_quotes_before_the_closing_quote_is_read(tmp_path):
    """`"... on "Computer as a Tool""`: the stray quote ends the field's text, the next one
    closes it; Python's csv module reads such a file as one field too few or many per record."""
    path = tmp_path / "ieee.csv"
    rows = [
        _ieee_row("Rule-based legal reasoning", EUROCON, A1),
        _ieee_row('A "smart" contract language', "IEEE Software", A2),
        _ieee_row('Requirements from "law"', EUROCON, f'{A3} We call it "compliance by design".'),
    ]
    path.write_text(",".join(f'"{c}"' for c in _IEEE) + "\n" + "\n".join(rows) + "\n", encoding="utf-8")
    table, warned = read(path)
    assert table["title"].tolist() == [
        "Rule-based legal reasoning",
        'A "smart" contract language',
        'Requirements from "law"',
    ]
    assert table["journal"].tolist() == [EUROCON, "IEEE Software", EUROCON]
    assert table["text_raw"].tolist()[2].endswith('"compliance by design".')
    assert table["document_type"].tolist() == ["IEEE Conferences"] * 3  # every field in its column
    assert warned[0] == (
        f'{path}: line 2: a quote (") inside a field is not doubled; read as text, 3 records as the '
        f"header's {len(_IEEE)} columns say"
    )
    assert len(warned) == 1  # IEEE Terms beside an empty Mesh_Terms: no choice made, none said


# item 14: an older Scopus CSV whose header leaves "Funding Text 2" unnamed
_SCOPUS = ["Authors", "Title", "Year", "Abstract", "Funding Details", "Funding Text 1", "References", "EID"]


def test_an_older_scopus_csv_with_an_unnamed_column_mid_row_is_read_with_it_unnamed(tmp_path):
    path = tmp_path / "scopus_old.csv"
    lines = [
        ",".join(f'"{c}"' for c in _SCOPUS),
        f'"Lee A.","T1","2019","{A1}","","","R1","2-s2.0-1"',
        f'"Kim B.","T2","2020","{A2}","NSF","Funded by NSF.","Also by ERC.","R2","2-s2.0-2"',
        f'"Ng C.","T3","2021","{A3}","","","R3","2-s2.0-3"',
    ]
    path.write_text("\n".join(lines) + "\n")
    table, warned = read(path)
    assert table["id"].tolist() == ["2-s2.0-1", "2-s2.0-2", "2-s2.0-3"]
    assert table["cited_references"].tolist() == ["R1", "R2", "R3"]
    assert table["column 7"].tolist() == ["", "Also by ERC.", ""]
    line = (
        f"{path}: the header names 8 columns, 1 of 3 records hold 9: the column after 'Funding Text 1' "
        "has no name (Scopus's 'Funding Text 2'); read as 'column 7'"
    )
    assert warned == [line]
    assert table.attrs["choices"] == [{"field": "columns", "line": line}]
    # every record wider, its last field the EID: the same column, unnamed
    every = tmp_path / "every.csv"
    every.write_text("\n".join([lines[0], lines[2], lines[2].replace("T2", "T4").replace("-2", "-4")]) + "\n")
    assert read(every)[0]["column 7"].tolist() == ["Also by ERC.", "Also by ERC."]
    # no numbered column to stand beside: the error as before
    bad = tmp_path / "bad.csv"
    bad.write_text("\n".join([lines[0].replace('"Funding Text 1"', '"Funding Text"'), *lines[1:]]) + "\n")
    assert error(bad) == f"{bad}: line 3: 9 fields, the header has 8 (a stray delimiter or quote?)"


# items 1-4: dates
def _dated(table, today=dt.date(2026, 12, 7)):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out = add_dates(table, today=today)
    return out, [str(w.message) for w in caught]


def _wos_bib(year, month, key):
    return (
        f"@article{{ {key},\nAuthor = {{Lee, Ann}},\nTitle = {{Paper {key}}},\nJournal = {{ECOLOGY}},\n"
        f"Year = {{{year}}},\nVolume = {{101}},\nMonth = {{{month}}},\nAbstract = {{{A1} {key}}},\n"
        f"DA = {{2024-05-31}},\nUnique-ID = {{WOS:{key}}},\n}}\n"
    )


def test_web_of_science_bibtex_da_is_the_files_date_and_its_month_is_read(tmp_path):
    path = tmp_path / "savedrecs.bib"
    path.write_text("\n".join([_wos_bib(2024, "FEB", "1"), _wos_bib(2021, "SEP", "2")]))
    table, warned = read(path)
    assert table["date_generated"].tolist() == ["2024-05-31", "2024-05-31"]
    line = (
        f"{path}: DA (2 record(s)) is the day Web of Science generated the file, not a publication "
        "date: kept as date_generated; the dates are Year and Month"
    )
    assert line in warned and {"field": "date", "line": line} in table.attrs["choices"]
    dated, _ = _dated(table.assign(doc_id=["a", "b"]))
    assert dated["published"].tolist() == ["2024-02", "2021-09"]


_MONTH_WORDS = [
    "jan", "january", "feb", "february", "mar", "march", "apr", "april", "may", "jun", "june", "jul",
    "july", "aug", "august", "sep", "sept", "september", "oct", "october", "nov", "november", "dec",
    "december",
]  # fmt: skip


@pytest.mark.parametrize("word", ["Decision", "Marine", "Mayo", "Junior", "Augmented", "Novel"])
def test_a_word_that_begins_with_a_month_names_no_month(word):
    assert parse_date(f"{word} 2020") == "2020"
    assert parse_date(f"{word} 14, 2020") == "2020"


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(_MONTH_WORDS),
    st.text(st.characters(whitelist_categories=("Ll", "Lu")), max_size=4),
    st.text(st.characters(whitelist_categories=("Ll", "Lu")), max_size=4),
    st.sampled_from(["{} 2020", "2020 {}", "{}. 2020", "15 {} 2020"]),
)
def test_month_names_are_whole_words_only(month, before, after, form):
    word = before + month.title() + after
    expected = parserinfo().month(word)  # the word itself a month's name ("Sept", "June"): a month
    read = parse_date(form.format(word))
    if expected is None:
        assert read == "2020"
    else:
        assert read.startswith(f"2020-{expected:02d}")


def test_day_or_month_first_is_decided_per_listing_not_on_the_merged_corpus():
    corpus = pd.DataFrame(
        {
            "doc_id": ["u1", "u2", "s1", "s2", "x1"],
            "listings": ["uk", "uk", "us", "us;uk", "open"],
            "date": ["31/12/2020", "01/02/2020", "01/02/2020", "12/31/2020", "03/04/2021"],
        }
    )
    dated, lines = _dated(corpus)
    assert dated["published"].tolist() == [
        "2020-12-31",
        "2020-02-01",
        "2020-01-02",
        "2020-12-31",
        "2021-04-03",
    ]
    assert lines == [
        "dates: open: column 'date' writes dd/mm or mm/dd with no day above 12: the order cannot be "
        "decided, read day-first"
    ]
    assert dated.attrs["choices"] == [{"field": "date", "line": lines[0]}]
    mixed, lines = _dated(
        pd.DataFrame({"doc_id": ["a", "b"], "listings": "m", "date": ["31/12/2020", "12/31/2020"]})
    )
    assert mixed["published"].tolist() == ["2020-12-31", ""]
    assert lines[0] == (
        "dates: m: column 'date' writes dates day-first ('31/12/2020') and month-first ('12/31/2020'): "
        "the order cannot be decided, read day-first (the month-first ones are impossible dates)"
    )


def test_next_years_cover_dates_are_dates_and_two_digit_and_academic_years_are_said():
    corpus = pd.DataFrame(
        {
            "doc_id": ["a", "b", "c", "d", "e", "f"],
            "listings": "mine",
            "year": ["2027", "", "", "", "'19", "2028"],
            "date": ["JAN 2027", "5/17/19", "2021/22", "2021/2022", "", ""],
        }
    )
    dated, lines = _dated(corpus)
    assert dated["published"].tolist() == ["2027-01", "2019-05-17", "2021", "2021", "2019", ""]
    assert lines == [
        "dates: mine: column 'year': 1 two-digit year(s) read in the century within 50 years of 2026, "
        'as dateutil reads them ("\'19" in e -> 2019)',
        "dates: mine: column 'date': 1 two-digit year(s) read in the century within 50 years of 2026, "
        "as dateutil reads them ('5/17/19' in b -> 2019-05-17)",
        "dates: mine: column 'date': 2 academic year(s) read as their first year ('2021/22' in c -> 2021, "
        "'2021/2022' in d -> 2021)",
        "dates: mine: 1 year(s) after 2027 or before 1900 ('2028' in f): left undated",
    ]


# items 5-6: two columns for one field
def test_a_second_spelling_of_a_field_fills_the_rows_the_first_leaves_empty(tmp_path):
    path = tmp_path / "merged.csv"
    path.write_text(
        "Title,Abstract,Year,Publication Year,Keywords,Author Keywords,Cited by,Times Cited\n"
        f'T1,"{A1}",2020,2020,sae,,3,\n'
        f'T2,"{A2}",,2018,,diffusion; erasure,,7\n'
        f'T3,"{A3}",2031,,gnn,over-smoothing,,\n'
    )
    table, warned = read(path)
    assert table["year"].tolist() == ["2020", "2018", "2031"]
    assert table["keywords"].tolist() == ["sae", "diffusion; erasure", "gnn"]
    assert table["cited_by"].tolist() == ["3", "7", ""]
    assert table["Publication Year"].tolist() == ["2020", "2018", ""]  # the other column as it was
    lines = [
        f"{path}: columns 'Year' and 'Publication Year' both spell year: each row reads 'Year', where it "
        "is empty the next: 1 row(s) from 'Publication Year'",
        f"{path}: columns 'Keywords' and 'Author Keywords' both spell keywords: each row reads "
        "'Keywords', where it is empty the next: 1 row(s) from 'Author Keywords'; 1 row(s) whose "
        "columns differ keep 'Keywords'",
        f"{path}: columns 'Cited by' and 'Times Cited' both spell cited_by: each row reads 'Cited by', "
        "where it is empty the next: 1 row(s) from 'Times Cited'",
    ]
    assert warned == lines
    assert table.attrs["choices"] == [
        {"field": f, "line": line} for f, line in zip(["year", "keywords", "cited_by"], lines, strict=True)
    ]
    dated, _ = _dated(table.assign(doc_id=["a", "b", "c"]))
    assert dated["published"].tolist() == ["2020", "2018", ""]
    # a column config.yaml names is read alone
    mapped, warned = read(path, columns={"year": "Year"})
    assert mapped["year"].tolist() == ["2020", "", "2031"] and len(warned) == 2


def test_ieee_terms_are_the_index_keywords(tmp_path):
    path = shared_export(tmp_path, "ieee-csv-legal-re-492.csv")
    table, warned = read(path)
    terms = table["IEEE Terms"] if "IEEE Terms" in table else None
    assert terms is None  # carried as index_keywords, not under its own name
    assert table["index_keywords"].ne("").sum() == 450
    assert table["Mesh_Terms"].ne("").sum() == 2
    line = (
        f"{path}: columns 'IEEE Terms' and 'Mesh_Terms' both spell index_keywords: each row reads "
        "'IEEE Terms', where it is empty the next: 0 row(s) from 'Mesh_Terms'; 2 row(s) whose columns "
        "differ keep 'IEEE Terms'"
    )
    assert line in warned


def test_openalex_keywords_and_zotero_tags_are_not_the_authors_keywords():
    openalex, _ = read(FIXTURES / "openalex.json")
    assert "keywords" not in openalex and openalex["index_keywords"].ne("").any()
    zotero, _ = read(FIXTURES / "zotero.csv")
    assert "keywords" not in zotero
    assert zotero["tags"].tolist() == ["diet; mustelids", "camera traps", ""]
    assert zotero["index_keywords"].tolist() == ["Animals; Rivers", "", ""]


# item 15: cleaning leftovers
def test_mendeley_italics_and_acm_mathml_titles_read_as_text(tmp_path):
    ris = tmp_path / "mendeley.ris"
    ris.write_text(
        "TY  - JOUR\nTI  - Effects of &lt;I&gt;Escherichia coli&lt;/I&gt; on "
        "&lt;I&gt;in vitro&lt;/I&gt; growth\n"
        f"AB  - {A1} The &lt;I&gt;E. coli&lt;/I&gt; strain grew.\nPY  - 2019\nER  - \n"
        f"TY  - JOUR\nTI  - A <I>Drosophila</I> atlas\nAB  - {A2}\nPY  - 2020\nER  - \n"
    )
    table, _ = read(ris)
    assert table["title"].tolist() == ["Effects of Escherichia coli on in vitro growth", "A Drosophila atlas"]
    assert table["text"].tolist()[0].endswith("The E. coli strain grew.")
    bib = tmp_path / "acm.bib"
    bib.write_text(
        '@inproceedings{k1,\ntitle = {Learning <inline-formula> <tex-math notation="LaTeX">\\(k\\)</tex-math>'
        " </inline-formula>-Sparse Codes},\n"
        f'abstract = {{{A1} We recover <inline-formula><tex-math notation="LaTeX">$k$</tex-math>'
        "</inline-formula> atoms.},\nyear = {2023}\n}\n"
    )
    table, _ = read(bib)
    assert table["title"].tolist() == ["Learning $k$-Sparse Codes"]
    assert table["text"].tolist()[0].endswith("We recover k atoms.")


@pytest.mark.parametrize(
    "notice",
    [
        "© International Headache Society 2023.",
        "(C)12 Elsevier Ltd. All rights reserved.",
        "Copyright © 1995, Wiley Blackwell. All rights reserved",
        "Copyright © 1995 Wiley-Liss, Inc.",
    ],
)
@pytest.mark.parametrize("where", ["end", "end, no full stop before", "start"])
def test_copyright_notices_in_the_forms_the_cleaner_missed_are_split_off(notice, where):
    body = A1 + " " + A2
    if where == "start":
        raw = f"{notice} {body}"
    elif where == "end":
        raw = f"{body} {notice}"
    else:
        raw = f"{body[:-1]} {notice}"
        if notice.startswith("(C)12"):
            return  # "(C)12" needs its full stop before: "(c) 12 Patients ..." is a list item
        body = body[:-1]
    assert split_abstract(raw) == (body, notice)


def test_what_only_looks_like_a_notice_stays_in_the_abstract():
    for raw in (
        f"{A1} (c) 12 Patients were enrolled in 2019 and followed. {A2}",
        f"{A1} Copyright law in 2020 changed how {A2}",
        f"© 2023 Elsevier Ltd. All rights reserved. {A1[:40]}",  # too short to be an abstract after it
    ):
        body, notice = split_abstract(raw)
        assert (body, notice) == (raw, "") or not body
