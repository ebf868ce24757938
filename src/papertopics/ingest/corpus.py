"""Merge parsed listings into the corpus: one row per document, whatever lists it."""

from __future__ import annotations

import pandas as pd

from papertopics.errors import CorpusTooSmallError

__all__ = ["build_corpus"]

_BASE = ["doc_id", "listings", "title", "text_raw", "text"]


def build_corpus(frames: list[pd.DataFrame]) -> tuple[pd.DataFrame, dict]:
    """Concatenate parsed listings (in config order) and merge rows sharing a doc_id.

    The first occurrence's title, text and metadata are kept; `listings` records every
    listing the document appears in, in the order given, each once.
    """
    frames = [f for f in frames if f is not None]
    names: list[str] = []
    per_listing: dict[str, dict] = {}
    for f in frames:
        missing = {"doc_id", "listing", "title", "text_raw", "text"} - set(f.columns)
        if missing:
            raise ValueError(f"parsed listing lacks column(s) {sorted(missing)}")
        for name in pd.unique(f["listing"]):
            if name not in per_listing:
                names.append(name)
                # the text format's header line ("NeurIPS 2026 论文列表"), else ""
                per_listing[name] = {
                    "n_records": 0,
                    "n_documents": 0,
                    "title": str(f.attrs.get("listing_title", "")),
                }
        for name, n in f["listing"].value_counts(sort=False).items():
            per_listing[name]["n_records"] += int(n)
    if frames:
        allrows = pd.concat(frames, ignore_index=True, sort=False)
    else:
        allrows = pd.DataFrame(columns=["doc_id", "listing", "title", "text_raw", "text"])
    extras = [c for c in allrows.columns if c not in _BASE and c != "listing"]
    allrows[extras] = allrows[extras].fillna("")
    n_rows = len(allrows)

    # every listing of each doc_id, in order of first appearance, each once
    pairs = allrows[["doc_id", "listing"]].drop_duplicates()
    several = pairs["doc_id"].duplicated(keep=False)
    joined = pd.concat(
        [
            pairs.loc[~several].set_index("doc_id")["listing"],
            pairs.loc[several].groupby("doc_id", sort=False)["listing"].agg(";".join),
        ]
    )
    for name, n in pairs["listing"].value_counts(sort=False).items():
        per_listing[name]["n_documents"] = int(n)

    corpus = allrows.drop_duplicates("doc_id", keep="first").reset_index(drop=True)
    corpus["listings"] = corpus["doc_id"].map(joined)
    corpus = corpus[_BASE + extras].astype(str)
    stats = {
        "n_documents": len(corpus),
        "n_listings": len(names),
        "n_rows": n_rows,
        "n_duplicates_merged": n_rows - len(corpus),
        "n_in_several_listings": int(corpus["listings"].str.contains(";", regex=False).sum()),
        "listings": per_listing,
    }
    if len(corpus) < 2:
        shown = ", ".join(names) if names else "none"
        merged = (
            f", after merging {n_rows} records that are the same abstract (equal once case,"
            f" spacing and punctuation are ignored)"
            if n_rows > len(corpus)
            else ""
        )
        raise CorpusTooSmallError(
            f"the corpus has {len(corpus)} document{'s' if len(corpus) != 1 else ''} "
            f"(listings: {shown}){merged}; topic modelling needs at least 2"
        )
    return corpus, stats
