"""The listing-wide analyses (analyses/): main information and countries, against bibliometrix
5.2.1's outputs on the shared exports (../shared/data/reference/bibliometrix/: summary.txt,
records.csv) and bibliometrix's rule for the corresponding author's country (AU1_CO)."""

from __future__ import annotations

import json
import re
import warnings
from pathlib import Path

import pandas as pd
import pytest
from conftest import SHARED, shared_export

from papertopics.analyses.countries import country_of, country_tables, paper_countries
from papertopics.analyses.main_information import main_information
from papertopics.ingest.columns import value_text
from papertopics.ingest.formats import REGISTRY
from papertopics.ingest.listings import read_listing
from papertopics.ingest.plan import first_filled, plan_columns
from papertopics.ingest.specs import ListingSpec

REFERENCE = SHARED / "data" / "reference" / "bibliometrix"
WOS = "wos-plain-capture-recapture-500.txt"
SCOPUS = "scopus-csv-smart-on-fhir-701.csv"
# summary.txt's labels -> main_information.csv's figures
LABELS = {
    "Timespan": "Timespan",
    "Sources (Journals, Books, etc)": "Sources (journals, books, etc.)",
    "Documents": "Documents",
    "Annual Growth Rate %": "Annual growth rate %",
    "Document Average Age": "Document average age",
    "Average citations per doc": "Average citations per doc",
    "Average citations per year per doc": "Average citations per year per doc",
    "References": "References",
    "Keywords Plus (ID)": "Keywords Plus (ID)",
    "Author's Keywords (DE)": "Author's keywords (DE)",
    "Authors": "Authors",
    "Author Appearances": "Author appearances",
    "Authors of single-authored docs": "Authors of single-authored docs",
    "Single-authored docs": "Single-authored docs",
    "Documents per Author": "Documents per author",
    "Co-Authors per Doc": "Co-authors per doc",
    "International co-authorships %": "International co-authorships %",
}
# Where papertopics differs from summary.txt, on purpose or as far as could be found, and
# docs/analyses.md ("## Main information") says why: (export, figure) -> (ours, bibliometrix's)
DIFFERENCES = {
    (WOS, "References"): ("22276", "22275"),
    (WOS, "International co-authorships %"): ("36.6", "36"),
    (SCOPUS, "International co-authorships %"): ("0", "0.1427"),
    (SCOPUS, "References"): (None, "1"),  # no References column: no figure (bibliometrix: "none")
}


def reference_summary(export: str) -> tuple[dict[str, str], dict[str, int], int]:
    """summary.txt's main information: {label: value}, {document type: count}, the as-of year."""
    text = (REFERENCE / export / "summary.txt").read_text(encoding="utf-8")
    as_of = int(re.search(r"Sys\.Date\(\) = (\d{4})", text).group(1))
    block = text.split("MAIN INFORMATION ABOUT DATA", 1)[1].split("Annual Scientific Production", 1)[0]
    figures, types, section = {}, {}, ""
    for line in block.splitlines():
        if not line.strip():
            continue
        if line.strip().isupper():
            section = line.strip()
            continue
        label, value = re.match(r"\s*(.+?)\s{2,}(\S.*?)\s*$", line).groups()
        if section == "DOCUMENT TYPES":
            types[label] = int(value)
        else:
            figures[label] = value
    return figures, types, as_of


def all_records(path: Path) -> pd.DataFrame:
    """Every record of an export as the readers give it (records without an abstract too: as
    bibliometrix reads them), under the canonical column names the parse stage gives them."""
    from papertopics.ingest.listings import format_for

    fmt = REGISTRY[format_for(path)]
    content = path.read_text(encoding="utf-8-sig")
    from papertopics.ingest.formats import sniffed

    fmt, _ = sniffed(fmt, content[:65536])
    parsed = fmt.read(content, path)
    _, _, id_col, extras = plan_columns(parsed.columns, {}, path, parsed.roles)
    rows = []
    for _, rec in parsed.records:
        row = {out: first_filled(rec, src, out, {}) for out, src in extras}  # a field's spellings
        row["id"] = value_text(rec.get(id_col)) if id_col else ""
        rows.append(row)
    return pd.DataFrame(rows)


