"""Merge parsed listings into the corpus: one row per document, whatever lists it.

One paper is one document however its records differ: records with the same abstract (their
doc_id), the same DOI (case and a URL or "doi:" prefix folded), or the same title (letters and
digits, case folded) and year are one paper, as bibliometrix's `mergeDbSources` removes
duplicates on DI, then on TI + PY (R/mergeDbSources.R, 5.2.1: `duplicated(M$DI)`, then
`duplicated(paste(TI, " ", M$PY))`). Unlike bibliometrix, which keeps the first record only, the
merged paper keeps every record's fields: the first non-empty value of each column in listing
order, the keywords of all of them, and the larger citation count.
"""

from __future__ import annotations

import logging
import re

import pandas as pd

from papertopics.errors import CorpusTooSmallError
from papertopics.ingest.identity import identity_key

__all__ = ["build_corpus", "doi_key", "title_year_key"]

_BASE = ["doc_id", "listings", "title", "text_raw", "text"]
_LOG = logging.getLogger(__name__)

# "https://doi.org/10.1/X", "http://dx.doi.org/10.1/x", "doi:10.1/x" and "10.1/X" are one DOI
_DOI_PREFIX = re.compile(r"^(?:https?://(?:dx\.)?doi\.org/|doi:\s*)", re.I)
_DOI = re.compile(r"^10\.\d{4,9}/\S+$")
# a title this short ("Editorial", "Preface", "Reply") names no one paper: no merge on it
MIN_TITLE_WORDS = 4
# the columns whose values are lists, united over a merged paper's records
LIST_COLUMNS = ("keywords", "index_keywords")
# the citation count: the larger of a merged paper's records
CITED_COLUMN = "cited_by"


def doi_key(value: str) -> str:
    """A DOI without case, URL prefix or spaces ("" where the cell holds no DOI)."""
    doi = _DOI_PREFIX.sub("", str(value).strip()).strip().casefold()
    return doi if _DOI.match(doi) else ""


def title_year_key(title: str, year: str) -> str:
    """The folded title and the year ("" for a title under MIN_TITLE_WORDS words or no year)."""
    year_match = re.search(r"\b(1[5-9]\d\d|2\d\d\d)\b", str(year))
    if not year_match or len(str(title).split()) < MIN_TITLE_WORDS:
        return ""
    return f"{identity_key(str(title))}|{year_match.group(1)}"


def _unite(values: list[str]) -> str:
    """Keywords of several records, each once (case folded), in order: "a; B" + "b; c" -> "a; B; c"."""
    seen: dict[str, str] = {}
    for value in values:
        for word in re.split(r"\s*;\s*", value):
            if word.strip():
                seen.setdefault(word.strip().casefold(), word.strip())
    return "; ".join(seen.values())


def _count(value: str) -> float | None:
    try:
        return float(str(value).replace(",", "").strip())
    except ValueError:
        return None


