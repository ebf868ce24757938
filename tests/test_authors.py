"""Authors as the export names them (analyses.authors, analyses.sources): one person per key."""

from __future__ import annotations

import pandas as pd
import pytest
from conftest import shared_export

from papertopics.analyses.authors import author_key, author_keys, comma_lists, split_authors
from papertopics.analyses.sources import topic_sources

# 27 name forms as the shared exports write them, and each one's key within the listing
# (author_keys over all of them): full names where given, surname + all initials otherwise.
REAL_FORMS = {
    # Web of Science plain text (wos-plain-capture-recapture-500): AF, then AU of the same person
    "Yip, Paul S. F.": "yip paul sf",
    "Yip, PSF": "yip paul sf",
    "Anderson, Charles R., Jr.": "anderson charles r",  # suffix never an initial
    "Anderson, CR": "anderson charles r",
    "Campa, Henry, III": "campa henry",
    "Erdmann, Mark, V": "erdmann mark v",  # WoS's middle initial after a comma
    "Erdmann, MV": "erdmann mark v",
    # wos-plain-tr-wok-500 (AF): a particle surname, written with an initial and in full
    "Garcia de la Torre, J.": "garcia de la torre jose",
    "Garcia de la Torre, Jose": "garcia de la torre jose",
    "Chung, Clive Yik-Sham": "chung clive ys",
    "Chung, CYS": "chung clive ys",  # its AU
    # Web of Science RIS (wos-ris-polcomm): initials only
    "van Driel, II": "van driel ii",  # "II" is her initials, not a suffix
    "Kleinen-von Konigslow, K": "kleinen-von konigslow k",
    "de Vreese, C": "de vreese c",  # two forms of initials alone stay apart (bibliometrix)
    "de Vreese, CH": "de vreese ch",
    # PubMed MEDLINE: FAU, and an AU
    "Garrison, Louis P Jr": "garrison louis p",
    "Wójcik, Anna Maria": "wojcik anna m",
    "Wójcik AM": "wojcik anna m",
    "De-la-Peña, Clelia": "de-la-pena clelia",
    # Scopus CSV: Authors, and Author full names with the Scopus id
    "Eckardt J.-N.": "eckardt jan-niklas",
    "Eckardt, Jan-Niklas (57221053738)": "eckardt jan-niklas",
    "Baumgartner W.A., Jr.": "baumgartner wa",
    "Bommel, Jasper van (55256056000)": "van bommel jasper",
    # IEEE Xplore CSV, given first
    "A. C. dos Santos Neto": "dos santos neto ac",
    "Chih-Min Lin": "lin chih-min",
    # ScienceDirect BibTeX, given first
    "Lisette van Gemert-Pijnen": "van gemert-pijnen lisette",
    "Francisco J. García-Peñalvo": "garcia-penalvo francisco j",
}


def test_real_name_forms_of_the_shared_exports_get_one_key_per_person():
    assert author_keys(REAL_FORMS) == REAL_FORMS


def test_the_issues_cases():
    assert author_key("J LEE") == "lee j"  # the surname is LEE, not J
    assert author_key("van der Berg, J.") == author_key("J. van der Berg") == "van der berg j"
    assert author_key("Smith, John") == author_key("John Smith") == "smith john"
    keys = author_keys(["Wang, Yan", "Wang, Yu", "Wang, Y."])
    assert len(set(keys.values())) == 3  # "Wang, Y." may be either: it stays apart
    assert len({author_key(n) for n in ("John Smith Jr.", "James Brown Jr.", "Jack Miller Jr.")}) == 3
    keys = author_keys(["Trevor Bench\u2010Capon", "Trevor J. M. Bench-Capon", "Bench-Capon, T.J.M."])
    assert set(keys.values()) == {"bench-capon trevor jm"}
    assert author_key("Dean Smith") == "smith dean"  # a given name, not a title


def test_top_authors_count_one_person_once_and_show_the_fullest_form():
    documents = pd.DataFrame(
        {
            "topic": ["0", "0", "0", "1", "1"],
            "authors": [
                "Trevor Bench\u2010Capon; Wang, Yan",
                "Trevor J. M. Bench-Capon; Wang, Yu",
                "Bench-Capon, T.J.M.",
                "John Smith Jr.; James Brown Jr.",
                "Jack Miller Jr.",
            ],
        }
    )
    authors = topic_sources(documents).set_index("name")["count"].to_dict()
    assert authors["Trevor J. M. Bench-Capon"] == 3
    assert "Wang, Yan" in authors or "Wang, Yu" in authors  # five shown; never one "Wang"
    assert not any(
        "jr" in name.lower() and "smith" not in name.lower() for name in authors if " " not in name
    )


