"""Document map: every document a point at its 2-D UMAP position, coloured by topic, named like a map.

What the page needs at once is small and packed: coordinates as base64 Float32 arrays, topic
and chunk ids, one headline per document (for the tooltip), the names and anchors of the topics
and regions. Every document's headline and id sit in `data/headlines.js`, its abstract, metadata
and similar papers in `data/docs-<k>.js` (Brotli, raw bytes in a string; 1,500 consecutive
documents of the corpus per file), which the page loads with `<script>` tags when a document is
opened or a search needs them (`<script>` works on `file://`, `fetch` does not). The data files
depend on the corpus and its neighbours only, not on the topics: the pipeline packs them once per
corpus (rule pack_documents) and every report links them. Text reaches the page only through
`textContent`; Plotly draws no listing text (the tooltip is the page's own).
"""

from __future__ import annotations

import base64

import numpy as np
import pandas as pd

from papertopics.analyses.countries import has_countries, paper_countries
from papertopics.analyses.over_time import document_periods
from papertopics.analyses.sources import AUTHOR_COLUMNS, VENUE_COLUMNS, find_column
from papertopics.constants import ASSIGNED_NEAREST, MEMBERS
from papertopics.ingest.dates import PUBLISHED
from papertopics.report.citations import citation_field
from papertopics.report.colors import topic_color
from papertopics.report.document_data import CHUNK_DOCUMENTS, CHUNK_FOLDER, HEADLINES_FILE, chunk_rows
from papertopics.report.inputs import split_listings
from papertopics.report.pinned import PIN, pinned_topic_ids
from papertopics.report.text import HEADLINE_CHARS, truncate
from papertopics.topics.tree import balanced_regions, region_count


def packed(values: np.ndarray, dtype: str) -> str:
    """A numeric array as base64 of its little-endian bytes (read with a JS typed array)."""
    return base64.b64encode(
        np.ascontiguousarray(values, dtype=np.dtype(dtype).newbyteorder("<")).tobytes()
    ).decode("ascii")


def topic_anchors(documents: pd.DataFrame, map2d: pd.DataFrame, topics: pd.DataFrame) -> pd.DataFrame:
    """Where each topic's name goes: the median of its (core) points, so a few strays do not pull it."""
    frame = pd.DataFrame(
        {
            "topic": documents["topic"].to_numpy(),
            "x": map2d["x"].to_numpy(dtype=float),
            "y": map2d["y"].to_numpy(dtype=float),
        }
    )
    if "assignment" in documents.columns:
        core = documents["assignment"].isin([*MEMBERS, ""]).to_numpy()
        has_core = frame[core].groupby("topic").size()
        frame = frame[core | ~frame["topic"].isin(has_core.index).to_numpy()]
    anchors = frame.groupby("topic")[["x", "y"]].median()
    table = topics[topics["topic"] >= 0][["topic", "label", "size"]].copy()
    table = table[table["topic"].isin(anchors.index)]
    table["x"] = anchors.loc[table["topic"], "x"].to_numpy()
    table["y"] = anchors.loc[table["topic"], "y"].to_numpy()
    return table.reset_index(drop=True)


def topic_regions(topics: pd.DataFrame, anchors: pd.DataFrame) -> tuple[dict[int, int], pd.DataFrame]:
    """{topic: region} and one row per region (region, label, x, y, size).

    From topics.csv's `region`/`region_label` (the hierarchy's cut) when present; otherwise
    regions are derived from the topics' positions on the map (topics.tree.balanced_regions, Ward's
    merges of the anchors without a size cap, into as many regions as the names stage cuts,
    topics.tree.region_count, each named after its largest topic); a handful of topics are their
    own regions.
    """
    anchors = anchors.sort_values("topic").reset_index(drop=True)
    if anchors.empty:
        return {}, pd.DataFrame(columns=["region", "label", "x", "y", "size"])
    table = topics.set_index("topic")
    given = "region" in topics.columns and "region_label" in topics.columns
    if given:
        region = pd.to_numeric(table.loc[anchors["topic"], "region"], errors="coerce")
        given = region.notna().all()
    if given:
        region_of = dict(zip(anchors["topic"].astype(int), region.astype(int)))
        names = {
            int(r): str(label)
            for r, label in zip(
                pd.to_numeric(topics["region"], errors="coerce").fillna(-1),
                topics["region_label"].fillna("").astype(str),
            )
        }
    elif region_count(len(anchors)) >= len(anchors):
        region_of = {int(t): i for i, t in enumerate(anchors["topic"])}
        names = {}
    else:  # Ward's merges of the anchors on the map, no size cap (topics.tree)
        points = anchors[["x", "y"]].to_numpy(dtype=float)
        cut = balanced_regions(points, anchors["size"].to_numpy(), region_count(len(anchors)), np.inf)
        region_of = dict(zip(anchors["topic"].astype(int), cut.astype(int)))
        names = {}
    rows = []
    frame = anchors.assign(region=anchors["topic"].map(region_of))
    for region, members in frame.groupby("region"):
        members = members.sort_values("size", ascending=False)
        weights = members["size"].to_numpy(dtype=float) + 1e-9
        label = names.get(int(region)) or (
            truncate(members["label"].iloc[0], 34)
            + (f" & {len(members) - 1} more" if len(members) > 1 else "")
        )
        # the label sits on the region's own documents: at the anchor (a median of a topic's
        # points) nearest the region's centre, never in the gap between its topics
        cx, cy = np.average(members["x"], weights=weights), np.average(members["y"], weights=weights)
        nearest = int(np.argmin((members["x"].to_numpy() - cx) ** 2 + (members["y"].to_numpy() - cy) ** 2))
        rows.append(
            {
                "region": int(region),
                "label": label,
                "size": int(members["size"].sum()),
                "x": float(members["x"].iloc[nearest]),
                "y": float(members["y"].iloc[nearest]),
            }
        )
    return region_of, pd.DataFrame(rows)