def _papers(allrows: pd.DataFrame) -> tuple[pd.Series, dict[str, int]]:
    """Each row's paper (the doc_id of its paper's first row) and how many rows joined another
    on each ground: the abstract, the DOI, the title and year. Two records with different DOIs are
    never one paper on their title."""
    parent = list(range(len(allrows)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    dois = allrows["doi"].map(doi_key).tolist() if "doi" in allrows.columns else [""] * len(allrows)
    years = allrows["year"].tolist() if "year" in allrows.columns else [""] * len(allrows)
    titles = [title_year_key(t, y) for t, y in zip(allrows["title"].tolist(), years)]
    grounds = {"abstract": 0, "DOI": 0, "title and year": 0}
    paper_dois: dict[int, set[str]] = {i: {d} - {""} for i, d in enumerate(dois)}

    def union(i: int, j: int, ground: str) -> None:
        a, b = find(i), find(j)
        if a == b:
            return
        if (
            ground == "title and year"
            and paper_dois[a]
            and paper_dois[b]
            and not paper_dois[a] & paper_dois[b]
        ):
            return
        a, b = min(a, b), max(a, b)
        parent[b] = a
        paper_dois[a] |= paper_dois.pop(b)
        grounds[ground] += 1

    for ground, keys in (("abstract", allrows["doc_id"].tolist()), ("DOI", dois), ("title and year", titles)):
        first: dict[str, int] = {}
        for i, key in enumerate(keys):
            if key:
                union(first.setdefault(key, i), i, ground)
    doc_ids = allrows["doc_id"].tolist()
    return pd.Series([doc_ids[find(i)] for i in range(len(allrows))], index=allrows.index), grounds


def _merge_fields(allrows: pd.DataFrame, extras: list[str]) -> tuple[pd.DataFrame, int]:
    """One row per paper (the `paper` column): its first row, each extra column's first non-empty
    value, the list columns united, the larger citation count. Also how many papers' records gave
    different citation counts."""
    several = allrows["paper"].duplicated(keep=False)
    first = allrows.drop_duplicates("paper", keep="first").set_index("paper")
    group = allrows.loc[several].groupby("paper", sort=False)
    n_counts_differ = 0
    for col in extras:
        if col in LIST_COLUMNS:
            merged = group[col].agg(lambda v: _unite(v.tolist()))
        elif col == CITED_COLUMN:
            counts = group[col].agg(lambda v: [c for c in map(_count, v.tolist()) if c is not None])
            n_counts_differ = int(counts.map(lambda c: len(set(c)) > 1).sum())
            merged = counts.map(lambda c: f"{max(c):g}" if c else "")
        else:
            merged = group[col].agg(lambda v: next((x for x in v.tolist() if str(x).strip()), ""))
        first.loc[merged.index, col] = merged
    return first.reset_index(drop=False), n_counts_differ


def _listing_counts(frames: list[pd.DataFrame]) -> dict[str, dict]:
    """{listing: its records, documents (filled later) and header line}, in the order given."""
    per_listing: dict[str, dict] = {}
    for f in frames:
        missing = {"doc_id", "listing", "title", "text_raw", "text"} - set(f.columns)
        if missing:
            raise ValueError(f"parsed listing lacks column(s) {sorted(missing)}")
        for name in pd.unique(f["listing"]):
            if name not in per_listing:
                # the text format's header line ("NeurIPS 2026 论文列表"), else ""
                per_listing[name] = {
                    "n_records": 0,
                    "n_documents": 0,
                    "title": str(f.attrs.get("listing_title", "")),
                    # the parse stage's record (ingest.listings): the listing's column per
                    # canonical column, and what became of its records (the data page)
                    "columns": dict(f.attrs.get("sources") or {}),
                    "notes": list(f.attrs.get("notes") or []),
                }
        for name, n in f["listing"].value_counts(sort=False).items():
            per_listing[name]["n_records"] += int(n)
    return per_listing


def _say_merged(merged_on: dict[str, int], n_merged: int, n_counts_differ: int) -> None:
    """The one line that says how many records were merged into another, and on what."""
    if merged_on:
        differ = (
            f"; {n_counts_differ} with different citation counts keep the larger" if n_counts_differ else ""
        )
        _LOG.warning(
            "corpus: %d records are another record's paper and were merged into it (%s)%s",
            n_merged,
            ", ".join(f"{n} on the {ground}" for ground, n in merged_on.items()),
            differ,
        )


def _merge_notes(merged_on: dict[str, int], n_counts_differ: int) -> list[dict]:
    """The merge's line as rows of the data page: {field, what, count, why}."""
    field = {"abstract": "abstract", "DOI": "DOI", "title and year": "title"}
    notes = [
        {
            "field": field[ground],
            "what": "merged",
            "count": n,
            "why": f"records of one paper: the same {ground}",
        }
        for ground, n in merged_on.items()
    ]
    if n_counts_differ:
        notes.append(
            {"field": "citations", "what": "repaired", "count": n_counts_differ,
             "why": "a paper's records give different counts: the larger kept"}
        )  # fmt: skip
    return notes


def build_corpus(frames: list[pd.DataFrame]) -> tuple[pd.DataFrame, dict]:
    """Concatenate parsed listings (in config order) and merge the rows of one paper: the same
    abstract (doc_id), DOI or title and year (module docstring).

    The first occurrence's doc_id, title and text are kept, with every record's metadata
    (_merge_fields); `listings` records every listing the document appears in, in the order
    given, each once. One log line says how many records were merged and on what.
    """
    frames = [f for f in frames if f is not None]
    per_listing = _listing_counts(frames)
    names = list(per_listing)
    if frames:
        allrows = pd.concat(frames, ignore_index=True, sort=False)
    else:
        allrows = pd.DataFrame(columns=["doc_id", "listing", "title", "text_raw", "text"])
    extras = [c for c in allrows.columns if c not in _BASE and c != "listing"]
    allrows[extras] = allrows[extras].fillna("")
    n_rows = len(allrows)
    allrows["paper"], grounds = _papers(allrows)
    n_counts_differ = 0

    # every listing of each paper, in order of first appearance, each once
    pairs = allrows[["paper", "listing"]].drop_duplicates()
    several = pairs["paper"].duplicated(keep=False)
    joined = pd.concat(
        [
            pairs.loc[~several].set_index("paper")["listing"],
            pairs.loc[several].groupby("paper", sort=False)["listing"].agg(";".join),
        ]
    )
    for name, n in pairs["listing"].value_counts(sort=False).items():
        per_listing[name]["n_documents"] = int(n)

    if allrows["paper"].duplicated().any():
        corpus, n_counts_differ = _merge_fields(allrows, extras)
        corpus["doc_id"] = corpus["paper"]
    else:
        corpus = allrows.reset_index(drop=True)
    corpus["listings"] = corpus["doc_id"].map(joined)
    corpus = corpus[_BASE + extras].astype(str)
    merged_on = {ground: n for ground, n in grounds.items() if n}
    _say_merged(merged_on, n_rows - len(corpus), n_counts_differ)
    stats = {
        "n_documents": len(corpus),
        "n_listings": len(names),
        "n_rows": n_rows,
        "n_duplicates_merged": n_rows - len(corpus),
        "n_in_several_listings": int(corpus["listings"].str.contains(";", regex=False).sum()),
        "merged_on": merged_on,  # records merged into another, per ground: abstract, DOI, title and year
        "n_citation_counts_differ": n_counts_differ,
        "notes": _merge_notes(merged_on, n_counts_differ),
        "listings": per_listing,
    }
    if len(corpus) < 2:
        shown = ", ".join(names) if names else "none"
        said = {
            "abstract": "the same abstract (equal once case, spacing and punctuation are ignored)",
            "DOI": "the same DOI",
            "title and year": "the same title and year",
        }
        merged = (
            f", after merging {n_rows} records that are {' or '.join(said[g] for g in merged_on)}"
            if n_rows > len(corpus)
            else ""
        )
        raise CorpusTooSmallError(
            f"the corpus has {len(corpus)} document{'s' if len(corpus) != 1 else ''} "
            f"(listings: {shown}){merged}; topic modelling needs at least 2"
        )
    return corpus, stats
