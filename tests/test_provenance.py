"""The Data page and the workbook's data sheet (report.provenance, issue 65 item 12): per field the
report uses, the column of each listing it came from, the share of papers with it, and what
became of the values (read, repaired, skipped, merged) with the reason."""

from __future__ import annotations

import pandas as pd
from conftest import shared_export

from papertopics.ingest.corpus import build_corpus
from papertopics.ingest.listings import read_listing
from papertopics.ingest.specs import ListingSpec
from papertopics.report.provenance import data_table


def _parsed(tmp_path, name: str, export: str) -> pd.DataFrame:
    """A listing as build_corpus reads it: through the parse stage's parquet file."""
    table = read_listing(ListingSpec(name, shared_export(tmp_path, export)))
    path = tmp_path / f"{name}.parquet"
    table.to_parquet(path, index=False)
    return pd.read_parquet(path)


def test_each_field_names_its_column_per_listing_and_what_became_of_the_values(tmp_path):
    scopus = _parsed(tmp_path, "scopus", "scopus-csv-smart-on-fhir-701.csv")
    ieee = _parsed(tmp_path, "ieee", "ieee-csv-legal-re-492.csv")
    wos = _parsed(tmp_path, "wos", "wos-plain-capture-recapture-500.txt")
    corpus, stats = build_corpus([scopus, ieee, wos])
    table = data_table(corpus, stats)
    columns = table[table["what"].isna() | (table["what"] == "")].set_index(["field", "listing"])
    assert columns.loc[("authors", "scopus"), "column"] == "Author full names, else Authors"
    assert columns.loc[("authors", "ieee"), "column"] == "Authors"
    assert columns.loc[("authors", "wos"), "column"] == "AF, else AU"  # Web of Science's tags
    assert columns.loc[("citations", "ieee"), "column"] == "Article Citation Count"
    assert columns.loc[("year", "scopus"), "column"] == "Year"
    assert (
        columns.loc[("abstract", "scopus"), "papers"] == 650
        and columns.loc[("abstract", "scopus"), "share"] == 1
    )
    # the shares are the listing's papers with a value: IEEE's keywords (341 of 492 rows)
    ieee_keywords = columns.loc[("keywords", "ieee")]
    assert ieee_keywords["papers"] == (ieee["keywords"].str.strip() != "").sum()
    assert ieee_keywords["share"] == round(ieee_keywords["papers"] / 492, 4)
    assert (
        columns.loc[("references", "ieee"), "column"] == "none"
        and columns.loc[("references", "ieee"), "papers"] == 0
    )
    notes = table[table["what"].fillna("") != ""]
    skipped = notes.query("field == 'abstract' and listing == 'scopus' and what == 'skipped'")
    assert dict(zip(skipped["why"], skipped["count"])) == {
        "placeholder": 49,
        "duplicate of another record": 2,
    }
    repaired = notes.query("field == 'abstract' and listing == 'wos' and what == 'repaired'")
    assert repaired["why"].str.contains("copyright").all() and repaired["count"].sum() == 41
    assert set(table["field"]) >= {
        "title", "abstract", "year", "authors", "venue", "keywords", "index keywords",
        "citations", "document type", "DOI", "affiliations", "references",
    }  # fmt: skip


def test_the_merge_of_one_papers_records_is_a_row(tmp_path):
    """The corpus' one line (ingest.corpus) is also a row: merged on the DOI, counts kept larger."""
    path_a, path_b = tmp_path / "a.csv", tmp_path / "b.csv"
    abstract = "We estimate abundance from spatial capture-recapture data with a new sampler."
    path_a.write_text(f'Title,Abstract,DOI,Cited by\nOne paper on abundance,"{abstract}",10.1000/AB,3\n'
                      'Another paper entirely,"A second abstract about occupancy models and detection.",,1\n',
                      encoding="utf-8")  # fmt: skip
    path_b.write_text(f'Title,Abstract,DOI,Times Cited\nOne paper on abundance,"{abstract} More.",https://doi.org/10.1000/ab,5\n',
                      encoding="utf-8")  # fmt: skip
    corpus, stats = build_corpus(
        [read_listing(ListingSpec("a", path_a)), read_listing(ListingSpec("b", path_b))]
    )
    notes = data_table(corpus, stats).query("listing == 'all listings'")
    assert notes[["field", "what", "count"]].values.tolist() == [
        ["citations", "repaired", 1],
        ["DOI", "merged", 1],
    ]


