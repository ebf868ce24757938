"""Checked against the field's reference (issue 64): bibliometrix 5.2.1's outputs on two shared
exports (../shared/data/reference/bibliometrix: records.csv, most_cited*.csv, the thematic maps),
compared record by record with what papertopics reads and computes: publication year, citation
count, TC per year (bibliometrix's as-of year, 2026, given), NTC, authors' keywords, the ten
most-cited papers; and the thematic map's `association` figures recomputed from bibliometrix's
own co-occurrence counts and clusters. Where papertopics differs on purpose, each test says which
records and why (docs/analyses.md, "Citations" and "Thematic map")."""

from __future__ import annotations

import datetime as dt
import re
import warnings

import numpy as np
import pandas as pd
import pytest
from conftest import SHARED, shared_export

from papertopics.analyses.citations import normalised, paper_citations
from papertopics.analyses.thematic import ASSOCIATION, centrality_density, sides
from papertopics.ingest.dates import add_dates
from papertopics.ingest.listings import read_listing
from papertopics.ingest.specs import ListingSpec

REFERENCE = SHARED / "data" / "reference" / "bibliometrix"
EXPORTS = ["wos-plain-capture-recapture-500.txt", "scopus-csv-smart-on-fhir-701.csv"]
# bibliometrix's CurrentYear on the day its outputs were made (its most_cited.csv CurrentYear_used)
AS_OF = 2026


def _reference(name: str, table: str) -> pd.DataFrame:
    path = REFERENCE / name / table
    if not path.exists():
        pytest.skip(f"{path} not found")
    return pd.read_csv(path, dtype=str, keep_default_na=False)


