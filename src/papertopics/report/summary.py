"""The overview's content: corpus figures, metrics, the clustering note and one card per topic."""

from __future__ import annotations

import math

import pandas as pd

from papertopics.report.citations import card_citations
from papertopics.report.colors import topic_color
from papertopics.report.described import card_sources
from papertopics.report.inputs import ReportInputs, split_listings
from papertopics.report.listing_shares import listing_counts, listing_totals, single_listing_topics
from papertopics.report.text import headline

N_REPRESENTATIVES = 3


def percent(value: float, digits: int = 1) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "n/a"
    text = f"{100 * value:.{digits}f}%"
    return "0%" if text == f"{0:.{digits}f}%" else text


def format_value(key: str, value) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        if key.endswith("share") or key.endswith("fraction"):
            return percent(value)
        return f"{value:.4g}"
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, (list, tuple)):
        return ", ".join(format_value(key, item) for item in value) or "(none)"
    return str(value)


# Names and one-line meanings for the metrics evaluate_topics writes; others show by their key.
METRIC_NAMES = {
    "npmi": ("coherence (NPMI)", "-1 to 1; higher: a topic's top terms occur together in abstracts"),
    "topic_diversity": ("topic diversity", "share of distinct terms among all topics' top terms"),
    "cohesion_per_topic": (
        "cohesion",
        "0 to 1; 0: members no more alike than random abstracts of this corpus",
    ),
    "silhouette": ("silhouette", "-1 to 1; higher: documents sit closer to their own topic"),
    "silhouette_space": ("silhouette measured in", "the space the documents were clustered in"),
    "core_share": ("core share", "documents the clustering itself put in a topic"),
    "assigned_share": (
        "assigned share",
        "documents the clustering left out, then given to the topic they sit nearest "
        "(clustering.assign_min_confidence, topics.reduce_outliers)",
    ),
    "stability.ari": ("stability (ARI)", "agreement of the clustering with refits on other seeds"),
    "stability.mean_jaccard": ("stability (Jaccard)", "mean best overlap of each topic across refits"),
    "npmi_per_topic": ("NPMI", None),
    "stability.per_topic_jaccard": ("stability", None),
}
CORPUS_KEYS = {"n_documents", "n_listings", "n_topics", "outlier_share", "n_duplicates_merged"}


def _is_number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _is_per_topic(value) -> bool:
    """A {"0": 0.1, "1": ...} dict: one number per topic id."""
    if not isinstance(value, dict) or not value:
        return False
    try:
        [int(key) for key in value]
    except (TypeError, ValueError):
        return False
    return all(_is_number(v) or v is None for v in value.values())


def flatten_metrics(metrics: dict, prefix: str = "", *, per_topic: bool = True) -> list[tuple[str, str]]:
    """Every metric as ("clustering.method", "agglomerative"), nested keys joined by dots.

    With per_topic=False, {topic: value} dicts are left out (the topic cards show them).
    """
    rows: list[tuple[str, str]] = []
    for key in sorted(metrics):
        value = metrics[key]
        path = f"{prefix}{key}"
        if _is_per_topic(value) and not per_topic:
            continue
        if isinstance(value, dict):
            rows.extend(flatten_metrics(value, path + ".", per_topic=per_topic))
        else:
            rows.append((path, format_value(key, value)))
    return rows


def _walk(metrics: dict, prefix: str = ""):
    for key, value in metrics.items():
        path = f"{prefix}{key}"
        yield path, value
        if isinstance(value, dict) and not _is_per_topic(value):
            yield from _walk(value, path + ".")


# Below these many abstracts a figure says little about this corpus (word pairs co-occur in a
# handful of abstracts; one abstract moving shifts a topic's share by percents).
SMALL_CORPUS, MEDIUM_CORPUS = 300, 2000


