"""The reader's curation of the map, from config.yaml's `topics` section: names, merges, pins.

Topic ids are stable across reruns (topics.identity), so what a reader says about topic 12 in
config.yaml stays with topic 12: `topics.names` gives a topic its name everywhere. A name is
applied by its own light job (rule curate_topics) after fit_topics, to the fitted tables
(results/topics/fit/*.csv) -> the tables every reader reads (results/topics/*.csv): a rename
reruns that job and the report, never the fit. A name whose topic is gone from this run (it
split, merged into another or vanished) is one warning naming the key; the run goes on.

`topics.merge` and the pinned topics' ids are fit_topics' (topics.merge): a merge joins
clusters before the c-TF-IDF, so it is part of the fit, not of this light job.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from pathlib import Path

import pandas as pd

from papertopics.constants import OUTLIER

log = logging.getLogger(__name__)

# The keys of config.yaml's `topics` section that curate the fitted map. fit_topics does not
# take `names` (curate_topics applies them), so a rename never refits.
CURATION_KEYS = ("names", "merge", "pinned", "pinned_min_similarity")
# topics.csv's column saying who named the topic: the reader (config.yaml) or papertopics.
NAMED_BY = "named_by"
BY_CONFIG = "config.yaml"
BY_PAPERTOPICS = "papertopics"
# The fitted tables curate_topics reads (results/topics/fit/<name>) and rewrites (results/topics/<name>).
TABLES = ("topics.csv", "document_topics.csv", "changes.csv", "hierarchy.csv")


def fit_settings(topics: Mapping) -> dict:
    """config.yaml's `topics` without the keys fit_topics never reads (a rename reruns no fit)."""
    return {key: value for key, value in topics.items() if key not in ("names",)}


def config_names(names: Mapping | None) -> dict[int, str]:
    """topics.names as {topic id: name}; the schema check (config._cross_field_problem) has
    already refused keys that are not topic ids and empty names."""
    return {int(str(key).strip()): " ".join(str(value).split()) for key, value in (names or {}).items()}


def _read(path: str | Path) -> pd.DataFrame:
    """A table as text, cell for cell ("NA" stays "NA"): rewritten, it reads as fit_topics wrote it."""
    return pd.read_csv(path, dtype=str, keep_default_na=False, na_values=[], encoding="utf-8")


def apply_names(
    tables: dict[str, pd.DataFrame], names: Mapping[int, str]
) -> tuple[dict[str, pd.DataFrame], list[int]]:
    """The fitted tables with the reader's names; the ids of names whose topic is not in this run.

    topics.csv gets `named_by` (config.yaml | papertopics), document_topics.csv the names in
    topic_label, hierarchy.csv its leaves' labels, changes.csv its current labels.
    """
    out = {key: table.copy() for key, table in tables.items()}
    topics = out["topics.csv"]
    ids = topics["topic"].astype(int)
    present = set(ids) - {OUTLIER}
    missing = sorted(t for t in names if t not in present)
    given = {t: name for t, name in names.items() if t in present}
    topics["label"] = [given.get(t, label) for t, label in zip(ids, topics["label"])]
    topics[NAMED_BY] = [BY_CONFIG if t in given else ("" if t == OUTLIER else BY_PAPERTOPICS) for t in ids]
    _name_lone_regions(topics, out.get("hierarchy.csv"), given)
    documents = out.get("document_topics.csv")
    if documents is not None and "topic_label" in documents:
        topic = documents["topic"].astype(int)
        documents["topic_label"] = [given.get(t, label) for t, label in zip(topic, documents["topic_label"])]
    hierarchy = out.get("hierarchy.csv")
    if hierarchy is not None and len(hierarchy):
        leaf = hierarchy["level"].astype(int) == 0
        node = hierarchy["node"].astype(int)
        hierarchy["label"] = [
            given.get(n, label) if is_leaf else label
            for n, label, is_leaf in zip(node, hierarchy["label"], leaf)
        ]
    changes = out.get("changes.csv")
    if changes is not None and len(changes):
        topic = changes["topic"].astype(int)
        changes["label"] = [given.get(t, label) for t, label in zip(topic, changes["label"])]
    return out, missing


