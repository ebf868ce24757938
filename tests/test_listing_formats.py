"""Listings from reference managers and data tools: BibTeX, RIS, Excel .xlsx and Parquet."""

import gzip
import warnings
from pathlib import Path

import openpyxl
import pandas as pd
import pytest

from papertopics.errors import ConfigError, ListingError
from papertopics.ingest.listings import (
    ListingSpec,
    ListingWarning,
    listing_name,
    read_listing,
    resolve_listings,
)

FIXTURES = Path(__file__).resolve().parent / "fixtures"
BIB = FIXTURES / "zotero.bib"
RIS = FIXTURES / "scopus.ris"

A1 = "We study sparse autoencoders and find that polysemanticity is a data problem in language models."
A2 = "Diffusion models erase concepts poorly; we propose a fix that keeps image quality high."


def spec(path, **kw):
    return ListingSpec(kw.pop("name", listing_name(path)), Path(path), **kw)


def read(path, **kw):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        table = read_listing(spec(path, **kw))
    return table, [str(w.message) for w in caught if issubclass(w.category, ListingWarning)]


def error(path, **kw) -> str:
    with pytest.raises(ListingError) as exc:
        read_listing(spec(path, **kw))
    msg = str(exc.value)
    assert "\n" not in msg and msg.startswith(str(path)), msg
    return msg


def test_zotero_bibtex_decodes_accents_braces_and_names():
    table, warned = read(BIB)
    assert listing_name(BIB) == "zotero"
    keys = ["muller_schrodinger_2023", "nunez_graph_2022", "dubois_reinforcement_2023"]
    assert table["id"].tolist() == keys
    first = table.iloc[0]
    assert first["title"] == "Schrödinger bridges for Pokémon image generation"
    assert first["authors"] == "Jörg Müller; María García; Ann van der Berg"
    assert first["year"] == "2023"
    assert first["doi"] == "10.5555/3666122.3666123"
    assert first["url"] == "https://example.org/papers/schrodinger-bridges"
    assert first["booktitle"] == "Advances in Neural Information Processing Systems"
    # accents and braces decoded for display; math kept for clean_text, which renders it
    assert "Schrödinger bridge models" in first["text_raw"] and "{" not in first["text_raw"]
    assert "5% in FID & precision" in first["text_raw"]
    assert "l1 reconstruction loss" in first["text"] and "GAN baselines" in first["text"]
    assert table.iloc[1]["authors"] == "José Núñez; Søren Østergaard"
    assert table.iloc[2]["title"] == "Offline reinforcement learning with épistémic uncertainty"
    assert table.iloc[2]["authors"] == "Renée Dubois; Ayşe Koç"
    # the entry without an abstract is counted, never dropped silently
    assert warned == [f"{BIB}: skipped 1 record(s) with an empty abstract: line 24 (chen_no_abstract_2024)"]


def test_bibtex_column_mapping_and_gzip(tmp_path):
    gz = tmp_path / "refs.bib.gz"
    gz.write_bytes(gzip.compress(BIB.read_bytes()))
    table, _ = read(gz, columns={"label": "booktitle", "text": "abstract"})
    assert listing_name(gz) == "refs"
    assert table["label"].tolist()[0] == "Advances in Neural Information Processing Systems"
    assert "booktitle" not in table.columns and len(table) == 3


def test_bibtex_bad_input(tmp_path):
    broken = tmp_path / "broken.bib"
    cut = "\n@article{cut,\n  title = {oops\n"
    broken.write_text(BIB.read_text(encoding="utf-8") + cut, encoding="utf-8")
    table, warned = read(broken)  # one entry cut short loses itself, not the listing
    assert len(table) == 3
    assert (
        f"{broken}: skipped 1 BibTeX record(s) that do not parse: line 39 (Unexpectedly reached end of file.)"
        in warned
    )
    only = tmp_path / "only.bib"
    only.write_text(cut, encoding="utf-8")
    assert error(only) == f"{only}: no readable BibTeX entry; line 2 (Unexpectedly reached end of file.)"
    none = tmp_path / "none.bib"
    none.write_text("% just a comment\n", encoding="utf-8")
    assert error(none) == f"{none}: no BibTeX entries (no '@article{{...}}' or similar)"
    no_abstracts = tmp_path / "titles.bib"
    no_abstracts.write_text("@misc{a, title={One}}\n@misc{b, title={Two}}\n", encoding="utf-8")
    assert "no text column (looked for abstract, text, summary); columns found: id, type, title" in error(
        no_abstracts
    )


def test_duplicate_bibtex_keys_are_both_read(tmp_path):
    path = tmp_path / "dup.bib"
    path.write_text(f"@misc{{a, abstract={{{A1}}}}}\n@misc{{a, abstract={{{A2}}}}}\n", encoding="utf-8")
    table, _ = read(path)
    assert table["text"].tolist() == [A1, A2]


def test_ris_abstract_title_author_tags_and_their_alternatives():
    table, warned = read(RIS)
    assert table["title"].tolist() == [
        "Sparse attention for long document summarisation",
        "Federated learning under label shift",
    ]
    assert table["authors"].tolist() == ["Okafor, Chidi; Lindqvist, Åsa", "Tanaka, Hiro"]
    assert table["year"].tolist() == ["2023", "2022"]  # PY 2022/// -> 2022
    assert table["doi"].tolist() == ["10.1016/j.example.2023.01.001", ""]
    assert table["url"].tolist() == ["https://example.org/papers/sparse-attention", ""]
    assert table["keywords"].tolist() == ["summarisation; transformers", ""]
    assert table["text"].iloc[1].startswith("Clients in federated learning")  # N2 when no AB
    assert warned == [f"{RIS}: skipped 1 record(s) with an empty abstract: line 20"]