def test_comma_separated_author_cells_are_split_where_the_column_writes_lists_so():
    pop = ["J Smith, A Jones, B Lee", "A Jones, C Wu", "J Smith"]  # Publish or Perish
    assert comma_lists(pop) and split_authors(pop[0], True) == ["J Smith", "A Jones", "B Lee"]
    scopus_old = ["Smith J., Jones A.B.", "Lee B."]
    assert comma_lists(scopus_old) and split_authors(scopus_old[0], True) == ["Smith J.", "Jones A.B."]
    assert not comma_lists(["Smith, John; Doe, A.", "Lee, B."])  # ";" lists
    assert not comma_lists(["Smith, John", "van der Berg, J."])  # one surname-first name each
    documents = pd.DataFrame({"topic": ["0", "0", "1"], "authors": pop})
    authors = topic_sources(documents).query("topic == 0").set_index("name")["count"].to_dict()
    assert authors == {"A Jones": 2, "J Smith": 1, "B Lee": 1, "C Wu": 1}


def test_authors_and_venues_come_from_the_canonical_columns():
    documents = pd.DataFrame(
        {
            "topic": ["0", "0"],
            "authors": ["Hahn W.; Wolfien M.", "Hahn W."],
            "author_full_names": [
                "Hahn, Waldemar (57255281800); Wolfien, Markus (1)",
                "Hahn, Waldemar (57255281800)",
            ],
            "Source title": ["JAMIA", "JAMIA"],  # a raw spelling the readers map to `journal`
        }
    )
    sources = topic_sources(documents)
    assert sources.query("field == 'author'")["name"].tolist() == ["Hahn, Waldemar", "Wolfien, Markus"]
    assert sources.query("field == 'venue'").empty
    sources = topic_sources(documents.rename(columns={"Source title": "journal"}))
    assert sources.query("field == 'venue'")["name"].tolist() == ["JAMIA"]


def test_the_scopus_export_keeps_full_names_apart_and_the_authors_are_full_names(tmp_path):
    path = shared_export(tmp_path, "scopus-csv-smart-on-fhir-701.csv")
    from papertopics.ingest.listings import read_listing
    from papertopics.ingest.specs import ListingSpec

    table = read_listing(ListingSpec(name="scopus", path=path))
    assert table["authors"].iloc[0].startswith("Hahn W.; Ahmadi N.")
    assert table["author_full_names"].iloc[0].startswith("Hahn, Waldemar (57255281800); Ahmadi, Naj")
    table["topic"] = "0"
    names = topic_sources(table).query("field == 'author'")["name"].tolist()
    assert all("," in name and "(" not in name for name in names), names  # "Surname, Given names"


def test_the_quick_split_is_nameparsers_and_particles_go_to_nameparser():
    from papertopics.analyses.authors import _parts

    for name in ("Smith, John Paul", "John Smith", "De-la-Peña, Clelia", "Bench-Capon, T.J.M."):
        assert _parts(name) == _parts(name, fast=False)
    assert _parts("Fiol, Guilherme Del") == ("Del Fiol", "Guilherme")  # a particle: nameparser's
    assert _parts("Bommel, Jasper van") == ("van Bommel", "Jasper")
    assert author_key("Lacin, Nelisa (Turkoglu)") == "lacin nelisa"  # a maiden name aside
    assert author_key("\u202aYotam Alexander\u202c\u200f") == "alexander yotam"  # bidi marks


def test_a_mixed_corpus_keeps_each_rows_authors():
    """A Scopus listing (full names apart) beside an IEEE one (authors only): per row, its full
    names where it has them, else its authors (issue 65, item 7)."""
    documents = pd.DataFrame(
        {
            "topic": ["0", "0", "1", "1"],
            "authors": [
                "Hahn W.; Wolfien M.",
                "Hahn W.",
                "Chih-Min Lin; A. C. dos Santos Neto",
                "Chih-Min Lin",
            ],
            "author_full_names": [
                "Hahn, Waldemar (57255281800); Wolfien, Markus (57189)",
                "Hahn, Waldemar",
                "",
                "",
            ],
        }
    )
    sources = topic_sources(documents).query("field == 'author'")
    assert sources.query("topic == 1").set_index("name")["count"].to_dict() == {
        "Chih-Min Lin": 2,
        "A. C. dos Santos Neto": 1,
    }
    assert sources.query("topic == 0").set_index("name")["count"].to_dict() == {
        "Hahn, Waldemar": 2,
        "Wolfien, Markus": 1,
    }