def records_csv(export: str) -> pd.DataFrame:
    """bibliometrix's own records (records.csv) under papertopics' canonical column names."""
    table = pd.read_csv(REFERENCE / export / "records.csv", dtype=str, keep_default_na=False)
    names = {"AU": "authors_abbreviated", "DE": "keywords", "ID": "index_keywords", "TC": "cited_by",
             "PY": "year", "SO": "journal", "DT": "type", "UT": "id"}  # fmt: skip
    return table.rename(columns=names)[list(names.values())].replace("NA", "")


def _close(ours: str, theirs: str) -> bool:
    """Equal as bibliometrix prints it: to the digits summary.txt shows."""
    if ours == theirs:
        return True
    try:
        decimals = len(theirs.split(".")[1]) if "." in theirs else 0
        return abs(float(ours) - float(theirs)) <= 0.5 * 10**-decimals + 1e-12
    except ValueError:
        return False


def _compare(figures: dict[str, str], types: dict[str, int], table: pd.DataFrame, export: str) -> None:
    ours = dict(zip(table["figure"], table["value"]))
    for label, value in figures.items():
        figure = LABELS[label]
        if (export, figure) in DIFFERENCES:
            expected_ours, expected_theirs = DIFFERENCES[export, figure]
            assert value == expected_theirs and ours.get(figure) == expected_ours, (figure, ours.get(figure))
            continue
        assert figure in ours and _close(ours[figure], value), (export, figure, ours.get(figure), value)
    mine = {r.figure: int(r.value) for r in table.itertuples() if r.section == "Document types"}
    assert mine == types


@pytest.mark.parametrize("export", [WOS, SCOPUS])
def test_main_information_of_every_record_equals_bibliometrix_summary(tmp_path, export):
    """Every record as the readers give it, each figure computed as biblioAnalysis/summary do, as of
    the year bibliometrix ran (2026): summary.txt's figures, those of DIFFERENCES as documented."""
    if not (REFERENCE / export / "summary.txt").is_file():
        pytest.skip("no bibliometrix reference")
    figures, types, as_of = reference_summary(export)
    path = shared_export(tmp_path, export)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        records = all_records(path)
    table = main_information(records, as_of=as_of)
    assert ("Main information", "As-of year", str(as_of)) in set(map(tuple, table.to_numpy()))
    _compare(figures, types, table, export)
    # bibliometrix's own per-record fields (records.csv) give the same figures: the formulas,
    # apart from the readers
    from_bibliometrix = main_information(records_csv(export), as_of=as_of)
    for figure, value in zip(from_bibliometrix["figure"], from_bibliometrix["value"]):
        assert dict(zip(table["figure"], table["value"]))[figure] == value, figure


@pytest.mark.parametrize("export", [WOS, SCOPUS])
def test_the_analysed_documents_main_information_is_bibliometrix_on_the_same_records(tmp_path, export):
    """The topic map analyses the records with an abstract (499 of 500, 652 of 701): its figures
    are bibliometrix's per-record fields (records.csv) of those same records."""
    if not (REFERENCE / export / "records.csv").is_file():
        pytest.skip("no bibliometrix reference")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        documents = read_listing(ListingSpec(name="x", path=shared_export(tmp_path, export)))
    reference = records_csv(export)
    same = reference[reference["id"].str.casefold().isin(set(documents["id"].str.casefold()))]
    assert len(same) == len(documents) < len(reference)
    ours = main_information(documents, as_of=2026)
    theirs = main_information(same, as_of=2026)
    shared = set(theirs["figure"])
    assert shared >= {
        "Documents",
        "Authors",
        "Author appearances",
        "Keywords Plus (ID)",
        "Average citations per doc",
    }
    assert ours[ours["figure"].isin(shared)].to_numpy().tolist() == theirs.to_numpy().tolist()


def test_a_listing_without_these_columns_has_only_the_figures_it_has():
    seeds = pd.DataFrame({"text": ["a", "b", "c"], "title": ["x", "y", "z"]})
    assert main_information(seeds).to_numpy().tolist() == [["Main information", "Documents", "3"]]
    neurips = pd.DataFrame(
        {"text": ["a", "b"], "session": ["Poster 1", "Poster 2"], "authors": ["A; B", "C"]}
    )
    figures = dict(zip(*main_information(neurips)[["figure", "value"]].to_numpy().T))
    assert figures["Sources (journals, books, etc.)"] == "2" and figures["Documents"] == "2"
    assert "Timespan" not in figures and "International co-authorships %" not in figures
    countries, per_topic = country_tables(neurips.assign(topic="0"))
    assert countries.empty and per_topic.empty