def document_payload(
    documents: pd.DataFrame,
    map2d: pd.DataFrame,
    topics: pd.DataFrame,
    listings: list[str],
    display_names: dict[str, str] | None = None,
    *,
    has_neighbours: bool = False,
    max_hover_chars: int = HEADLINE_CHARS,
) -> dict:
    """What the page needs at once (no abstracts): packed arrays and the names on the map."""
    display_names = display_names or {}
    index = {name: i for i, name in enumerate(listings)}
    topic_array = documents["topic"].to_numpy(dtype=np.int64)
    nearest = (
        (documents["assignment"].to_numpy() == ASSIGNED_NEAREST)
        if "assignment" in documents.columns
        else None
    )
    anchors = topic_anchors(documents, map2d, topics)
    region_of, regions = topic_regions(topics, anchors)
    pins = set(pinned_topic_ids(topics))  # topics.pinned: marked on the map
    topic_list = [
        {
            "topic": int(row.topic),
            "label": (PIN if int(row.topic) in pins else "") + str(row.label),
            "size": int(row.size),
            "color": topic_color(int(row.topic)),
            "region": int(region_of.get(int(row.topic), -1)),
            "x": round(float(row.x), 4),
            "y": round(float(row.y), 4),
        }
        for row in anchors.itertuples()
    ]
    outliers = topics[topics["topic"] < 0]
    topic_list += [
        {
            "topic": int(t),
            "label": str(label),
            "size": int(s),
            "color": topic_color(int(t)),
            "region": -1,
            "x": None,
            "y": None,
        }
        for t, label, s in zip(outliers["topic"], outliers["label"], outliers["size"])
        if int(s) > 0
    ]
    return {
        "n": len(documents),
        # the headlines and ids (tooltips, lists, the first search) are packed in a data file
        "headline_file": f"{CHUNK_FOLDER}/{HEADLINES_FILE}",
        "hover_chars": int(max_hover_chars),  # the tooltip shortens a headline to this
        "topic": topic_array.tolist(),
        "x": packed(map2d["x"].to_numpy(dtype=float), "f4"),
        "y": packed(map2d["y"].to_numpy(dtype=float), "f4"),
        "nearest": packed(nearest, "u1") if nearest is not None and nearest.any() else None,
        "chunk_documents": CHUNK_DOCUMENTS,  # document r is in data/docs-<r // chunk_documents>.js
        "n_chunks": len(chunk_rows(len(documents))),
        "chunk_folder": CHUNK_FOLDER,
        "listings": [
            [index[name] for name in split_listings(cell) if name in index] for cell in documents["listings"]
        ],
        "listing_names": [display_names.get(name, name) for name in listings],
        "topics": topic_list,
        "regions": regions.round(4).to_dict("records"),
        "topic_labels": {str(int(t)): label for t, label in zip(topics["topic"], topics["label"])},
        "topic_colors": {str(int(t)): topic_color(int(t)) for t in topics["topic"]},
        "has_neighbours": bool(has_neighbours),
        "fields": document_fields(documents),  # colour and filter the map by year or venue
        # what the search's author: reads: full names, and per row the authors where a row has none
        # (a Scopus listing beside an IEEE one: topics.sources.row_authors)
        "author_column": find_column(documents, AUTHOR_COLUMNS),
        "author_fallback": [c for c in AUTHOR_COLUMNS if c in documents.columns][1:2] or None,
    }


# months of the `month` field count from January of this year, or of the earliest paper's year
# when that is earlier (u2 holds 5,000 years of them)
MONTH_ORIGIN = 2000
# categories a field colours the map by (the commonest; the rest are "other")
FIELD_CATEGORIES = 10