def test_the_data_page_shows_the_table_and_is_in_the_navigation(tmp_path):
    from report_sample import dated_inputs

    from papertopics.report.data_page import data_page
    from papertopics.report.registry import navigation

    inputs = dated_inputs(60)
    inputs.corpus_stats = {
        "listings": {"alpha": {"columns": {"authors": "Author full names"}, "notes": [
            {"field": "abstract", "what": "skipped", "count": 3, "why": "placeholder"}]}},
        "notes": [
            {"field": "DOI", "what": "merged", "count": 2, "why": "records of one paper: the same DOI"}],
    }  # fmt: skip
    html = data_page(inputs)
    assert "<code>Author full names</code>" in html
    assert '<td>skipped</td><td class="num">3</td><td>placeholder</td>' in html
    assert "records of one paper: the same DOI" in html
    assert ("fields", "Data") in navigation()


def test_every_choice_the_readers_and_the_dates_made_is_a_row_and_document_types_are_counted(tmp_path):
    """The one-line choices of the readers and of the dates (ListingChoice: two spellings of a
    field, day- or month-first, two-digit years) are rows of the data page too, under their field,
    and each listing's document type is read from its canonical column."""
    path = tmp_path / "mixed.csv"
    pd.DataFrame(
        {
            "Title": ["Population size from camera traps", "Survival of released fish", "Sex ratios"],
            "Abstract": [
                "We estimate abundance of jaguars from camera trap data with spatial capture-recapture.",
                "Apparent survival of hatchery fish was estimated with multistate mark-recapture models.",
                "Adult sex ratios in birds are biased; we review the estimation methods and their errors.",
            ],
            "Year": ["2019", "", "2021"],
            "Publication Year": ["2019", "2018", "2021"],
            "Date": ["5/17/19", "1/2/18", "3/4/21"],
            "Document Type": ["Article", "Review", "Article"],
        }
    ).to_csv(path, index=False)
    table = read_listing(ListingSpec("mixed", path))
    parquet = tmp_path / "mixed.parquet"
    table.to_parquet(parquet, index=False)
    corpus, stats = build_corpus([pd.read_parquet(parquet)])
    from papertopics.ingest.dates import add_dates
    from papertopics.ingest.notes import choice_notes

    corpus = add_dates(corpus)
    stats["notes"] += choice_notes(corpus.attrs.get("choices", []))
    rows = data_table(corpus, stats)
    chosen = rows[rows["what"] == "chosen"]
    assert (
        chosen.query("field == 'year' and listing == 'mixed'")["why"]
        .str.contains("'Year' and 'Publication Year'")
        .any()
    ), chosen
    assert chosen["why"].str.contains("two-digit").any(), chosen  # the dates' line, all listings
    kinds = rows[(rows["field"] == "document type") & (rows["what"].fillna("") == "")].iloc[0]
    assert (kinds["column"], kinds["papers"]) == ("Document Type", 3)


def test_a_field_two_columns_spell_names_both_and_no_abstract_note_is_made_of_it(tmp_path):
    """IEEE's index keywords are "IEEE Terms, else Mesh_Terms" on the Data page (not a Python list),
    and the rows those columns filled are no "abstract read from another column" note."""
    ieee = _parsed(tmp_path, "ieee", "ieee-csv-legal-re-492.csv")
    corpus, stats = build_corpus([ieee])
    table = data_table(corpus, stats)
    columns = table[table["what"].fillna("") == ""].set_index(["field", "listing"])
    assert columns.loc[("index keywords", "ieee"), "column"] == "IEEE Terms, else Mesh_Terms"
    read = table.query("field == 'abstract' and what == 'read'")
    assert read.empty, read["why"].tolist()