def test_growth_age_and_citations_follow_bibliometrix_formulas():
    """CAGR = (last year's papers / first year's) ^ (1 / years between) - 1; age = as-of - mean
    year; citations per year = TC / (as-of - PY + 1), averaged over dated papers."""
    documents = pd.DataFrame({"year": ["2010", "2010", "2012", "2012", "2012", "2012", ""],
                              "cited_by": ["4", "0", "3", "", "6", "1", "10"]})  # fmt: skip
    figures = dict(zip(*main_information(documents, as_of=2013)[["figure", "value"]].to_numpy().T))
    assert figures["Annual growth rate %"] == f"{round((4 / 2) ** (1 / 2) * 100 - 100, 2):g}"  # 41.42
    assert figures["Document average age"] == f"{round(2013 - (2 * 2010 + 4 * 2012) / 6, 2):g}"
    assert figures["Average citations per doc"] == f"{round(24 / 7, 4):g}"
    per_year = [4 / 4, 0 / 4, 3 / 2, 0 / 2, 6 / 2, 1 / 2]
    assert figures["Average citations per year per doc"] == f"{round(sum(per_year) / 6, 5):g}"
    assert figures["As-of year"] == "2013"
    assert dict(zip(*main_information(documents)[["figure", "value"]].to_numpy().T))["As-of year"] == "2012"


@pytest.mark.parametrize(
    ("address", "country"),
    [
        ("Univ Georgia, Odum Sch Ecol, Athens, GA 30602 USA.", "United States"),
        ("Guangzhou Univ, Sch Econ & Stat, Guangzhou 510006, Guangdong, Peoples R China.", "China"),
        ("Univ York, Dept Environm, York, N Yorkshire, England.", "United Kingdom"),
        ("Univ St Andrews, St Andrews KY16 9LZ, Fife, Scotland.", "United Kingdom"),
        ("Bangor Univ, Sch Nat Sci, Bangor, Gwynedd, Wales.", "United Kingdom"),
        ("Queens Univ Belfast, Belfast, Antrim, North Ireland.", "United Kingdom"),
        ("Kwangwoon Univ, Dept Chem Engn, Seoul 139701, South Korea.", "South Korea"),
        ("Tucumán, Argentina. dipauli.valentina@inta.gob.ar.", "Argentina"),
        (
            "Charité - Universitätsmedizin Berlin, Berlin, Anna-Louisa-Karsch-Str. 2, 10178, Germany",
            "Germany",
        ),
        ("University of California—San Francisco, San Francisco, 94143, United States", "United States"),
        ("Jumby Bay Hawksbill Project, St Johns, Antigua & Barbu.", "Antigua and Barbuda"),
        ("Minist Hlth, Moscow, Russia.", "Russia"),
        ("Bimini Biol Field Stn Fdn, Bimini, Bahamas.", "Bahamas"),
        ("Natl Chung Hsing Univ, Inst Stat, Taichung, Taiwan.", "Taiwan"),
        ("Istanbul Univ, Istanbul, Türkiye", "Türkiye"),
        ("Some Institute, Somewhere", None),
        ("Univ New Mexico, Dept Biol, Albuquerque, New Mexico", None),  # a state, not Mexico
        ("UNSW, Sch Biol Earth & Environm Sci, Sydney, New South Wales", None),
        ("UNSW, Sydney, NSW 2052, Australia.", "Australia"),
    ],
)
def test_an_address_names_its_country_as_exports_write_it(address, country):
    assert country_of(address) == country


