"""Issue 65 (dates 1-4, two columns for one field 5-6, readers 13-15): metadata read as the
export means it, and every choice among columns or values said in one line."""

import warnings
from pathlib import Path

import pytest

from papertopics.errors import ListingError
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
    return str(exc.value)


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
    assert table["Document Identifier"].tolist() == ["IEEE Conferences"] * 3  # every field in its column
    assert warned == [
        f'{path}: line 2: a quote (") inside a field is not doubled; read as text, 3 records as the '
        f"header's {len(_IEEE)} columns say"
    ]


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
    assert table["References"].tolist() == ["R1", "R2", "R3"]
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
