"""Synthetic report inputs: a corpus of any size without the pipeline or a saved model.

Used by the tests (tiny corpora, hostile text) and to time the pages at realistic sizes
(`sample_inputs(3584)` is NeurIPS 2023's size).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from papertopics.report.inputs import ReportInputs

_VOCABULARY = [
    "language models reasoning chain thought prompting tokens decoding benchmark",
    "reinforcement learning policy reward agent exploration value environment",
    "diffusion images generation denoising sampling score latent",
    "graph neural networks message passing nodes edges molecules",
    "privacy differential federated clients secure aggregation noise",
    "optimization convergence gradient descent stochastic convex rates",
    "vision transformers attention patches segmentation detection",
    "causal inference treatment effects confounding identification",
    "bandits regret online learning arms exploration bounds",
    "fairness groups bias classification demographic parity",
    "speech audio recognition acoustic waveform",
    "robotics manipulation control grasping trajectories",
]
_FILLER = (
    "we study this problem and show that the approach improves on strong baselines across "
    "several settings while remaining simple to implement and analyse"
).split()

# Text a report must show as text and never run (each sets a flag the browser test checks).
HOSTILE_TEXTS = [
    '<script>window.__pwned = "script"; document.title = "pwned"</script> Plain words after a script tag.',
    "<img src=x onerror=\"window.__pwned = 'img'\"> An image that must not load, "
    "and \"double\" and 'single' quotes.",
    "<a href=\"javascript:window.__pwned = 'link'\">click me</a> a javascript: link, "
    "then </script><!-- and ]]>",
    "<b>bold?</b> & ampersands &amp; entities &lt;script&gt; <svg onload=\"window.__pwned = 'svg'\"></svg>",
]


def sample_inputs(
    n_documents: int = 60,
    *,
    n_topics: int = 6,
    listings=("alpha", "beta"),
    outlier_share: float = 0.1,
    hostile: bool = False,
    with_titles: bool = True,
    abstract_words: int = 40,
    seed: int = 0,
    metrics: dict | None = None,
    single_listing_topic: bool = True,
    changes: bool = True,
) -> ReportInputs:
    """A ReportInputs with blobs of documents per topic; deterministic for a seed.

    With `changes`, a changes table as a rerun would write it (`sample_changes`): every status
    that the topics allow, a topic merged away and a vanished one.

    With `hostile`, the first documents carry HOSTILE_TEXTS in title and abstract, a topic
    label and a listing name carry markup too, and an extra `url` column holds a
    `javascript:` URL.
    """
    rng = np.random.RandomState(seed)
    listings = list(listings)
    topics = np.arange(n_topics)
    weights = 1.0 / (topics + 2.0)
    weights /= weights.sum()
    assigned = rng.choice(topics, size=n_documents, p=weights)
    first = min(n_topics, n_documents)
    assigned[:first] = topics[:first]  # every topic has a document
    outliers = rng.rand(n_documents) < outlier_share
    outliers[:n_topics] = False
    assigned = np.where(outliers, -1, assigned)

    centres = rng.normal(scale=6.0, size=(n_topics, 2))
    rows = []
    for i, topic in enumerate(assigned):
        words = (
            _VOCABULARY[topic % len(_VOCABULARY)].split()
            if topic >= 0
            else _VOCABULARY[rng.randint(len(_VOCABULARY))].split()
        )
        own = rng.rand(abstract_words) < 0.45
        picks = rng.randint(0, 1 << 20, size=abstract_words)
        body = [words[k % len(words)] if mine else _FILLER[k % len(_FILLER)] for mine, k in zip(own, picks)]
        text = (f"Document {i} on {words[0]} {words[1]}. " + " ".join(body) + ".").replace("  ", " ")
        if topic >= 0 and single_listing_topic and topic == n_topics - 1:
            member = [listings[0]]
        else:
            member = [listings[i % len(listings)]]
            if len(listings) > 1 and rng.rand() < 0.08:
                member = listings[:2]
        x, y = (centres[topic] if topic >= 0 else rng.uniform(-8, 8, size=2)) + rng.normal(scale=1.0, size=2)
        rows.append(
            {
                "doc_id": f"{i:016x}",
                "listings": ";".join(member),
                "topic": int(topic),
                "title": f"A study of {words[0]} {words[2 % len(words)]} number {i}" if with_titles else "",
                "text": text,
                "x": float(x),
                "y": float(y),
                "url": f"https://example.org/paper/{i}",
            }
        )
    documents = pd.DataFrame(rows)
    labels = {int(t): ", ".join(_VOCABULARY[t % len(_VOCABULARY)].split()[:3]) for t in topics}
    labels[-1] = "Outliers (no topic)"
    if hostile:
        for k, payload in enumerate(HOSTILE_TEXTS[: len(documents)]):
            documents.loc[k, "title"] = payload if k % 2 == 0 else ""
            documents.loc[k, "text"] = payload + " " + documents.loc[k, "text"]
        documents.loc[0, "url"] = "javascript:window.__pwned = 'url'"
        labels[0] = '<i>label</i> "quoted" <img src=y onerror="window.__pwned = \'label\'">'
        hostile_listing = "<svg onload=\"window.__pwned='listing'\">"
        documents["listings"] = documents["listings"].str.replace(listings[-1], hostile_listing, regex=False)
        listings = [*listings[:-1], hostile_listing]
    documents["topic_label"] = documents["topic"].map(labels)
    map2d = documents[["doc_id", "x", "y"]].copy()
    documents = documents.drop(columns=["x", "y"])

    topic_rows = []
    for topic in sorted(set(documents["topic"])):
        members = documents.loc[documents["topic"] == topic, "doc_id"].tolist()
        terms = _VOCABULARY[topic % len(_VOCABULARY)].split()[:10] if topic >= 0 else []
        topic_rows.append(
            {
                "topic": topic,
                "label": labels[topic],
                "size": len(members),
                "top_terms": "; ".join(terms),
                "representative_doc_ids": ";".join(members[:3]),
            }
        )
    if metrics is None:
        n_out = int((documents["topic"] == -1).sum())
        metrics = {
            "n_documents": n_documents,
            "n_listings": len(listings),
            "n_topics": n_topics,
            "outlier_share": round(n_out / n_documents, 4),
            "n_duplicates_merged": 0,
            "clustering": {"method": "hdbscan", "note": None, "n_clusters": n_topics, "n_outliers": n_out},
        }
    topic_table = pd.DataFrame(topic_rows)
    return ReportInputs(
        documents=documents,
        topics=topic_table,
        map2d=map2d,
        metrics=metrics,
        listings=listings,
        title=None,
        changes=sample_changes(topic_table, hostile=hostile) if changes else None,
    )


# The status of the k-th current topic in sample_changes (then unchanged, grown, shrunk in turn).
_SAMPLE_STATUSES = ("grown", "split", "unchanged", "merged", "split", "new", "shrunk")
HOSTILE_VANISHED_LABEL = '<script>window.__pwned = "changes"</script> retired <b>topic</b>'


def sample_changes(topics: pd.DataFrame, *, hostile: bool = False) -> pd.DataFrame:
    """A changes table (results/topics/changes.csv) for these topics, as if the run were a rerun.

    Topic 1 split (topic 4 split off it), topic 3 absorbed a previous topic (id n, merged), and a
    previous topic (id n + 1) vanished; with `hostile`, the vanished topic's label is markup.
    """
    current = [int(t) for t in topics["topic"] if t >= 0]
    sizes = dict(zip(topics["topic"].astype(int), topics["size"].astype(int)))
    labels = dict(zip(topics["topic"].astype(int), topics["label"]))
    extra = max(current, default=-1) + 1
    absorbed, vanished = extra, extra + 1
    rows = []
    for k, topic in enumerate(current):
        status = _SAMPLE_STATUSES[k] if k < len(_SAMPLE_STATUSES) else ("unchanged", "grown", "shrunk")[k % 3]
        new = sizes[topic]
        prev = {"grown": max(1, new // 3), "shrunk": new * 3, "new": 0, "unchanged": new}.get(status, new)
        row = {
            "topic": topic,
            "status": status,
            "label": labels[topic],
            "prev_size": prev,
            "new_size": new,
            "from_topics": "",
            "to_topics": "",
        }
        if status == "split" and topic == 1:
            row.update(prev_size=new + sizes.get(4, 0), to_topics="1;4" if 4 in sizes else "1")
        elif status == "split":
            row.update(prev_size=0, from_topics="1")
        elif status == "merged":
            row.update(prev_size=max(1, new // 2), from_topics=f"{topic};{absorbed}")
        rows.append(row)
    if 3 in sizes:
        rows.append(
            {
                "topic": absorbed,
                "status": "merged",
                "label": "an absorbed topic",
                "prev_size": max(1, sizes[3] // 2),
                "new_size": 0,
                "from_topics": "",
                "to_topics": "3",
            }
        )
    rows.append(
        {
            "topic": vanished,
            "status": "vanished",
            "label": HOSTILE_VANISHED_LABEL if hostile else "a topic that vanished",
            "prev_size": 4,
            "new_size": 0,
            "from_topics": "",
            "to_topics": "",
        }
    )
    if -1 in sizes:
        rows.append(
            {
                "topic": -1,
                "status": "shrunk",
                "label": "outliers",
                "prev_size": 2 * sizes[-1],
                "new_size": sizes[-1],
                "from_topics": "",
                "to_topics": "",
            }
        )
    table = pd.DataFrame(rows)
    for size, share in (("prev_size", "prev_share"), ("new_size", "new_share")):
        table[share] = table[size] / max(int(table[size].sum()), 1)
    return table


def dated_inputs(n_documents: int = 300, *, n_topics: int = 6, seed: int = 0) -> ReportInputs:
    """sample_inputs with the columns an export carries (date, year, journal, authors) and
    describe_topics' tables computed from them, as the pipeline would: topic 0's share grows
    year by year (2015-2024), topic 1's shrinks, the others stay flat."""
    from sklearn.feature_extraction.text import CountVectorizer

    from papertopics.analyses.over_time import over_time_tables
    from papertopics.analyses.sources import author_table, topic_sources
    from papertopics.analyses.thematic import thematic_map

    inputs = sample_inputs(n_documents, n_topics=n_topics, seed=seed, listings=("alpha",))
    rng = np.random.RandomState(seed)
    documents, topics = inputs.documents.copy(), inputs.topics.copy()
    topic = documents["topic"].to_numpy()
    years = rng.randint(2015, 2025, size=len(documents))
    years = np.where(topic == 0, np.maximum(years, rng.randint(2019, 2025, size=len(documents))), years)
    years = np.where(topic == 1, np.minimum(years, rng.randint(2015, 2021, size=len(documents))), years)
    documents["year"] = years.astype(str)
    documents["published"] = [f"{y}-{m:02d}" for y, m in zip(years, rng.randint(1, 13, size=len(documents)))]
    journals = ["Journal of Alpha", "Beta Letters", "Gamma Reviews"]
    documents["journal"] = [journals[(t + i) % 2 if t >= 0 else 2] for i, t in enumerate(topic)]
    documents["authors"] = [
        "Smith, John; Doe, A." if i % 3 == 0 else "Smith, J.; Roe, B." if i % 3 == 1 else "J. Smith"
        for i in range(len(documents))
    ]
    topics["cohesion"] = [round(0.1 + 0.03 * (t % 5), 3) if t >= 0 else "" for t in topics["topic"]]
    counter = CountVectorizer()
    counts = counter.fit_transform(documents["text"]).tocsr()
    terms = counter.get_feature_names_out()
    shares, trends, _ = over_time_tables(documents, topics, counts, terms)
    described = {
        "over_time": shares,
        "trends": trends,
        "sources": topic_sources(documents),
        "authors": author_table(documents),
        "thematic": thematic_map(documents, topics, counts, terms),
    }
    text = {name: table.astype(str).replace({"nan": "", "None": ""}) for name, table in described.items()}
    return ReportInputs(
        documents=documents,
        topics=topics,
        map2d=inputs.map2d,
        metrics=inputs.metrics,
        listings=inputs.listings,
        described=text,
    )