def test_a_paper_without_affiliations_takes_the_corresponding_address_and_scp_mcp_add_up():
    documents = pd.DataFrame(
        {
            "topic": ["0", "0", "1", "1"],
            "affiliations": [
                "[A, B] Univ X, Paris, France.; [C] Univ Y, Boston, MA 02115 USA.",
                "[D] Univ Z, Lyon, France.",
                "",
                "[E] Univ W, Oslo, Norway.",
            ],
            "corresponding_address": [
                "A, B (corresponding author), Univ X, Paris, France.",
                "",
                "F. G.; Univ V, Madrid, Spain; email: f@v.es",
                "",
            ],
        }
    )
    found = paper_countries(documents)
    assert found["countries"].tolist() == ["France;United States", "France", "Spain", "Norway"]
    assert found["corresponding_country"].tolist() == ["France", "France", "Spain", "Norway"]
    countries, per_topic = country_tables(documents)
    france = countries.set_index("country").loc["France"]
    assert (france["papers"], france["corresponding"], france["scp"], france["mcp"]) == (2, 2, 1, 1)
    assert (countries["scp"] + countries["mcp"] == countries["corresponding"]).all()
    assert countries["country"].iloc[0] == "France"
    topic0 = per_topic[per_topic["topic"] == 0]
    assert set(topic0["field"]) == {"country"} and topic0.iloc[0][["name", "count", "share"]].tolist() == [
        "France",
        2,
        1.0,
    ]


# bibliometrix's names of the countries (upper case, its own spellings) for ours
_BIBLIOMETRIX_NAMES = {
    "United States": "USA",
    "Russia": "RUSSIA",
    "South Korea": "KOREA",
    "Czechia": "CZECH REPUBLIC",
}


def _au1_co(rp: str, c1: str, countries: list[str]) -> str:
    """bibliometrix's AU1_CO (R/metaTagExtraction.R, AU1_CO): the corresponding address (RP),
    else the affiliations (C1); the "[authors]" brackets and everything up to "(REPRINT AUTHOR)"
    removed; its first ';' part; what follows its last comma; punctuation and blanks as one
    space; the first of bibliometrix's countries (in the list's order) found as " NAME "; then
    UNITED STATES -> USA and England, Scotland, Wales, North Ireland -> UNITED KINGDOM."""
    text = (rp or c1).upper()
    if not text:
        return ""
    text = re.sub(r"\[.*?\] ", "", text)
    text = re.sub(r"^.*?\((?:REPRINT|CORRESPONDING)\sAUTHOR\)", "", text)
    text = text.split(";")[0]
    text = re.sub(r"^(.+)?,", "", text)
    text = " " + " ".join(re.sub(r"[^\w\s]|_", " ", text).split()) + " "
    for name in countries:
        if f" {name} " in text:
            name = re.sub(r"\d", "", name).strip()
            name = {"UNITED STATES": "USA", "ENGLAND": "UNITED KINGDOM", "SCOTLAND": "UNITED KINGDOM",
                    "WALES": "UNITED KINGDOM", "NORTH IRELAND": "UNITED KINGDOM"}.get(name, name)  # fmt: skip
            return name
    return ""