def _name_lone_regions(
    topics: pd.DataFrame, hierarchy: pd.DataFrame | None, given: Mapping[int, str]
) -> None:
    """A region of one topic is that topic: its region_label (the zoomed-out map's name) is the
    reader's name for the topic too."""
    if hierarchy is None or not len(hierarchy) or "region" not in topics.columns:
        return
    only = {
        int(node): int(ids)
        for node, ids in zip(hierarchy["node"], hierarchy["topics"].astype(str))
        if ids.strip().lstrip("-").isdigit()
    }
    region = topics["region"].astype(int)
    topics["region_label"] = [
        given.get(only[r], label) if r in only else label for r, label in zip(region, topics["region_label"])
    ]


def missing_name_line(topic: int, name: str) -> str:
    """One warning line for a name whose topic this run does not have."""
    return (
        f"config.yaml topics.names: {topic} ({name!r}): this run has no topic {topic} (it split, "
        f"merged into another or vanished: results/topics/changes.csv says which); give the name "
        f"to a topic id of results/topics/topics.csv or remove the line"
    )


def waiting_names_line(names: Mapping[int, str]) -> str:
    """One warning line for names given before any run finished in the folder."""
    ids = ", ".join(map(str, sorted(names)))
    return (
        f"config.yaml topics.names ({ids}): no finished run in this folder to take topic ids from "
        f"(results/topics/history is empty), so this run numbers its topics afresh and the names "
        f"wait; check the ids in results/topics/topics.csv, then rerun to apply them"
    )


PINNED_COLUMNS = ("topic", "name", "rank", "similarity", "doc_id", "title", "listings")


def curate_tables(
    folder_in: str | Path,
    names: Mapping | None,
    pinned: list | None = None,
    finished_run: bool = True,
    changes: pd.DataFrame | None = None,
    pinned_params: Mapping | None = None,
) -> tuple[dict[str, pd.DataFrame], list[str]]:
    """The curated tables from fit_topics' folder, and the warnings to give.

    A pinned topic (fit's topics.csv `pinned`: its name) is named by its pinned name (never
    "Mixed"), unless topics.names names its id; a pinned topic no paper joined is a warning.
    Names are ids of a run the reader saw: without a finished run in the folder (a new folder,
    or results/ removed) they wait, with one line, for the next run (finished_run False).
    `changes` replaces fit_topics' changes.csv (history.changes_since_shown: a rerun that did
    not refit compares with the last finished run, which showed these same topics).
    `pinned_params` is cluster_documents' params.json `pinned` (why a pinned topic took none).
    """
    from papertopics.cluster.pinned import pinned_topics

    folder_in = Path(folder_in)
    wanted = config_names(names)
    early = [waiting_names_line(wanted)] if wanted and not finished_run else []
    wanted = wanted if finished_run else {}
    tables = {name: _read(folder_in / name) for name in TABLES}
    if changes is not None:
        tables["changes.csv"] = changes
    topics = tables["topics.csv"]
    given = dict(wanted)
    if "pinned" in topics.columns:
        for topic, name in zip(topics["topic"].astype(int), topics["pinned"]):
            if name:
                given.setdefault(topic, name)
    curated, missing = apply_names(tables, given)
    warnings = early + [missing_name_line(t, wanted[t]) for t in missing if t in wanted]
    found = set(topics["pinned"]) if "pinned" in topics.columns else set()
    for i, topic in enumerate(pinned_topics(pinned)):
        if topic.name not in found:
            warnings.append(unjoined_pin_line(i, topic.name, pinned_params or {}))
    return curated, warnings


def unjoined_pin_line(i: int, name: str, params: Mapping) -> str:
    """One warning line for a pinned topic no paper joined, saying why when the null said no."""
    null, rule = params.get("null") or {}, (params.get("topics") or {}).get(name) or {}
    if null and "best" in rule and rule["best"] < null.get("needed", 0):
        return (
            f"config.yaml topics.pinned[{i}] ({name!r}): no paper joined it: its best papers are no "
            f"closer to it than to phrases about nothing in this listing (mean cosine of its "
            f"{null.get('best_of')} best papers {rule['best']:.2f}, unrelated phrases {null['null']:.2f}, "
            f"needed {null['needed']:.2f}), so the listing has no papers about it; give it examples or a "
            f"description, or a number for topics.pinned_min_similarity to gather its nearest papers anyway"
        )
    return (
        f"config.yaml topics.pinned[{i}] ({name!r}): no paper joined it; lower "
        f"topics.pinned_min_similarity (0: every paper joins its nearest pinned topic) or "
        f"give it examples"
    )