def size_reading(path: str, n_documents, n_topics) -> str | None:
    """What a figure means at this corpus size, said in the tile ("noise on 37 abstracts")."""
    if not _is_number(n_documents) or n_documents <= 0:
        return None
    n = int(n_documents)
    per_topic = (
        f" (about {n // max(int(n_topics), 1):,} per topic)" if _is_number(n_topics) and n_topics else ""
    )
    if path == "npmi":
        if n < SMALL_CORPUS:
            return (
                f"on {n:,} abstracts{per_topic} few word pairs co-occur: this is noise, not a verdict; "
                "read the names and abstracts instead"
            )
        if n < MEDIUM_CORPUS:
            return f"rough on {n:,} abstracts{per_topic}: compare it between runs of this corpus only"
        return f"on {n:,} abstracts{per_topic}; near 0 is typical, above 0.1 is coherent"
    if path.startswith("stability.") and n < SMALL_CORPUS:
        return f"on {n:,} abstracts one abstract moving changes this a lot: a rough signal only"
    if path == "silhouette" and n < SMALL_CORPUS:
        return f"on {n:,} abstracts{per_topic}: a rough signal only"
    return None


def quality_tiles(metrics: dict) -> list[dict]:
    """Scalar quality figures (coherence, diversity, stability ...) as tiles, known ones first;
    each says what it means at this corpus's size (size_reading)."""
    values = dict(_walk(metrics))
    tiles = []
    perturbed = _stability_by_subsamples(metrics)
    for path, (name, meaning) in METRIC_NAMES.items():
        if perturbed and path.startswith("stability."):
            meaning = f"agreement with re-clusterings of {perturbed} (the clustering has no seed to vary)"
        reading = size_reading(path, values.get("n_documents"), values.get("n_topics"))
        if reading and meaning:
            meaning = f"{meaning}; {reading}"
        if _is_number(values.get(path)):
            value = percent(values[path]) if path.endswith("_share") else f"{values[path]:.3g}"
            tiles.append({"label": name, "value": value, "detail": meaning})
    for path, value in values.items():  # any other top-level number a later stage adds
        if "." not in path and path not in CORPUS_KEYS and path not in METRIC_NAMES and _is_number(value):
            tiles.append(
                {"label": path.replace("_", " "), "value": format_value(path, value), "detail": None}
            )
    return tiles


def per_topic_metrics(metrics: dict) -> list[tuple[str, dict[int, float]]]:
    """[(name, {topic: value})] for every per-topic dict in the metrics."""
    found = []
    for path, value in _walk(metrics):
        if _is_per_topic(value):
            name = METRIC_NAMES.get(path, (path.replace("_per_topic", "").replace("_", " "), None))[0]
            if path == "stability.per_topic_jaccard" and _stability_by_subsamples(metrics):
                name = f"stability ({_stability_by_subsamples(metrics)})"
            found.append((name, {int(k): v for k, v in value.items()}))
    return found


def _stability_by_subsamples(metrics: dict) -> str | None:
    """'subsamples of 90%' when stability was measured by perturbation (Ward), else None."""
    how = (
        (metrics.get("stability") or {}).get("measured_by")
        if isinstance(metrics.get("stability"), dict)
        else None
    )
    return how if isinstance(how, str) and how.startswith("subsamples") else None


def clustering_note(metrics: dict) -> str | None:
    """The reason the corpus was not split (e.g. too few documents), when there is one."""
    clustering = metrics.get("clustering") or {}
    note = clustering.get("note") if isinstance(clustering, dict) else None
    return str(note) if note else None


def _metric(metrics: dict, *names):
    for name in names:
        node = metrics
        for part in name.split("."):
            node = node.get(part) if isinstance(node, dict) else None
        if node is not None and not isinstance(node, dict):
            return node
    return None


