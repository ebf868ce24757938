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
    assert warned == [
        f"{BIB}: 1 record(s) do not become documents: 1 empty abstract: line 24 (chen_no_abstract_2024)"
    ]


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
    assert warned == [  # one line, by cause
        f"{broken}: 2 record(s) do not become documents: 1 unparsable: line 39 (Unexpectedly reached end "
        f"of file.); 1 empty abstract: line 24 (chen_no_abstract_2024)"
    ]
    only = tmp_path / "only.bib"
    only.write_text(cut, encoding="utf-8")
    assert error(only) == f"{only}: no readable BibTeX entry; line 2 (Unexpectedly reached end of file.)"
    none = tmp_path / "none.bib"
    none.write_text("% just a comment\n", encoding="utf-8")
    assert error(none) == f"{none}: no BibTeX entries (no '@article{{...}}' or similar)"
    no_abstracts = tmp_path / "titles.bib"
    no_abstracts.write_text("@misc{a, title={One}}\n@misc{b, title={Two}}\n", encoding="utf-8")
    assert (
        "no text column (looked for abstract, text, summary, Abstract Note, AB, description and other "
        "spellings in docs/listings.md); columns found: id, document_type, title" in error(no_abstracts)
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
    assert warned == [f"{RIS}: 1 record(s) do not become documents: 1 empty abstract: line 20"]


def test_ris_bad_input(tmp_path):
    unclosed = tmp_path / "unclosed.ris"
    unclosed.write_text(f"TY  - JOUR\nAB  - {A1}\nER  - \n\nTY  - JOUR\nAB  - {A2}\n", encoding="utf-8")
    table, warned = read(unclosed)
    assert table["text"].tolist() == [A1]
    assert warned == [
        f"{unclosed}: 1 record(s) do not become documents: 1 unparsable: line 5 (no 'ER  -' before the end)"
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
    assert table["year"].tolist() == ["2026", "2025"]  # a canonical column, whatever its capitals
    assert table["label"].tolist() == ["Main", "Datasets"]
    assert warned == [f"{path}: 1 record(s) do not become documents: 1 empty abstract: row 3"]
    table, _ = read(path, sheet="Rejected")
    assert table["title"].tolist() == ["Rejected paper"]
    table, _ = read(path, sheet=1)
    assert table["title"].tolist() == ["Rejected paper"]
    assert error(path, sheet="Posters") == f"{path}: no sheet 'Posters'; sheets: Accepted, Rejected"
    # "Abstract Text" and "Paper Title" are spellings the columns table knows: no mapping needed
    assert read(path)[0]["title"].tolist() == ["NA", "Second"]


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
    assert warned == [f"{path}: 1 record(s) do not become documents: 1 empty abstract: row 2"]
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
        ConfigError,
        match="one of text, csv, tsv, json, jsonl, bibtex, ris, endnote-xml, wos, wos-tab, medline",
    ):
        resolve_listings([{"path": "c.xlsx", "format": "xml"}], tmp_path)


# --- exports as the tools write them ---------------------------------------------------------


def test_scopus_bibtex_keys_with_commas_placeholder_abstracts_and_copyright_lines():
    path = FIXTURES / "scopus.bib"
    table, warned = read(path)
    assert table["id"].tolist() == ["Ribeiro, Jr2022", "Müller2023"]  # the key as Scopus wrote it
    assert table["authors"].tolist()[0] == "José Ribeiro Jr; Ana Paula Silva; Bruno Costa"
    first = table.iloc[0]
    assert first["title"] == "Machine learning for soybean yield prediction from satellite time series"
    assert first["text"].endswith("predicts yield two months before harvest with 8% mean absolute error.")
    assert "Elsevier" not in first["text"] and first["text_raw"].endswith(
        "© 2022 Elsevier B.V. All rights reserved."
    )
    assert table["copyright"].tolist() == [
        "© 2022 Elsevier B.V. All rights reserved.",
        "© The Author(s), 2023. Published by Springer Nature on behalf of BioMed Central Ltd.",
    ]
    # "[No abstract available]" is a placeholder, counted, never a document
    assert warned == [f"{path}: 1 record(s) do not become documents: 1 placeholder: line 24 (Nguyen2023)"]


def test_web_of_science_bibtex_empty_keys_double_braces_and_hard_wraps():
    path = FIXTURES / "wos.bib"
    table, warned = read(path)
    assert warned == []
    assert table["title"].tolist() == [
        "Animal level risk factors for bovine tuberculosis in dairy herds of the Mediterranean region",
        "Wildlife reservoirs of Mycobacterium bovis in Iberian ecosystems",
    ]
    assert table["authors"].tolist() == ["John Smith; Jane Doe", "María García; Ali Öztürk"]
    assert table["doi"].tolist() == ["10.1016/j.prevetmed.2021.105318", "10.1111/tbed.14500"]
    assert table["id"].tolist() == ["", ""]
    for raw in table["text_raw"]:
        assert "{" not in raw and "\n" not in raw and "  " not in raw
    assert table["text"].iloc[0].endswith("raised the risk of a positive skin test.")
    assert table["copyright"].tolist() == ["(C) 2021 Elsevier B.V. All rights reserved.", ""]


def test_hand_written_bibtex_keeps_markup_words_and_survives_bad_entries(tmp_path):
    path = tmp_path / "neurips.bib"
    path.write_text(
        r"""@string{nips = "Advances in Neural Information Processing Systems"}
@inproceedings{a,
  title = {We use \texttt{LLaMA} and \textsc{Bert} with \emph{care}},
  abstract = {We fine-tune \texttt{LLaMA-2} with \ours{}, compare \name against
              baselines \citep{x}, and release code at \href{https://github.com/x/y}{our repository}.},
  booktitle = nips,
}
@inproceedings{broken,
  title = {A title, then nothing closes this entry
@inproceedings{a,
  title = "Part A: " # {Estimating} # " uncertainty",
  abstract = "Ensembles give e" # {xperimental} # " error bars for " # nips # ".",
}
@inproceedings{c d,
  title = {Keys with spaces},
  abstract = {Keys with spaces or commas are no reason to lose a paper.},
}
""",
        encoding="utf-8",
    )
    table, warned = read(path)
    assert table["title"].tolist() == [
        "We use LLaMA and Bert with care",
        "Part A: Estimating uncertainty",
        "Keys with spaces",
    ]
    assert table["text"].iloc[0] == (
        "We fine-tune LLaMA-2 with ours, compare name against baselines, and release code at our repository."
    )
    assert table["text"].iloc[1] == (
        "Ensembles give experimental error bars for Advances in Neural Information Processing Systems."
    )
    assert table["booktitle"].iloc[0] == "Advances in Neural Information Processing Systems"
    assert table["id"].tolist() == ["a", "a", "c d"]
    assert len(warned) == 1 and warned[0].startswith(
        f"{path}: 1 record(s) do not become documents: 1 unparsable: line 8 ("
    )


def test_the_same_paper_as_bibtex_and_ris_is_one_document(tmp_path):
    bib = tmp_path / "a.bib"
    bib.write_text(
        "@misc{k, title={\\texttt{LLaMA} at scale},"
        " abstract={We scale \\texttt{LLaMA-2} with \\ours{} on \\emph{many} GPUs.}}\n",
        encoding="utf-8",
    )
    ris = tmp_path / "a.ris"
    ris.write_text(
        "TY  - CONF\nTI  - LLaMA at scale\nAB  - We scale LLaMA-2 with ours on many GPUs.\nER  - \n",
        encoding="utf-8",
    )
    a, _ = read(bib)
    b, _ = read(ris)
    assert a["doc_id"].tolist() == b["doc_id"].tolist()
    assert a["title"].tolist() == b["title"].tolist() == ["LLaMA at scale"]


def test_web_of_science_plain_text_is_read_as_wos_not_as_paragraphs(tmp_path, caplog):
    path = FIXTURES / "savedrecs.txt"
    table, warned = read(path)
    assert warned == [f"{path}: 1 record(s) do not become documents: 1 empty abstract: line 53"]
    assert table["id"].tolist() == ["WOS:000641000000001", "WOS:000700000000002"]
    first = table.iloc[0]
    assert first["title"] == (
        "Animal level risk factors for bovine tuberculosis in dairy herds of the Mediterranean region"
    )
    assert first["authors"] == "Smith, John; Doe, Jane"
    assert first["keywords"] == "bovine tuberculosis; risk factors; dairy cattle; mixed-effects models"
    assert first["year"] == "2021" and first["journal"] == "PREVENTIVE VETERINARY MEDICINE"
    assert first["text"].startswith(
        "Bovine tuberculosis remains endemic in dairy cattle of the Mediterranean"
    )
    assert first["text"].endswith("positive skin test.") and first["copyright"].startswith("(C) 2021")
    assert "\n" not in first["text_raw"]
    # the same file named .ciw, or given as format: wos
    ciw = tmp_path / "savedrecs.ciw"
    ciw.write_bytes(path.read_bytes())
    assert read(ciw)[0]["id"].tolist() == table["id"].tolist()
    assert read(path, format="wos")[0]["id"].tolist() == table["id"].tolist()


def test_web_of_science_tab_delimited_reads_quotes_as_text():
    path = FIXTURES / "savedrecs_tab.txt"
    table, warned = read(path)
    assert warned == []
    assert table["title"].tolist()[1] == '"Wild" boar as reservoirs of Mycobacterium bovis'
    assert 'the "hotspots lie near water points' in table["text"].iloc[1]  # a lone quote is text
    assert table["authors"].tolist() == ["Smith, John; Doe, Jane", "Garcia, Maria; Ozturk, Ali"]
    assert table["id"].tolist() == ["WOS:000641000000001", "WOS:000700000000002"]


def test_pubmed_medline_continuation_lines_doi_and_structured_abstract_headings(tmp_path):
    path = FIXTURES / "pubmed.nbib"
    table, warned = read(path)
    assert warned == [f"{path}: 1 record(s) do not become documents: 1 empty abstract: line 65"]
    first = table.iloc[0]
    assert first["id"] == "36600001"
    assert first["title"] == (
        "Physical activity and depressive symptoms in older adults: a systematic review and meta-analysis."
    )
    assert first["authors"] == "Kim, Min-Ji; Lee, Sung"
    assert first["doi"] == "10.1186/s12889-022-14912-1" and first["year"] == "2023"
    assert first["keywords"] == "depression; older adults"
    assert first["text"].startswith("Depression is common in later life")
    for heading in ("BACKGROUND", "METHODS", "RESULTS", "CONCLUSIONS"):
        assert heading not in first["text"] and f"{heading}:" in first["text_raw"]
    second = table.iloc[1]
    assert second["doi"] == "10.1016/j.sleep.2023.01.001"
    assert second["text"].endswith("executive function.")
    assert second["copyright"] == "Copyright © 2023 Elsevier Inc. All rights reserved."
    # PubMed's "Save > PubMed format" writes .txt: read by its content
    txt = tmp_path / "pubmed-depression-set.txt"
    txt.write_bytes(path.read_bytes())
    assert read(txt)[0]["id"].tolist() == ["36600001", "36600002"]


def test_ieee_xplore_csv_document_title_and_entities():
    table, warned = read(FIXTURES / "ieee.csv")
    assert warned == []
    assert table["title"].tolist() == [
        "Federated Learning With Non-IID Data for Edge Intelligence",
        "Energy-Efficient Scheduling for LoRa Networks",
    ]
    assert "devices' data" in table["text"].iloc[0]
    assert "&#x" not in table["text_raw"].iloc[0]
    # IEEE's own column names carried under the names every other format gives them
    first = table.iloc[0]
    assert first["authors"] == "W. Zhang; L. Chen; M. Rossi"
    assert first["url"] == "https://ieeexplore.ieee.org/stamp/stamp.jsp?arnumber=10070000"
    assert (first["year"], first["doi"]) == ("2023", "10.1109/TMC.2023.3250000")
    assert first["journal"] == "IEEE Transactions on Mobile Computing"
    assert first["keywords"] == "Federated learning;non-IID data;edge intelligence"
    assert first["affiliations"].startswith("Dept. of EE")  # analyses.countries reads them


@pytest.mark.parametrize(
    "name, authors, url",
    [
        (
            "ieee.csv",
            "W. Zhang; L. Chen; M. Rossi",
            "https://ieeexplore.ieee.org/stamp/stamp.jsp?arnumber=10070000",
        ),
        (
            "scopus.csv",
            "Ribeiro Jr. J.; Silva A.P.",
            "https://www.scopus.com/inward/record.uri?eid=2-s2.0-85130100000",
        ),
        ("savedrecs.xls", "Smith, John; Doe, Jane", None),
        ("savedrecs_tab.txt", "Smith, John; Doe, Jane", None),
    ],
)
def test_database_exports_show_authors_and_links_in_the_workbook(name, authors, url):
    """The workbook's documents sheet (and document_topics.csv) has the export's authors and links."""
    import numpy as np

    from papertopics.ingest.corpus import build_corpus
    from papertopics.report.workbook import workbook_sheets
    from papertopics.topics.representation import document_table

    table, _ = read(FIXTURES / name)
    corpus, _ = build_corpus([table])
    documents = document_table(corpus, np.zeros(len(corpus), dtype=int), {0: "Topic"})
    topics = pd.DataFrame({"topic": [0], "label": ["Topic"], "size": [len(corpus)], "top_terms": ["a;b"]})
    sheet = workbook_sheets(topics, documents)["documents"]
    assert sheet["authors"].iloc[0] == authors
    if url:
        assert sheet["url"].iloc[0] == url
    assert list(sheet.columns)[:2] == ["title", "authors"]


def test_openalex_abstract_from_its_inverted_index():
    path = FIXTURES / "openalex.json"
    table, warned = read(path)
    assert warned == [f"{path}: 1 record(s) do not become documents: 1 empty abstract: record 2"]
    assert table["text"].tolist() == [
        "Language models of protein sequences predict structure of proteins from metagenomes; "
        "these models protein scale."
    ]
    assert table["authors"].tolist() == ["Zeming Lin; Alexander Rives"]
    assert table["venue"].tolist() == ["Nature"] and table["year"].tolist() == ["2023"]
    assert "referenced_works" not in table.columns


def test_openreview_api_notes_v2_and_v1():
    v2, _ = read(FIXTURES / "openreview.json")
    assert v2["title"].tolist() == [
        "Sparse Autoencoders Find Interpretable Features in Language Models",
        "Diffusion Models Erase Concepts Poorly",
    ]
    assert v2["keywords"].iloc[0] == "interpretability; sparse autoencoders"
    assert v2["primary_area"].iloc[0] == "interpretability and explainable AI"
    assert "such as DNA sequences" in v2["text"].iloc[0]
    v1, _ = read(FIXTURES / "openreview_v1.jsonl")
    assert v1["title"].tolist() == ["Learning to Prune Filters", "Graph Attention Without Softmax"]
    assert v1["id"].tolist() == ["rJxA1", "rJxA2"]


def test_scopus_csv_placeholders_are_empty_and_copyright_lines_kept_apart():
    path = FIXTURES / "scopus.csv"
    table, warned = read(path)
    assert warned == [f"{path}: 2 record(s) do not become documents: 2 placeholder: line 3, line 4"]
    assert [t.endswith("municipalities in Brazil.") for t in table["text"]] == [True, False]
    assert table["copyright"].tolist() == [
        "© 2022 Elsevier B.V.",
        "© The Author(s), 2023. Published by Springer Nature on behalf of BioMed Central Ltd.",
    ]
    first = table.iloc[0]
    assert (first["id"], first["authors"]) == ("2-s2.0-85130100000", "Ribeiro Jr. J.; Silva A.P.")
    assert first["url"] == "https://www.scopus.com/inward/record.uri?eid=2-s2.0-85130100000"
    assert (first["year"], first["doi"], first["keywords"]) == (
        "2022",
        "10.1016/j.compag.2022.107014",
        "Crop yield; Machine learning",
    )
    # a mapping under columns: wins: the full names are the authors, Scopus's "Authors" stays so
    mapped, _ = read(path, columns={"authors": "Author full names"})
    assert mapped["authors"].iloc[0].startswith("Ribeiro, Jr, José")
    assert mapped["Authors"].iloc[0] == "Ribeiro Jr. J.; Silva A.P."


def test_web_of_science_xls_via_xlrd(tmp_path):
    path = FIXTURES / "savedrecs.xls"
    table, warned = read(path)
    assert warned == [f"{path}: 1 record(s) do not become documents: 1 empty abstract: row 4"]
    assert table["title"].tolist() == [
        "Animal level risk factors for bovine tuberculosis in dairy herds of the Mediterranean region",
        "Wildlife reservoirs of Mycobacterium bovis in Iberian ecosystems",
    ]
    assert table["year"].tolist() == ["2021", "2022"]
    # as WoS's plain text: id from UT, the full names as authors
    assert table["id"].iloc[0] == "WOS:000641000000001"
    assert table["authors"].iloc[0] == "Smith, John; Doe, Jane"
    # an .xls saved under .xlsx is read all the same (the engine follows the bytes)
    renamed = tmp_path / "savedrecs.xlsx"
    renamed.write_bytes(path.read_bytes())
    assert read(renamed)[0]["title"].tolist() == table["title"].tolist()


def test_excel_header_below_a_blank_or_merged_row_and_records_on_another_sheet(tmp_path):
    blank = _workbook(tmp_path / "blank.xlsx", {"S": [[None, None], ["title", "abstract"], ["T", A1]]})
    table, _ = read(blank)
    assert table["title"].tolist() == ["T"]
    merged = tmp_path / "merged.xlsx"
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.append(["Accepted papers, NeurIPS 2026", None, None])
    sheet.merge_cells("A1:C1")
    for row in (["Paper", "Abstract", "Track"], ["One", A1, "Main"], ["Two", A2, "D&B"]):
        sheet.append(row)
    book.save(merged)
    table, _ = read(merged, columns={"title": "Paper"})
    assert table["title"].tolist() == ["One", "Two"] and table["Track"].tolist() == ["Main", "D&B"]
    titled = _workbook(
        tmp_path / "titled.xlsx", {"S": [[None], ["Papers 2026"], ["Paper", "Summary text"], ["T", A1]]}
    )
    assert error(titled) == (
        f"{titled}: sheet 'S': no row of the first 20 names a text column (looked for abstract, text,"
        f" summary, Abstract Note, AB, description and other spellings in docs/listings.md); took row 2"
        f" as the header: Papers 2026; set 'columns: {{text: ...}}'"
    )
    assert read(titled, columns={"text": "Summary text", "title": "Paper"})[0]["title"].tolist() == ["T"]
    second = _workbook(
        tmp_path / "second.xlsx",
        {
            "Notes": [["exported by the committee tool"]],
            "Papers": [["title", "abstract"], ["T", A1], ["U", A2]],
        },
    )
    assert error(second) == (
        f"{second}: sheet 'Notes': header row but no records; sheets with records: 'Papers' (2 rows):"
        f" set 'sheet' in the listing entry"
    )
    assert read(second, sheet="Papers")[0]["title"].tolist() == ["T", "U"]


def test_csv_sep_line_quoted_header_and_a_quote_that_swallows_a_record(tmp_path):
    sep = tmp_path / "excel.csv"
    sep.write_text(f'sep=;\ntitle;abstract\nT;{A1}\nU;"{A2}"\n', encoding="utf-8")
    assert read(sep)[0]["title"].tolist() == ["T", "U"]
    quoted = tmp_path / "quoted.csv"
    quoted.write_text(f'"Title, as published",abstract\nT,"{A1}"\n', encoding="utf-8")
    assert read(quoted)[0]["Title, as published"].tolist() == ["T"]
    tsv = tmp_path / "stray.tsv"
    rows = [f"T{i}\tAbstract number {i} about topic {i}." for i in range(1, 6)]
    rows[1] = 'T2\t"Abstract number 2 about a quoted term'
    rows[2] = 'T3\tAbstract number 3 ends with a quote."'
    tsv.write_text("title\tabstract\n" + "\n".join(rows) + "\n", encoding="utf-8")
    assert error(tsv) == (
        f'{tsv}: line 3: a quote (") opens a field here and closes in line 4 or later, taking the line'
        f' break and the next record into one field; remove the stray quote, or double it ("") if it'
        f" belongs to the text"
    )
    # an abstract of two paragraphs in one quoted field is no stray quote
    two = tmp_path / "two.csv"
    two.write_text(f'title,abstract,year\nT1,"{A1}\n\n{A2}, with, commas",2023\n', encoding="utf-8")
    assert read(two)[0]["text"].tolist() == [f"{A1} {A2}, with, commas"]


def test_every_format_is_allowed_by_the_config_schema():
    import yaml

    from papertopics.ingest.formats import FORMATS

    schema = yaml.safe_load((FIXTURES.parents[1] / "src/papertopics/schemas/config.schema.yaml").read_text())
    found = []

    def walk(node):
        if isinstance(node, dict):
            if "format" in node and isinstance(node["format"], dict) and "enum" in node["format"]:
                found.append(node["format"]["enum"])
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    walk(schema)
    assert found == [list(FORMATS)]


def test_acm_digital_library_bibtex():
    table, warned = read(FIXTURES / "acm.bib")
    assert warned == []
    assert table["id"].tolist() == ["10.1145/3580305.3599256", "10.1145/3624010"]
    assert table["title"].tolist() == [
        "Graph Contrastive Learning for Fraud Detection at Scale",
        "A Survey on Evaluating Large Language Models",
    ]
    assert table["authors"].tolist() == ["Wei Chen; Priya Kumar", "Anna Müller; João Santos"]
    assert "on 0.1% of labelled accounts; it finds 18% more fraud" in table["text"].iloc[0]
    assert table["series"].iloc[0] == "KDD '23" and table["month"].iloc[1] == "jan"


# --- issue 49: every export a researcher has, round 2 ----------------------------------------


def test_zotero_csv_reads_with_no_option_under_canonical_names():
    """Zotero's File > Export > CSV was `no text column`: `Abstract Note`, `Manual Tags`..."""
    table, warned = read(FIXTURES / "zotero.csv")
    assert len(table) == 3 and not warned
    assert table["title"].tolist()[0] == "Otter diet in Swedish rivers"
    assert table["text"].tolist()[0].startswith("Spraint analysis of otters")
    assert table["year"].tolist() == ["2022", "2021", "2020"]
    assert table["date"].tolist() == ["2022-10-01", "2021", "2020-03"]
    assert table["journal"].tolist() == ["Journal of Zoology", "Mammal Review", "Ecology Letters"]
    # Zotero's Manual Tags are the user's tags, not the authors' keywords (issue 65 item 6)
    assert table["tags"].tolist() == ["diet; mustelids", "camera traps", ""] and "keywords" not in table
    assert table["index_keywords"].tolist() == ["Animals; Rivers", "", ""]
    assert table["authors"].tolist()[0] == "Okafor, Chidi; Lindqvist, Maja"


def test_ieee_csv_with_a_preamble_line_and_an_undoubled_quote(tmp_path):
    """IEEE Xplore 2015-2019: the search URL above the header, a `"` IEEE did not double."""
    path = FIXTURES / "ieee_2017.csv"
    table, warned = read(path)
    assert table["title"].tolist() == ["Bats avoid lit roads", "Radar counts of migrating birds"]
    assert 'stray" quote' in table["text"].tolist()[1]
    assert table["index_keywords"].tolist() == ["Acoustics;Lighting", "Radar"]
    assert warned == [
        f"{path}: line 2 is the header; line 1 above it skipped (they name no column and are not records)",
        f'{path}: line 4: a quote (") inside a field is not doubled; read as text, 2 records as the '
        f"header's 7 columns say",
    ]
    # a stray quote that takes the record count out of step stays an error
    bad = tmp_path / "bad.csv"
    bad.write_text(f'abstract,title\n"{A1} "x,"T1"\n"{A2}",T2,extra\n', encoding="utf-8")
    assert "malformed CSV" in error(bad)


def test_trailing_commas_and_a_csv_cut_mid_record(tmp_path):
    """Old Scopus CSV: every row ends with a comma (no column); a cut file loses its last record."""
    path = tmp_path / "scopus_old.csv"
    path.write_text(
        f'Authors,Title,Year,Abstract\nA,T1,2020,"{A1}",\nB,T2,2021,"{A2}",\nC,T3,2022,"{A2[:30]}', "utf-8"
    )
    table, warned = read(path)
    assert table["title"].tolist() == ["T1", "T2"] and "column" not in table.columns
    assert warned == [
        f"{path}: 1 record(s) do not become documents: 1 unparsable: line 4 (a quoted field runs to "
        f"the end of the file: it ends mid-record)"
    ]


def test_ris_saved_as_txt_is_ris_and_n2_jo_y1_are_read():
    """Issue 51 row 11: RIS as .txt was 40 'abstracts' starting `TY  - JOUR`."""
    table, _ = read(FIXTURES / "mendeley_ris.txt")
    assert table["title"].tolist() == ["Otter diet in Swedish rivers", "Camera traps count badgers"]
    assert table["text"].tolist()[0].startswith("Spraint analysis")  # N2, Mendeley's abstract
    assert table["journal"].tolist() == ["Journal of Zoology", "Mammal Review"]
    assert table["date"].tolist() == ["2022/10/01/", ""] and table["year"].tolist() == ["2022", "2021"]


def test_web_of_science_tab_variant_is_read_by_content():
    """`TAG<TAB>value`, values below an empty tag line: was `line 5: 1 fields, the header has 2`."""
    table, warned = read(FIXTURES / "wos_tab_variant.txt")
    assert not warned and len(table) == 2
    assert table["title"].tolist()[0] == "Otter diet in Swedish rivers"
    assert table["authors"].tolist()[0] == "Okafor, C; Lindqvist, M"
    assert table["keywords"].tolist() == ["diet; mustelids", ""]
    assert table["index_keywords"].tolist() == ["PREY; FISH", ""]
    assert table["journal"].tolist() == ["JOURNAL OF ZOOLOGY", "MAMMAL REVIEW"]


def test_a_medline_file_cut_mid_record_is_warned():
    """Issue 51 row 12: the last record was kept with a cut abstract, no warning."""
    path = FIXTURES / "pubmed_cut.nbib"
    table, warned = read(path)
    assert table["id"].tolist() == ["101", "102"]
    assert table["index_keywords"].tolist() == ["Animals; Otters", ""]
    assert table["date"].tolist() == ["2022 Oct", "2021"]
    assert warned == [
        f"{path}: 1 record(s) do not become documents: 1 unparsable: line 15 (the last record has no "
        f"'SO' line, which ends every other: the file is cut)"
    ]


def test_endnote_xml_with_style_wrappers():
    table, warned = read(FIXTURES / "endnote.xml")
    assert table["title"].tolist() == [
        "Otter (Lutra lutra) diet in Swedish rivers",
        "Camera traps count badgers",
    ]
    assert table["authors"].tolist()[0] == "Okafor, Chidi; Lindqvist, Maja"
    assert table["journal"].tolist() == ["Journal of Zoology", "Mammal Review"]
    assert (
        table["keywords"].tolist()[0] == "diet; mustelids" and table["doi"].tolist()[0] == "10.1111/jzo.13001"
    )
    assert "Wiley" not in table["text"].tolist()[1] and "Wiley" in table["text_raw"].tolist()[1]
    assert warned == [
        f"{FIXTURES / 'endnote.xml'}: 1 record(s) do not become documents: 1 empty abstract: record 3"
    ]


def test_endnote_xml_with_an_entity_declaration_is_refused(tmp_path):
    bomb = tmp_path / "bomb.xml"
    bomb.write_text(
        '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaa"><!ENTITY b "&a;&a;&a;">]>'
        "<xml><records><record><abstract>&b;</abstract></record></records></xml>",
        encoding="utf-8",
    )
    assert error(bomb) == f"{bomb}: the XML declares a DOCTYPE or ENTITY; refused (entities are not expanded)"


def test_format_guessing_says_what_it_guessed(tmp_path):
    """Issue 51 row 15: `no Web of Science records` did not say the file was taken for WoS."""
    path = tmp_path / "notes.txt"
    path.write_text(f"FN Clarivate Analytics Web of Science\nVR 1.0\n\n{A1}\n", encoding="utf-8")
    assert error(path) == (
        f"{path}: no Web of Science records (no line starting 'PT '); read as Web of Science plain text "
        f"(line 1 starts 'FN '); set format: text to read it as one abstract per paragraph"
    )
    assert read(path, format="text")[0]["text"].tolist()[-1] == A1


def test_openreview_records_with_a_top_level_abstract(tmp_path):
    """Issue 51 row 16: `content: {...}` and `forum` made OpenReview, dropping the top-level abstract."""
    path = tmp_path / "notes.json"
    path.write_text(
        f'[{{"id": "a", "forum": "a", "abstract": "{A1}", "content": {{"title": {{"value": "T"}}}}}},'
        f' {{"id": "b", "forum": "b", "abstract": "{A2}", "content": {{"title": {{"value": "U"}}}}}}]',
        encoding="utf-8",
    )
    assert read(path)[0]["text"].tolist() == [A1, A2]
    path.write_text('[{"id": "a", "forum": "a", "content": {"pages": "1"}}]', encoding="utf-8")
    assert error(path).endswith(
        "read as OpenReview notes (line 1 starts '[{\"id\":'); set format: json to read it as JSON records"
    )


def test_a_bibtex_entry_missing_a_comma_is_unparsable_not_empty(tmp_path):
    """Issue 51 row 17: `title = {X}` then `abstract = {...}` with no comma was an 'empty abstract'."""
    path = tmp_path / "glued.bib"
    path.write_text(
        f"@article{{a1,\n  title = {{One}},\n  abstract = {{{A1}}}\n}}\n\n"
        f"@article{{a2,\n  title = {{Two}}\n  abstract = {{{A2}}}\n}}\n",
        encoding="utf-8",
    )
    table, warned = read(path)
    assert table["title"].tolist() == ["One"]
    assert warned == [
        f"{path}: 1 record(s) do not become documents: 1 unparsable: line 6 (a2: no comma before field "
        f"'abstract')"
    ]


def test_records_not_read_are_one_line_by_cause(tmp_path):
    """Duplicates were merged silently; placeholders and empty abstracts are told apart."""
    path = tmp_path / "mixed.jsonl"
    rows = [A1, "", "[No abstract available]", A2, A1.upper()]
    path.write_text("\n".join(f'{{"abstract": "{r}"}}' for r in rows) + "\n", encoding="utf-8")
    table, warned = read(path)
    assert len(table) == 3
    assert warned == [
        f"{path}: 3 record(s) do not become documents: 1 empty abstract: line 2; 1 placeholder: line 3; "
        f"1 duplicate of another record: line 5 (= line 1)"
    ]


def test_a_wos_record_whose_pt_line_has_no_value_is_a_record_not_a_crash(tmp_path):
    """A `PT` line with no value (found by test_fuzz_listings) starts a record as `PT J` does:
    it was glued to the record above and rispy's parser, handed two records, crashed."""
    path = tmp_path / "savedrecs.txt"
    path.write_text(
        "FN Clarivate\nVR 1.0\nPT J\nAU Smith, J\nTI A title\n"
        "AB Bovine tuberculosis remains endemic in dairy cattle of the region.\nPY 2021\nER\n\n"
        "PT\nAU Lee, K\nTI Correction\nAB Corrects the sample sizes of the earlier study.\n"
        "PY 2022\nER\n\nEF\n"
    )
    table = read_listing(ListingSpec("x", path))
    assert list(table["title"]) == ["A title", "Correction"]