def pinned_table(
    topics: pd.DataFrame, documents: pd.DataFrame, clusters: pd.DataFrame | None, order: list[str]
) -> pd.DataFrame:
    """results/topics/pinned.csv: each pinned topic's papers, nearest first, with the cosine
    similarity to the pinned topic (clusters.parquet's `similarity`), the pinned topics in
    `order` (config.yaml's)."""
    if clusters is None or "pinned" not in topics.columns or "similarity" not in clusters.columns:
        return pd.DataFrame(columns=list(PINNED_COLUMNS))
    pinned = topics[topics["pinned"] != ""]
    similarity = dict(zip(clusters["doc_id"], clusters["similarity"]))
    frames = []
    for row in pinned.itertuples():
        papers = documents[documents["topic"].astype(int) == int(row.topic)].copy()
        papers["similarity"] = papers["doc_id"].map(similarity).astype(float)
        papers = papers.sort_values("similarity", ascending=False, kind="stable")
        frames.append(
            pd.DataFrame(
                {
                    "topic": int(row.topic),
                    "name": row.label,
                    "rank": range(1, len(papers) + 1),
                    "similarity": papers["similarity"].round(4).to_numpy(),
                    "doc_id": papers["doc_id"].to_numpy(),
                    "title": papers["title"].to_numpy() if "title" in papers else "",
                    "listings": papers["listings"].to_numpy() if "listings" in papers else "",
                    "_order": order.index(row.pinned) if row.pinned in order else len(order),
                }
            )
        )
    if not frames:
        return pd.DataFrame(columns=list(PINNED_COLUMNS))
    table = pd.concat(frames, ignore_index=True).sort_values(["_order", "rank"], kind="stable")
    return table[list(PINNED_COLUMNS)].reset_index(drop=True)


def _pinned_params(path: Path) -> dict:
    """cluster_documents' params.json `pinned` (beside clusters.parquet), or {} when unreadable."""
    import json

    try:
        found = json.loads(path.read_text(encoding="utf-8")).get("pinned")
    except (OSError, ValueError, AttributeError):
        return {}
    return found if isinstance(found, dict) else {}


def curate_topics_job(job, log) -> None:
    """Rule curate_topics (run by papertopics.runtime.inprocess.run_job): the reader's names and
    pinned topics on the fitted tables.

    Inputs: results/topics/fit/{topics,document_topics,changes,hierarchy}.csv (fit_topics),
    results/cluster/clusters.parquet (the pinned papers' similarities), results/topics/snapshot
    (this fit's topics: when the history's current one is the same, changes.csv says so).
    Params: names (config.yaml topics.names), pinned (topics.pinned), history (its folder).
    Outputs: results/topics/{topics,document_topics,changes,hierarchy,pinned}.csv.
    """
    from papertopics.topics.history import changes_since_shown

    folder = Path(job.input.topics).parent
    snapshot, history = getattr(job.input, "snapshot", None), getattr(job.params, "history", None)
    shown = changes_since_shown(snapshot, history) if snapshot and history else None
    curated, warnings = curate_tables(
        folder,
        job.params.names,
        job.params.pinned,
        getattr(job.params, "finished_run", True),
        shown,
        _pinned_params(Path(job.input.clusters).parent / "params.json") if job.params.pinned else None,
    )
    for line in warnings:
        log.warning("%s", line)
    outputs = {
        "topics.csv": job.output.topics,
        "document_topics.csv": job.output.documents,
        "changes.csv": job.output.changes,
        "hierarchy.csv": job.output.hierarchy,
    }
    for name, path in outputs.items():
        curated[name].to_csv(path, index=False)
    clusters = pd.read_parquet(job.input.clusters) if job.params.pinned else None
    from papertopics.cluster.pinned import pinned_topics

    order = [topic.name for topic in pinned_topics(job.params.pinned)]
    pinned = pinned_table(curated["topics.csv"], curated["document_topics.csv"], clusters, order)
    pinned.to_csv(job.output.pinned, index=False)
    named = curated["topics.csv"]
    log.info(
        "%d topic(s) named in config.yaml (pinned ones included), %d warning(s); %d pinned paper(s)",
        int((named[NAMED_BY] == BY_CONFIG).sum()),
        len(warnings),
        len(pinned),
    )