def test_corresponding_countries_agree_with_bibliometrix_au1_co_and_its_summary(tmp_path):
    """On the WoS export: our corresponding author's country equals bibliometrix's rule (AU1_CO)
    for >= 95% of the papers, and the papers per country (bibliometrix's "Corresponding Author's
    Countries": articles, SCP, MCP) of its summary.txt for the top ten."""
    import pycountry

    if not (REFERENCE / WOS / "summary.txt").is_file():
        pytest.skip("no bibliometrix reference")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        records = all_records(shared_export(tmp_path, WOS))
    # bibliometrix's `countries` data: upper-case names; here ISO's, with the names WoS writes
    names = {c.name.upper() for c in pycountry.countries} | {
        getattr(c, "common_name", c.name).upper() for c in pycountry.countries
    }
    names |= {"USA", "CHINA", "ENGLAND", "SCOTLAND", "WALES", "NORTH IRELAND", "RUSSIA", "KOREA", "IRAN"}
    names |= {"CZECH REPUBLIC", "TURKEY", "VIETNAM", "U ARAB EMIRATES", "TAIWAN"}
    countries = sorted(names)
    reference = [
        _au1_co(rp, c1, countries)
        for rp, c1 in zip(records["corresponding_address"], records["affiliations"])
    ]
    ours = [_BIBLIOMETRIX_NAMES.get(c, c.upper()) for c in paper_countries(records)["corresponding_country"]]
    agree = sum(a == b for a, b in zip(ours, reference)) / len(records)
    assert agree >= 0.95, agree
    text = (REFERENCE / WOS / "summary.txt").read_text(encoding="utf-8")
    block = text.split("Corresponding Author's Countries", 1)[1].split("SCP: Single", 1)[0]
    rows = re.findall(r"^\d+\s+(.+?)\s+(\d+)\s+[\d.]+\s+(\d+)\s+(\d+)\s+[\d.]+\s*$", block, re.M)
    assert len(rows) == 20
    table, _ = country_tables(records)
    # bibliometrix 5.2.1 counts Taiwan's papers under CHINA (its summary's CHINA, 17 = 11 SCP + 6
    # MCP, is ours China 15 (9 + 6) plus Taiwan 2 (2 + 0)); papertopics keeps ISO 3166's Taiwan
    table["bibliometrix"] = [
        "CHINA" if c == "Taiwan" else _BIBLIOMETRIX_NAMES.get(c, c.upper()) for c in table["country"]
    ]
    mine = table.groupby("bibliometrix")[["corresponding", "scp", "mcp"]].sum()
    top = [country.strip() for country, *_ in rows[:10]]
    assert set(mine.sort_values("corresponding", ascending=False).index[:10]) == set(top)
    gaps = [
        abs(int(mine.loc[country.strip(), "corresponding"]) - int(articles))
        for country, articles, *_ in rows[:10]
    ]
    # the rest (docs/analyses.md, "Countries"): a corresponding author with addresses in two
    # countries, which bibliometrix 5.2.1 reads otherwise than AU1_CO's first address
    assert max(gaps) <= 2 and sum(gaps) <= 8 and gaps[:2] == [0, 0], gaps


def _with_affiliations(inputs):
    """A sample report's documents given affiliations: topic 0's in France, the rest in Japan and
    (every third paper) also Canada; the tables describe_topics writes from them."""
    from papertopics.analyses.registry import ANALYSES

    documents = inputs.documents
    topic = documents["topic"].astype(int)
    documents["affiliations"] = [
        "[A] Univ X, Paris, France."
        if t == 0
        else "[B] Univ Y, Tokyo, Japan." + ("; [C] U Z, Toronto, Canada." * (k % 3 == 0))
        for k, t in enumerate(topic)
    ]
    for analysis in ANALYSES:
        if analysis.name not in ("main_information", "countries"):
            continue  # the sample's own tables: over time, venues and authors, thematic map...
        written = analysis.run(documents.astype(str), inputs.topics.astype(str))
        for table in analysis.tables:
            inputs.described[table.name] = written[table.name].astype(str)
        if "sources" in written:
            inputs.described["sources"] = written["sources"].astype(str)
    return inputs


def test_the_report_shows_main_information_the_countries_page_cards_and_map_colours():
    from html import unescape

    from report_sample import sample_inputs

    from papertopics.report.countries import countries_page, has_countries
    from papertopics.report.documents import document_fields
    from papertopics.report.registry import PAGES
    from papertopics.report.render import index_page

    plain = sample_inputs(60, n_topics=4)
    plain.described.update(
        {
            name: table.astype(str)
            for name, table in (("main_information", main_information(plain.documents)),)
        }
    )
    assert not has_countries(plain)
    assert "no affiliations or corresponding addresses" in unescape(countries_page(plain))
    assert "country" not in {field["name"] for field in document_fields(plain.documents)}
    inputs = _with_affiliations(sample_inputs(60, n_topics=4))
    assert has_countries(inputs) and "countries" in [page.name for page in PAGES]
    page = unescape(countries_page(inputs))
    data = json.loads(re.search(r'id="report-data">(.*?)</script>', page, re.S).group(1))
    bars = {trace["name"]: dict(zip(trace["y"], trace["x"])) for trace in data["figure"]["data"]}
    japan = inputs.described["countries"].set_index("country").loc["Japan"]
    assert bars["single country (SCP)"]["Japan"] == int(japan["scp"]) and bars["multiple countries (MCP)"][
        "Japan"
    ] == int(japan["mcp"])
    assert "<td>France</td>" in page and "plotly.min.js" in page
    index = unescape(index_page(inputs))
    assert "Main information" in index and "<td>Documents</td>" in index
    assert '<dd class="countries"><span class="source">France' in index  # topic 0's card
    field = next(f for f in document_fields(inputs.documents) if f["name"] == "country")
    assert set(field["labels"]) == {"France", "Japan"}