def test_ris_bad_input(tmp_path):
    unclosed = tmp_path / "unclosed.ris"
    unclosed.write_text(f"TY  - JOUR\nAB  - {A1}\nER  - \n\nTY  - JOUR\nAB  - {A2}\n", encoding="utf-8")
    table, warned = read(unclosed)
    assert table["text"].tolist() == [A1]
    assert warned == [
        f"{unclosed}: skipped 1 RIS record(s) that do not parse: line 5 (no 'ER  -' before the end)"
    ]
    only = tmp_path / "only.ris"
    only.write_text(f"TY  - JOUR\nAB  - {A2}\n", encoding="utf-8")
    assert error(only) == f"{only}: no readable RIS record; line 1 (no 'ER  -' before the end)"
    not_ris = tmp_path / "notes.ris"
    not_ris.write_text("title,abstract\nx,y\n", encoding="utf-8")
    assert error(not_ris) == f"{not_ris}: no RIS records (no line starting 'TY  -')"


def _workbook(path: Path, sheets: dict[str, list[list]]) -> Path:
    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows in sheets.items():
        sheet = book.create_sheet(name)
        for row in rows:
            sheet.append(row)
    book.save(path)
    return path


def test_excel_first_sheet_or_a_named_one_with_columns_mapped(tmp_path):
    path = _workbook(
        tmp_path / "committee.xlsx",
        {
            "Accepted": [
                ["Paper Title", "Abstract Text", "Year", "Track"],
                ["NA", A1, 2026, "Main"],
                ["Empty one", None, 2026, "Main"],
                ["Second", A2, 2025, "Datasets"],
            ],
            "Rejected": [["abstract", "title"], [A2, "Rejected paper"]],
        },
    )
    table, warned = read(path, columns={"text": "Abstract Text", "title": "Paper Title", "label": "Track"})
    assert table["title"].tolist() == ["NA", "Second"]  # "NA" stays text
    assert table["Year"].tolist() == ["2026", "2025"]
    assert table["label"].tolist() == ["Main", "Datasets"]
    assert warned == [f"{path}: skipped 1 record(s) with an empty abstract: row 3"]
    table, _ = read(path, sheet="Rejected")
    assert table["title"].tolist() == ["Rejected paper"]
    table, _ = read(path, sheet=1)
    assert table["title"].tolist() == ["Rejected paper"]
    assert error(path, sheet="Posters") == f"{path}: no sheet 'Posters'; sheets: Accepted, Rejected"
    assert error(path) == (
        f"{path}: no text column (looked for abstract, text, summary); columns found: Paper Title, "
        f"Abstract Text, Year, Track; set 'columns: {{text: ...}}'"
    )


def test_excel_bad_input(tmp_path):
    fake = tmp_path / "old.xlsx"
    fake.write_bytes(b"\xd0\xcf\x11\xe0 an old binary .xls renamed")
    assert error(fake).startswith(f"{fake}: not an Excel workbook (")
    header_only = _workbook(tmp_path / "header.xlsx", {"S": [["title", "abstract"]]})
    assert error(header_only) == f"{header_only}: header row but no records"
    csv = tmp_path / "a.csv"
    csv.write_text(f"abstract\n{A1}\n", encoding="utf-8")
    assert (
        error(csv, sheet="S")
        == f"{csv}: 'sheet' applies to Excel (.xlsx, .xls) listings only, this one is csv"
    )


def test_parquet_columns_lists_and_nulls(tmp_path):
    path = tmp_path / "papers.parquet"
    pd.DataFrame(
        {
            "uid": ["p1", "p2", "p3"],
            "summary": [A1, None, A2],
            "title": ["NA", "Lost", "=SUM(A1:A2)"],
            "authors": [["Ann", "Bob"], [], ["Cy"]],
            "year": [2023, 2024, 2025],
        }
    ).to_parquet(path)
    table, warned = read(path)
    assert table["id"].tolist() == ["p1", "p3"]
    assert table["title"].tolist() == ["NA", "=SUM(A1:A2)"]
    assert table["authors"].tolist() == ["Ann; Bob", "Cy"]
    assert table["year"].tolist() == ["2023", "2025"]
    assert warned == [f"{path}: skipped 1 record(s) with an empty abstract: row 2"]
    broken = tmp_path / "broken.parquet"
    broken.write_bytes(b"PAR1 not really")
    assert error(broken).startswith(f"{broken}: not a valid Parquet file (")


def test_resolve_accepts_sheet_and_new_formats(tmp_path):
    for name in ("a.bib", "b.ris", "c.xlsx", "d.parquet"):
        (tmp_path / name).write_text("x", encoding="utf-8")
    specs = resolve_listings(
        ["a.bib", "b.ris", {"path": "c.xlsx", "sheet": "Accepted"}, {"path": "d.parquet", "format": "pq"}],
        tmp_path,
    )
    assert [(s.name, s.sheet, s.format) for s in specs] == [
        ("a", None, None),
        ("b", None, None),
        ("c", "Accepted", None),
        ("d", None, "parquet"),
    ]
    with pytest.raises(ConfigError, match=r"listings\[0\]: 'sheet' must be a sheet name or a 0-based"):
        resolve_listings([{"path": "c.xlsx", "sheet": -1}], tmp_path)
    with pytest.raises(
        ConfigError, match="one of text, csv, tsv, json, jsonl, bibtex, ris, wos, wos-tab, medline"
    ):
        resolve_listings([{"path": "c.xlsx", "format": "xml"}], tmp_path)