def test_initials_join_a_full_name_only_where_the_export_links_them_or_every_initial_agrees():
    """Issue 65, item 8: "Wang, Y" is not every Wang Y of a listing."""
    # every initial of the only full name it may stand for: one person
    assert len(set(author_keys(["Wang, Y", "Wang, Yan"]).values())) == 1
    assert len(set(author_keys(["Yip, PSF", "Yip, Paul S. F."]).values())) == 1
    # fewer initials than the full name has ("Wang, Y" for "Wang, Yan Li"): apart, unless linked
    keys = author_keys(["Wang, Y", "Wang, Yan Li"])
    assert keys["Wang, Y"] != keys["Wang, Yan Li"]
    keys = author_keys(["Wang, Y", "Wang, Yan Li"], links=[("Wang Y.", "Wang, Yan Li")])
    assert keys["Wang, Y"] == keys["Wang, Yan Li"]
    # two full names share the initials: apart (today's rule, kept)
    keys = author_keys(["Wang, Y", "Wang, Yan", "Wang, Yu"])
    assert len(set(keys.values())) == 3
    # a link to one of them decides
    keys = author_keys(["Wang, Y", "Wang, Yan", "Wang, Yu"], links=[("Wang Y.", "Wang, Yu")])
    assert keys["Wang, Y"] == keys["Wang, Yu"] != keys["Wang, Yan"]
    # a given name written out still joins its fuller form
    assert len(set(author_keys(["Trevor Bench-Capon", "Bench-Capon, Trevor J. M."]).values())) == 1


def test_scopus_author_ids_are_the_person_where_the_export_gives_them():
    keys = author_keys(["Wang, Yan (111111)", "Wang, Yan (222222)", "Wang, Y. (111111)"])
    assert keys["Wang, Yan (111111)"] == keys["Wang, Y. (111111)"] == "wang yan (111111)"
    assert keys["Wang, Yan (222222)"] == "wang yan (222222)"  # a namesake
    documents = pd.DataFrame(
        {
            "topic": ["0", "0", "0"],
            "authors": ["Wang Y.", "Wang Y.", "Wang Y."],
            "author_full_names": ["Wang, Yan (111111)", "Wang, Yan (222222)", "Wang, Yan (111111)"],
        }
    )
    counts = sorted(topic_sources(documents).query("field == 'author'")["count"])
    assert counts == [1, 2]  # two people named Wang, Yan; never one with 3 papers
    # "Author(s) ID" beside the short forms where a row has no full names
    documents = pd.DataFrame(
        {
            "topic": ["0", "0"],
            "authors": ["Wang Y.; Li H.", "Wang Y."],
            "Author(s) ID": ["111111;333333", "222222"],
        }
    )
    counts = topic_sources(documents).query("field == 'author'")["count"].tolist()
    assert sorted(counts) == [1, 1, 1]


@pytest.mark.parametrize(
    "cell, commas, names",
    [
        # Publish or Perish: Google Scholar's truncation ", ..." is no name
        ("JMG Perry, A Hartstone-Rose, ...", True, ["JMG Perry", "A Hartstone-Rose"]),
        ("J Smith, A Jones…", True, ["J Smith", "A Jones"]),
        ("Smith et al.", False, ["Smith"]),
        ("Smith, J.; Jones, A. et al.", False, ["Smith, J.", "Jones, A."]),
        ("John Smith and Alan Jones; Lee, B.", False, ["John Smith", "Alan Jones", "Lee, B."]),
        ("Smith, J. and Jones, A.", False, ["Smith, J.", "Jones, A."]),
        ("Anand, K.; Sandberg, A.", False, ["Anand, K.", "Sandberg, A."]),  # "and" inside a word
    ],
)
def test_lists_are_split_into_their_people(cell, commas, names):
    assert split_authors(cell, commas) == names


def test_publish_or_perish_truncated_lists_are_comma_lists():
    cells = ["JMG Perry, A Hartstone-Rose, ...", "A Hartstone-Rose, B Lee, C Wu, ...", "J Smith"]
    assert comma_lists(cells)
    documents = pd.DataFrame({"topic": ["0", "0", "0"], "authors": cells})
    counts = topic_sources(documents).set_index("name")["count"].to_dict()
    assert counts["A Hartstone-Rose"] == 2 and "JMG Perry, A Hartstone-Rose" not in counts


@pytest.mark.parametrize(
    "a, b",
    [
        ("O'Brien, Kate", "O\u2019Brien, Kate"),
        ("Gabriel García Márquez", "García Márquez, Gabriel"),
        ("V\u0131\u0301tor Silva", "Vítor Silva"),  # BibTeX \'{\i}: a dotless ı and an accent
        ("Smith et al.", "Smith"),
    ],
)
def test_one_person_written_two_ways_is_one_key(a, b):
    keys = author_keys([a, b])
    assert keys[a] == keys[b], keys