def summary_tiles(inputs: ReportInputs) -> list[dict]:
    """The figures a reader checks first, from the tables (metrics.json fills in the rest)."""
    documents, metrics = inputs.documents, inputs.metrics
    n_docs = len(documents)
    n_outliers = int((documents["topic"] < 0).sum())
    n_topics = int(documents.loc[documents["topic"] >= 0, "topic"].nunique())
    shown = ", ".join(inputs.display_names().values())
    tiles = [
        {
            "label": "listings",
            "value": f"{len(inputs.listings):,}",
            "detail": shown if len(shown) <= 40 else None,
        },
        {"label": "documents", "value": f"{n_docs:,}", "detail": None},
        {"label": "topics", "value": f"{n_topics:,}", "detail": None},
        {
            "label": "outliers",
            "value": percent(n_outliers / n_docs if n_docs else 0.0),
            "detail": f"{n_outliers:,} documents without a topic",
        },
    ]
    duplicates = _metric(metrics, "n_duplicates_merged")
    if duplicates is not None:
        tiles[1]["detail"] = f"{format_value('n', duplicates)} duplicates merged"
    method = _metric(metrics, "clustering.method")
    if method:
        tiles[2]["detail"] = f"clustering: {method}"
    return tiles + quality_tiles(metrics)


def _representatives(
    inputs: ReportInputs, topic: int, ids: str, by_id: pd.DataFrame, known: set
) -> list[dict]:
    """The topic's representative documents. `by_id` (the documents indexed by doc_id) and
    `known` (their ids) are built once by topic_cards: per topic they cost 0.1 s at 75k
    abstracts, seconds for a hundred topics."""
    documents = inputs.documents
    names = inputs.display_names()
    chosen = [doc_id for doc_id in str(ids).split(";") if doc_id and doc_id in known]
    if len(chosen) < N_REPRESENTATIVES:  # the table had fewer: fill with the topic's first documents
        members = documents.loc[documents["topic"] == topic, "doc_id"].tolist()
        chosen += [doc_id for doc_id in members if doc_id not in chosen][: N_REPRESENTATIVES - len(chosen)]
    out = []
    for doc_id in chosen[:N_REPRESENTATIVES]:
        row = by_id.loc[doc_id]
        out.append(
            {
                "doc_id": doc_id,
                "headline": headline(row["title"], row["text"], 220),
                "text": row["text"],
                "listings": ", ".join(names.get(name, name) for name in split_listings(row["listings"])),
            }
        )
    return out


def topic_cards(inputs: ReportInputs) -> list[dict]:
    """One card per topic, topics by id, then the outliers as their own group (never hidden)."""
    topics = inputs.topics
    order = [t for t in topics["topic"] if t >= 0] + [t for t in topics["topic"] if t < 0]
    counts = listing_counts(inputs.documents, inputs.listings, order)
    totals = listing_totals(inputs.documents, inputs.listings)
    single = single_listing_topics(topics, counts)
    names = inputs.display_names()
    only_in = {
        topic: names.get(listing, listing) for topic, listing in zip(single["topic"], single["listing"])
    }
    n_docs = max(len(inputs.documents), 1)
    by_id = inputs.documents.set_index("doc_id", drop=False)
    known = set(inputs.documents["doc_id"].tolist())
    rows = topics.set_index("topic")
    scores = per_topic_metrics(inputs.metrics)
    sources = card_sources(inputs)  # years, venues, authors (report.described)
    citations = card_citations(inputs)  # total, median, most-cited papers (report.citations)
    cards = []
    for topic in order:
        row = rows.loc[topic]
        shares = []
        for listing in inputs.listings:
            count, total = int(counts.loc[topic, listing]), int(totals[listing])
            share = count / total if total else 0.0
            shares.append(
                {
                    "listing": names[listing],
                    "count": count,
                    "total": total,
                    "percent": percent(share),
                    "width": round(100 * share, 1),
                }
            )
        cards.append(
            {
                "topic": int(topic),
                "number": "–" if topic < 0 else int(topic),
                "anchor": "outliers" if topic < 0 else int(topic),
                "label": row["label"],
                "is_outliers": topic < 0,
                "color": topic_color(int(topic)),
                "size": int(row["size"]),
                "percent": percent(int(row["size"]) / n_docs),
                "coverage": _coverage(row, topic),
                "from_keywords": str(row.get("name_source", "")) == "keywords",  # topics.csv name_source
                "of_keyworded": _of_keyworded(row, topic),
                "terms": [term.strip() for term in row["top_terms"].split(";") if term.strip()],
                "representatives": _representatives(
                    inputs, int(topic), row["representative_doc_ids"], by_id, known
                ),
                "listing_shares": shares,
                "sources": sources.get(int(topic), {}),
                "citations": citations.get(int(topic)),  # analyses.citations: None without cited_by
                "only_in": only_in.get(topic),
                # the reader named it (config.yaml topics.names; topics.csv named_by)
                "named_by_you": str(row.get("named_by", "")) == "config.yaml",
                "pinned": bool(str(row.get("pinned", "") or "").strip()) and topic >= 0,
                "scores": [
                    {"name": name, "value": format_value(name, values[topic])}
                    for name, values in scores
                    if values.get(topic) is not None
                ],
            }
        )
    return cards


