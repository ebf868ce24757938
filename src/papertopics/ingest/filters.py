"""config.yaml's `filters`: the records left out before the analysis, and the PRISMA-style count
of what each step removed (records read -> duplicates -> each filter -> analysed).

A review's method section states its selection: the database's document types and languages, a
year range, records excluded by hand. The filters act where the corpus is built (after the
parse, after duplicate abstracts are merged), so changing one reruns the corpus and what follows,
never the parse. They run in a fixed order (document types, languages, years, exclude); each
counts the documents it removes from what the one before left, as a PRISMA flow diagram does
(Page et al. 2021, BMJ 372:n71, "records removed before screening").

- document_types: a record is kept when one of its `;`-separated types (WoS "Article; Early
  Access", PubMed "Journal Article; Review") equals one given, in any capitals;
- languages: the same on the `language` column (WoS and Scopus write "English", PubMed "eng");
- years: [first, last], either null for no bound; a document without a year is removed too;
- exclude: ids or DOIs (the listing's `id`, its `doi`, or papertopics' doc_id); DOIs compared
  without `https://doi.org/` and capitals.
A filter on a column no listing has is an error naming the key; ids that match nothing are one
warning line.
"""

from __future__ import annotations

import re
import warnings

import pandas as pd

from papertopics.errors import ConfigError, CorpusTooSmallError
from papertopics.ingest.formats._common import ListingWarning, listing_of

__all__ = ["FILTERS_COLUMNS", "active_filters", "apply_filters", "prisma_line"]

# the table results/corpus/filters.csv holds, one row per step
FILTERS_COLUMNS = ["step", "setting", "removed", "remaining"]
_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.IGNORECASE)


def active_filters(settings: dict | None) -> dict:
    """The filters config.yaml sets (empty lists and [null, null] are no filter)."""
    settings = settings or {}
    out = {}
    for key in ("document_types", "languages", "exclude"):
        values = [str(v).strip() for v in settings.get(key) or () if str(v).strip()]
        if values:
            out[key] = values
    years = list(settings.get("years") or (None, None))
    if any(y is not None for y in years):
        out["years"] = years
    return out


def _parts(value: str) -> set[str]:
    return {p.strip().casefold() for p in str(value).split(";") if p.strip()}


def _doi(value: str) -> str:
    return _DOI_PREFIX.sub("", str(value).strip()).casefold()


def _column(corpus: pd.DataFrame, column: str, key: str) -> pd.Series:
    if column not in corpus.columns or not corpus[column].astype(str).str.strip().ne("").any():
        raise ConfigError(
            f"config.yaml: filters.{key}: no listing gives a {column.replace('_', ' ')} "
            f"(its `{column}` column: docs/listings.md, 'Columns'); remove the filter"
        )
    return corpus[column].astype(str)


def _keep_values(corpus: pd.DataFrame, column: str, key: str, wanted: list[str]) -> pd.Series:
    values = _column(corpus, column, key)
    want = {w.casefold() for w in wanted}
    return values.map(lambda v: bool(_parts(v) & want))


def _keep_years(corpus: pd.DataFrame, years: list) -> pd.Series:
    if "published" in corpus.columns:
        year = pd.to_numeric(corpus["published"].astype(str).str[:4], errors="coerce")
    else:
        _column(corpus, "published", "years")  # raises: no dated listing
    first, last = years
    keep = year.notna()
    if first is not None:
        keep &= year >= int(first)
    if last is not None:
        keep &= year <= int(last)
    return keep


def _keep_exclude(corpus: pd.DataFrame, wanted: list[str]) -> pd.Series:
    ids = {w.casefold() for w in wanted}
    dois = {_doi(w) for w in wanted}
    hit = corpus["doc_id"].astype(str).str.casefold().isin(ids)
    found = set(corpus.loc[hit, "doc_id"].astype(str).str.casefold())
    if "id" in corpus.columns:
        own = corpus["id"].astype(str).str.strip().str.casefold()
        hit |= own.isin(ids)
        found |= set(own[own.isin(ids)])
    if "doi" in corpus.columns:
        doi = corpus["doi"].astype(str).map(_doi)
        hit |= doi.isin(dois) & doi.ne("")
        found |= set(doi[doi.isin(dois)])
    missing = [w for w in wanted if w.casefold() not in found and _doi(w) not in found]
    if missing:
        warnings.warn(
            ListingWarning(
                f"filters.exclude: {len(missing)} of {len(wanted)} id(s) or DOI(s) match no record: "
                f"{listing_of(missing)}"
            ),
            stacklevel=3,
        )
    return ~hit


def _setting(key: str, value) -> str:
    if key == "years":
        first, last = value
        return f"{first if first is not None else '...'}-{last if last is not None else '...'}"
    return ", ".join(value) if key != "exclude" else f"{len(value)} id(s) or DOI(s)"


_STEPS = {
    "document_types": "document types",
    "languages": "languages",
    "years": "years",
    "exclude": "excluded by id or DOI",
}


def apply_filters(
    corpus: pd.DataFrame, stats: dict, settings: dict | None
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(the corpus the analysis reads, the PRISMA table: FILTERS_COLUMNS, one row per step).
    `stats` is build_corpus's (records read, duplicates merged)."""
    active = active_filters(settings)
    rows = [
        {"step": "records read", "setting": "", "removed": 0, "remaining": int(stats["n_rows"])},
        {
            "step": "duplicates merged",
            "setting": "the same abstract",
            "removed": int(stats["n_duplicates_merged"]),
            "remaining": len(corpus),
        },
    ]
    for key in _STEPS:
        if key not in active:
            continue
        value = active[key]
        if key == "document_types":
            keep = _keep_values(corpus, "document_type", key, value)
        elif key == "languages":
            keep = _keep_values(corpus, "language", key, value)
        elif key == "years":
            keep = _keep_years(corpus, value)
        else:
            keep = _keep_exclude(corpus, value)
        removed = int((~keep).sum())
        corpus = corpus.loc[keep.to_numpy()].reset_index(drop=True)
        rows.append(
            {
                "step": _STEPS[key],
                "setting": _setting(key, value),
                "removed": removed,
                "remaining": len(corpus),
            }
        )
    rows.append({"step": "analysed", "setting": "", "removed": 0, "remaining": len(corpus)})
    table = pd.DataFrame(rows, columns=FILTERS_COLUMNS)
    if len(corpus) < 2:
        raise CorpusTooSmallError(
            f"config.yaml's filters leave {len(corpus)} document(s) ({prisma_line(table)}); topic "
            f"modelling needs at least 2"
        )
    return corpus, table


def prisma_line(table: pd.DataFrame) -> str:
    """The count in one line: "499 records read, 0 duplicates merged, document types (Article):
    12 removed, ... 480 analysed"."""
    parts = []
    for row in table.itertuples(index=False):
        if row.step == "records read":
            parts.append(f"{row.remaining} records read")
        elif row.step == "analysed":
            parts.append(f"{row.remaining} analysed")
        elif row.step == "duplicates merged":
            parts.append(f"{row.removed} duplicates merged")
        else:
            parts.append(f"{row.step} ({row.setting}): {row.removed} removed")
    return "filters: " + ", ".join(parts)