def test_bibtex_dotless_i_reads_as_i(tmp_path):
    from papertopics.ingest.listings import read_listing
    from papertopics.ingest.specs import ListingSpec

    path = tmp_path / "x.bib"
    path.write_text(
        "@article{a, title={One}, author={V\\'{\\i}tor Silva and Ana Costa}, abstract={Alpha beta gamma.}}\n"
        "@article{b, title={Two}, author={Silva, Vítor}, abstract={Delta epsilon zeta eta.}}\n",
        encoding="utf-8",
    )
    table = read_listing(ListingSpec("x", path))
    table["topic"] = "0"
    authors = topic_sources(table).set_index("name")["count"].to_dict()
    assert len(authors) == 2 and 2 in authors.values(), authors


def test_the_listings_authors_are_counted_as_bibliometrix_counts_them(tmp_path):
    """authors.csv (issue 65, item 10): papers and fractionalised papers per author, as
    bibliometrix's biblioAnalysis counts them, on the shared WoS export. Each of bibliometrix's
    author forms (its AU, "CHANDLER RB") is one person here (full names never split it: the
    same record's AF), and a person's counts are those of the forms they join (a full name that
    bibliometrix writes two ways, "CHANDLER R" and "CHANDLER RB", is one: docs/analyses.md)."""
    from collections import defaultdict

    from conftest import SHARED

    from papertopics.analyses.sources import author_table, row_authors, row_links
    from papertopics.ingest.listings import read_listing
    from papertopics.ingest.specs import ListingSpec

    reference = SHARED / "data" / "reference" / "bibliometrix" / "wos-plain-capture-recapture-500.txt"
    if not reference.exists():
        pytest.skip(f"{reference} not found")
    table = read_listing(ListingSpec("wos", shared_export(tmp_path, "wos-plain-capture-recapture-500.txt")))
    ours = author_table(table).set_index("key")
    records = pd.read_csv(reference / "records.csv", dtype=str, keep_default_na=False).set_index("UT")
    expected = pd.read_csv(reference / "authors.csv").set_index("Author")
    for ut in set(records.index) - set(table["id"]):  # a record without an abstract is no paper here
        forms = records.loc[ut, "AU"].split(";")
        expected.loc[forms, "Articles"] -= 1
        expected.loc[forms, "Articles_Fractionalized"] -= 1 / len(forms)
    expected = expected[expected["Articles"] > 0]
    written, _ = row_authors(table)
    key = author_keys((n for v in written for n in v), links=row_links(table))
    people_of_form: dict[str, set[str]] = defaultdict(set)
    papers_of: dict[str, set[str]] = defaultdict(set)
    fraction_of: dict[str, float] = defaultdict(float)
    for ut, names in zip(table["id"], written):
        forms = records.loc[ut, "AU"].split(";")
        assert len(forms) == len(names), ut
        for form, name in zip(forms, names):
            people_of_form[form].add(key[name])
            papers_of[key[name]].add(ut)
            fraction_of[key[name]] += 1 / len(forms)
    # full names split a form bibliometrix merges: "LI Y" is Li, Yuan and Li, Yon here
    split = {f: sorted(p) for f, p in people_of_form.items() if len(p) > 1}
    assert len(split) == 5 and all(len({k.split()[1] for k in p}) == len(p) for p in split.values()), split
    forms_of: dict[str, set[str]] = defaultdict(set)
    for form, people in people_of_form.items():
        for person in people:
            forms_of[person].add(form)
    n_exact = 0
    for form, row in expected.iterrows():
        people = people_of_form[form]
        if len(people) == 1 and len(forms_of[next(iter(people))]) == 1:  # bibliometrix's own count
            person = next(iter(people))
            assert ours.loc[person, "papers"] == row["Articles"], form
            assert ours.loc[person, "papers_fractionalised"] == pytest.approx(
                row["Articles_Fractionalized"], abs=1e-4
            )
            n_exact += 1
        elif len(people) > 1:  # split by full names: theirs add up to bibliometrix's
            assert sum(ours.loc[k, "papers"] for k in people) == row["Articles"], form
        else:  # one person written two ways by bibliometrix ("CHANDLER R", "CHANDLER RB")
            person = next(iter(people))
            assert ours.loc[person, "papers"] == len(papers_of[person]) >= row["Articles"], form
    assert n_exact >= 0.98 * len(expected)
    joined = {f: min(p) for f, p in people_of_form.items()}
    top = author_table(table).head(20)
    same = sum(ours.loc[joined[f], "papers"] == expected.loc[f, "Articles"] for f in expected.head(20).index)
    assert same == 18 and top["papers"].iloc[0] == expected["Articles"].iloc[0] == 8  # CHANDLER, WAITS
    assert top["name"].tolist()[:4] == [
        "Pradel, Roger",
        "Cayuela, Hugo",
        "Gimenez, Olivier",
        "Besnard, Aurelien",
    ]