@pytest.fixture(scope="module", params=EXPORTS)
def compared(request, tmp_path_factory):
    """(name, our listing with its papers' citation figures, bibliometrix's records with their
    most_cited_all figures, the two joined on the record's id: WoS UT, Scopus EID)."""
    name = request.param
    records = _reference(name, "records.csv")
    cited = _reference(name, "most_cited_all.csv")
    path = shared_export(tmp_path_factory.mktemp("export"), name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # records without an abstract, said by the reader
        table = read_listing(ListingSpec(name="export", path=path))
        table = add_dates(table, today=dt.date(2026, 12, 6))  # bibliometrix's day
    papers = paper_citations(table, as_of_year=AS_OF)
    ours = pd.concat([table.reset_index(drop=True), papers.reset_index(drop=True).add_prefix("our_")], axis=1)
    ours["UT"] = ours["id"].str.upper()
    reference = records.merge(cited.rename(columns={"Paper": "SR"})[["SR", "TCperYear", "NTC"]], on="SR")
    assert len(reference) == len(records)  # every record has its most_cited_all row
    joined = ours.merge(reference, on="UT", how="inner", validate="one_to_one")
    assert len(joined) == len(ours)  # every paper we read is one of bibliometrix's records
    return name, ours, reference, joined


def _number(column: pd.Series) -> pd.Series:
    return pd.to_numeric(column.replace("NA", np.nan), errors="coerce")


def test_publication_years_are_bibliometrix_py_but_for_early_access_records(compared):
    """Equal for every record but those WoS lists without PY and with an early-access year (EY):
    bibliometrix leaves their PY empty, ingest.dates takes the early-access year."""
    _, _, _, joined = compared
    py = _number(joined["PY"])
    differ = ~((py == joined["our_year"]) | (py.isna() & joined["our_year"].isna()))
    assert differ.sum() <= 0.02 * len(joined)
    for row in joined[differ].itertuples():
        assert np.isnan(_number(pd.Series([row.PY]))[0]), row.UT
        assert str(row.online_date).strip().startswith(str(int(row.our_year))), row.UT


def test_citation_counts_are_bibliometrix_tc_for_every_record(compared):
    _, _, _, joined = compared
    assert (_number(joined["TC"]) == joined["our_cited_by"]).all()


def test_tc_per_year_is_bibliometrix_given_its_as_of_year(compared):
    """TC / (2026 - PY + 1) for every record whose year is bibliometrix's PY."""
    _, _, _, joined = compared
    py = _number(joined["PY"])
    same = py == joined["our_year"]
    assert same.sum() >= 0.98 * len(joined)
    np.testing.assert_allclose(
        joined.loc[same, "our_per_year"], _number(joined.loc[same, "TCperYear"]), rtol=1e-12
    )


def test_ntc_is_bibliometrix_formula_and_differs_only_by_the_years_papers(compared):
    """NTC = TC / the mean TC of the year's papers. On bibliometrix's own TC and PY our formula
    gives its NTC for every record. On our listing a year may hold other papers (a record without
    an abstract is no paper here; an early-access record gets its year), so its mean differs: NTC
    is then equal where the year holds the same papers, and within every other year ours is
    bibliometrix's times one factor, the ratio of the two means."""
    _, ours, reference, joined = compared
    ntc = normalised(_number(reference["TC"]), _number(reference["PY"]))
    np.testing.assert_allclose(ntc, _number(reference["NTC"]), rtol=1e-12)  # NaN where NA
    theirs = reference.groupby(_number(reference["PY"]).fillna(-1))["UT"].apply(frozenset)
    mine = ours.groupby(ours["our_year"].fillna(-1))["UT"].apply(frozenset)
    same_years = {y for y in theirs.index if mine.get(y) == theirs[y]}
    year = joined["our_year"].fillna(-1)
    kept = year.isin(same_years)
    np.testing.assert_allclose(joined.loc[kept, "our_ntc"], _number(joined.loc[kept, "NTC"]), rtol=1e-12)
    py = _number(joined["PY"]).fillna(-1)
    cited = (joined["our_cited_by"] > 0) & (py == year) & ~kept
    ratio = (joined["our_ntc"] / _number(joined["NTC"]))[cited].groupby(year[cited])
    assert cited.sum() > 50
    for y, factors in ratio:
        mean_theirs = _number(reference["TC"])[_number(reference["PY"]).fillna(-1) == y].mean()
        mean_ours = ours.loc[ours["our_year"].fillna(-1) == y, "our_cited_by"].mean()
        np.testing.assert_allclose(factors, mean_theirs / mean_ours, rtol=1e-9)


def _keywords(cell) -> list[str]:
    return sorted({re.sub(r"\s+", " ", k).strip().upper() for k in str(cell).split(";")} - {"", "NA"})


def test_authors_keywords_are_bibliometrix_de_but_for_inline_markup(compared):
    """The same keywords, record by record, but where bibliometrix keeps Scopus's inline tags
    ("FHIR<SUP>®</SUP>"), which the reader drops as it does in titles."""
    _, _, _, joined = compared
    assert sum(bool(_keywords(de)) for de in joined["DE"]) > 400
    for ours, de in zip(joined["keywords"], joined["DE"]):
        if _keywords(ours) != _keywords(de):
            assert "<" in de and _keywords(ours) == _keywords(re.sub(r"<[^>]+>", "", de)), (ours, de)


def test_the_ten_most_cited_papers_are_bibliometrix_ten(compared):
    """In the same order (ties in file order, as its stable sort); a record of bibliometrix's ten
    that is no paper here (no abstract) is the only gap, and the next paper fills its place."""
    name, ours, reference, _ = compared
    ten = (
        _reference(name, "most_cited.csv")
        .head(10)
        .merge(reference[["SR", "UT"]], left_on="Paper", right_on="SR")
    )
    mine = ours.sort_values("our_cited_by", ascending=False, kind="stable")["UT"].tolist()
    present = [ut for ut in ten["UT"] if ut in set(ours["UT"])]
    assert len(present) >= 9
    assert mine[: len(present)] == present
    for ut in set(ten["UT"]) - set(present):  # not read: a record without an abstract
        assert ut in set(reference["UT"]) and ut not in set(ours["UT"])


@pytest.mark.parametrize("igraph", ["thematic", "thematic_igraph-1.3.5"])
@pytest.mark.parametrize("field", ["DE", "ID"])
@pytest.mark.parametrize("name", EXPORTS)
def test_association_figures_are_bibliometrix_thematic_maps_on_its_own_clusters(name, field, igraph):
    """thematic.normalise: association on bibliometrix's co-occurrence counts (its matrix order)
    and its clusters gives every cluster's centrality and density (to 1e-9), and its sides of the
    axes (mean rank) as bibliometrix's ranks place them."""
    folder = REFERENCE / name / igraph / field
    if not (folder / "clusters.csv").exists():
        pytest.skip(f"{folder} not found")
    cooc = pd.read_csv(folder / "cooc_matrix_upper_incl_diag.csv", keep_default_na=False)
    words = pd.read_csv(folder / "words.csv", keep_default_na=False)
    clusters = pd.read_csv(folder / "clusters.csv", keep_default_na=False)
    cluster_of = dict(zip(words["Words"], words["Cluster_Label"]))  # the words of C_ii >= minfreq
    order = [t for t in dict.fromkeys(cooc["term1"]) if t in cluster_of]
    at = {t: k for k, t in enumerate(order)}
    matrix = np.zeros((len(order), len(order)))
    for a, b, count in cooc[["term1", "term2", "count"]].itertuples(index=False):
        if a in at and b in at:
            matrix[at[a], at[b]] = matrix[at[b], at[a]] = count
    theme_of = np.array([cluster_of[t] for t in order])
    centrality, density = centrality_density(matrix, theme_of, ASSOCIATION)
    assert len(clusters) >= 4
    for row in clusters.itertuples():
        assert centrality[row.name] == pytest.approx(row.centrality, abs=1e-9), row.name
        assert density[row.name] == pytest.approx(row.density, abs=1e-9), row.name
    c = np.array([centrality[n] for n in clusters["name"]])
    d = np.array([density[n] for n in clusters["name"]])
    for values, ranks in ((c, clusters["rcentrality"]), (d, clusters["rdensity"])):
        middle = ranks.mean()
        expected = [None if r == middle else bool(r > middle) for r in ranks]
        assert sides(values) == expected