def time_field(documents: pd.DataFrame) -> dict | None:
    """`year` (numeric, packed u2, 0 for none), or `month` for a listing whose periods are months
    (analyses.over_time.document_periods: a 16-month arXiv listing), as months since the field's
    `origin` + 1 (MONTH_ORIGIN, or the earliest paper's year when earlier)."""
    origin = None
    if PUBLISHED in documents.columns:  # the map shows each paper's own year or month, not its period
        published = documents[PUBLISHED].fillna("").astype(str)
        unit = document_periods(published)[1]
        if unit == "month":
            dated = published.str[:7].str.fullmatch(r"\d{4}-\d{2}")
            months = published.str[:7].where(dated, "0000-01")
            # counted from January of the earliest paper's year, so none before MONTH_ORIGIN is lost
            origin = min(MONTH_ORIGIN, int(months[dated].str[:4].astype(int).min()))
            values = (months.str[:4].astype(int) - origin) * 12 + months.str[5:7].astype(int)
            values = np.where(dated, values, 0).clip(0, 65535).astype(np.uint16)
        elif unit:
            years = pd.to_numeric(published.str[:4], errors="coerce")
            values = years.fillna(0).clip(0, 65535).to_numpy(dtype=np.uint16)
    elif "year" in documents.columns:
        unit, values = "year", pd.to_numeric(documents["year"], errors="coerce").fillna(0).clip(0, 65535)
        values = values.to_numpy(dtype=np.uint16)
    else:
        unit = ""
    if not unit or len(np.unique(values[values > 0])) < 2:
        return None
    known = values[values > 0]
    return {"name": unit, "kind": "numeric", "values": packed(values, "u2"), "min": int(known.min()),
            "max": int(known.max()), "origin": origin}  # fmt: skip


def document_fields(documents: pd.DataFrame) -> list[dict]:
    """The fields the map can be coloured and filtered by: the time (time_field) and the venue
    column (analyses.sources; packed u1 codes of its commonest values), the country
    (country_field), the citations."""
    time = time_field(documents)
    fields = [time] if time is not None else []
    venue = find_column(documents, VENUE_COLUMNS)
    if venue is not None:
        names = documents[venue].fillna("").astype(str).str.strip()
        # one venue however it is capitalised, shown in its fullest written form, as the cards'
        # top venues fold it (analyses.sources.topic_sources: lower-cased keys, the longest form)
        keys = names.str.lower()
        forms = pd.DataFrame({"key": keys, "name": names})[names != ""].value_counts()
        shown = {key: max(group.items(), key=lambda kv: (len(kv[0][1]), kv[1]))[0][1]
                 for key, group in forms.groupby(level="key")}  # fmt: skip
        common = [key for key in keys[keys != ""].value_counts().index[:FIELD_CATEGORIES]]
        code = {key: k + 1 for k, key in enumerate(common)}  # 0: none, len + 1: other
        rest = bool(keys[keys != ""].nunique() > len(common))
        codes = np.array([code.get(key, len(common) + 1) if key else 0 for key in keys], dtype=np.uint8)
        labels = [shown[key] for key in common]
        fields.append(
            {
                "name": str(venue),
                "kind": "category",
                "values": packed(codes, "u1"),
                "labels": [*labels, "other"] if rest else labels,
                "other": rest,  # the last label gathers the rest
            }
        )
    country = country_field(documents)  # analyses.countries: the corresponding author's country
    if country is not None:
        fields.append(country)
    cited = citation_field(documents)  # report.citations: colour by citations (log), `cited:>100`
    if cited is not None:
        fields.append({**cited, "values": packed(cited["values"], cited["type"])})
    return fields


def country_field(documents: pd.DataFrame) -> dict | None:
    """Each paper's country, as bibliometrix counts a paper under one (its corresponding author's:
    analyses.countries), packed u1 codes of the FIELD_CATEGORIES commonest; None without
    affiliations or corresponding addresses."""
    if not has_countries(documents):
        return None
    names = paper_countries(documents)["corresponding_country"]
    known = names[names != ""]
    if known.empty:
        return None
    common = list(known.value_counts().index[:FIELD_CATEGORIES])
    code = {name: k + 1 for k, name in enumerate(common)}  # 0: none, len + 1: other
    rest = bool(known.nunique() > len(common))
    codes = np.array([code.get(n, len(common) + 1) if n else 0 for n in names], dtype=np.uint8)
    return {
        "name": "country",
        "kind": "category",
        "values": packed(codes, "u1"),
        "labels": [*common, "other"] if rest else common,
        "other": rest,
    }


def topic_download_payload(documents: pd.DataFrame, topics: pd.DataFrame) -> dict:
    """What the overview's "download these papers (CSV)" buttons need: every document's topic,
    packed, and where the data files are; the titles, abstracts and metadata are read from the
    document map's data files (loaded by <script>, so it works offline) when a button is pressed."""
    topic = documents["topic"].to_numpy(dtype=np.int64)
    small = not len(topic) or (topic.min() >= -(2**15) and topic.max() < 2**15)
    return {
        "n": len(documents),
        "topic": packed(topic, "i2" if small else "i4"),
        "topic_bytes": 2 if small else 4,
        "labels": {str(int(t)): str(label) for t, label in zip(topics["topic"], topics["label"])},
        "headline_file": f"{CHUNK_FOLDER}/{HEADLINES_FILE}",
        "chunk_documents": CHUNK_DOCUMENTS,
        "n_chunks": len(chunk_rows(len(documents))),
        "chunk_folder": CHUNK_FOLDER,
    }