def _coverage(row: pd.Series, topic: int) -> str | None:
    """topics.csv's coverage as "73%": the share of the topic's abstracts using its name."""
    value = pd.to_numeric(pd.Series([row.get("coverage")]), errors="coerce").iloc[0]
    return None if topic < 0 or pd.isna(value) else percent(float(value), 0)


def _of_keyworded(row: pd.Series, topic: int) -> str | None:
    """A keyword name's coverage among the topic's papers that carry keywords (topics.csv
    coverage / keyworded) as "60%"."""
    values = pd.to_numeric(pd.Series([row.get("coverage"), row.get("keyworded")]), errors="coerce")
    if topic < 0 or values.isna().any() or values.iloc[1] <= 0:
        return None
    return percent(min(float(values.iloc[0] / values.iloc[1]), 1.0), 0)


def listing_rows(inputs: ReportInputs) -> list[dict]:
    topics = [int(t) for t in inputs.topics["topic"]]
    counts = listing_counts(inputs.documents, inputs.listings, topics)
    totals = listing_totals(inputs.documents, inputs.listings)
    single = single_listing_topics(inputs.topics, counts)
    rows = []
    for listing in inputs.listings:
        present = [t for t in topics if t >= 0 and counts.loc[t, listing] > 0]
        here = single.loc[single["listing"] == listing, "topic"].tolist()
        rows.append(
            {
                "name": inputs.display_names()[listing],
                "documents": int(totals[listing]),
                "topics": len(present),
                "outliers": int(counts.loc[-1, listing]) if -1 in counts.index else 0,
                "only_here": ", ".join(str(t) for t in here) or "–",
            }
        )
    return rows


def overlap_note(documents: pd.DataFrame) -> str:
    several = {cell: len(split_listings(cell)) > 1 for cell in documents["listings"].unique()}
    shared = int(documents["listings"].map(several).sum())
    if not shared:
        return "No abstract appears in more than one listing."
    return (
        f"{shared} abstract(s) appear in more than one listing; each counts once in every listing "
        "it appears in, so a column sums to that listing's documents."
    )


def filter_rows(table) -> list[dict]:
    """The overview's count of the records config.yaml's filters left out (results/corpus/
    filters.csv: records read -> duplicates -> each filter -> analysed); none without a filter."""
    if table is None or len(table) <= 3:  # read, duplicates, analysed: no filter was set
        return []
    rows = []
    for row in table.itertuples(index=False):
        counted = str(row.step) not in ("records read", "analysed")  # the ends remove nothing
        rows.append(
            {
                "step": str(row.step),
                "setting": str(row.setting),
                "removed": f"{int(row.removed):,}" if counted else "",
                "remaining": f"{int(row.remaining):,}",
            }
        )
    return rows