def test_describe_writes_the_analyses_tables_and_leaves_topic_sources_as_it_was_without_countries(
    tmp_path, monkeypatch
):
    from types import SimpleNamespace

    import numpy as np
    import scipy.sparse as sp
    from report_sample import sample_inputs

    import papertopics.analyses.describe as describe
    from papertopics.analyses.describe import describe_topics_job
    from papertopics.analyses.registry import table_outputs
    from papertopics.report.workbook import described_sheets
    from papertopics.topics.terms import TermCounts

    inputs = sample_inputs(40, n_topics=3)
    documents = inputs.documents.assign(journal="J Ecol", year="2020")
    calls = []

    def source_tables(documents, topics):  # the venues analysis, as it writes topic_sources.csv
        calls.append(len(documents))
        return {
            "sources": pd.DataFrame(
                {"topic": [0], "field": ["venue"], "name": ["J Ecol"], "count": [5], "share": [0.5]}
            ),
            "authors": pd.DataFrame(columns=["author", "papers"]),
        }

    # the analyses that read the term counts: header-only tables here
    header = {
        "period_tables": {"over_time": ["period"], "trends": ["topic", "status"]},
        "thematic_tables": {"thematic": ["topic"]},
        "citation_tables": {"citations": ["papers_counted"], "most_cited": ["topic"]},
    }
    for function, tables in header.items():
        frames = {name: pd.DataFrame(columns=columns) for name, columns in tables.items()}
        monkeypatch.setattr(describe, function, lambda *a, frames=frames, **k: dict(frames))
    monkeypatch.setattr(describe, "source_tables", source_tables)
    for with_countries in (False, True):
        folder = tmp_path / str(with_countries)
        folder.mkdir()
        table = documents.assign(affiliations="Univ X, Oslo, Norway.") if with_countries else documents
        table.to_csv(folder / "document_topics.csv", index=False)
        inputs.topics.to_csv(folder / "topics.csv", index=False)
        TermCounts(
            sp.csr_matrix(np.ones((len(documents), 1), dtype=int)), np.array(["a"], dtype=object)
        ).save(folder / "term_counts.npz")
        outputs = {name: str(folder / Path(path).name) for name, path in table_outputs().items()}
        job = SimpleNamespace(
            input=SimpleNamespace(
                documents=folder / "document_topics.csv",
                topics=folder / "topics.csv",
                terms=folder / "term_counts.npz",
            ),
            output=SimpleNamespace(**outputs),
            params=SimpleNamespace(reduce_frequent_words=False, bm25_weighting=False, thematic={}),
        )
        describe_topics_job(job, __import__("logging").getLogger("test"))
        sources = (folder / "topic_sources.csv").read_text()
        info = pd.read_csv(outputs["main_information"], dtype=str)
        assert dict(zip(info["figure"], info["value"]))["Documents"] == str(len(documents))
        sheets = described_sheets(outputs)
        if with_countries:
            assert "country,Norway" in sources and sheets["countries"].loc[0, "corresponding"] == len(
                documents
            )
        else:
            assert sources == "topic,field,name,count,share\n0,venue,J Ecol,5,0.5\n"
            assert pd.read_csv(outputs["countries"]).empty and "countries" not in sheets
        assert sheets["main information"].set_index("figure").loc["Documents", "value"] == str(len(documents))
    assert calls == [len(documents)] * 2


def test_every_iso_country_is_read_from_the_end_of_an_address_whatever_its_capitals_or_postcode():
    """Each of ISO 3166's 249 countries, written as exports write a name (its common name, else its
    name where that has no comma; upper case as bibliometrix writes it; a postcode before it)."""
    import pycountry

    from papertopics.analyses.countries import shown_name

    missed = []
    for k, country in enumerate(pycountry.countries):
        written = getattr(country, "common_name", None) or country.name
        if "," in written:
            continue
        for form in (written, written.upper()):
            address = f"Dept Biol, Univ Somewhere, {10000 + k} Sometown, {form}."
            if country_of(address) != shown_name(country.alpha_2):
                missed.append((form, country_of(address)))
    assert not missed, missed
