"""Pinned topics (config.yaml topics.pinned): topics the reader names, each gathering the papers
nearest to it before the rest of the corpus is clustered.

A pinned topic is a phrase ("graph neural networks") or {name, description, examples}. Its
vector is the embedding of "a paper about <name>" (and ". <description>" when given), with the
mean of its example papers' vectors added at equal weight when it has examples: the example
papers say what the reader means by the name in the corpus' own words. Papers are compared
with the pinned topics by cosine, seen from the corpus' average paper (each paper's vector
less the corpus mean, as hdbscan.merge_similarity measures clusters): what every paper of the
corpus shares (the field, the genre) says nothing about which pinned topic a paper is about,
and without it a broad name no longer draws the papers of every other one (bench/pinned.py:
+0.07 of papers in their own area on ICLR). A paper joins its nearest pinned topic when its
similarity there reaches `topics.pinned_min_similarity`:

- a number: that cosine (0: every paper joins its nearest pinned topic, the papers left over
  for the clustering are none);
- `auto`: the paper stands out for that topic: its similarity is at least AUTO_SIGMAS standard
  deviations above the corpus' mean similarity to the topic (per topic, so a broad name with
  high similarities everywhere and a narrow one are judged alike; no number tuned to a corpus).
  That always selects a tail, so a pinned topic must first stand out from a null: phrases about
  nothing a paper is about (CONTROLS, embedded as the pinned topics are). The mean cosine of its
  NULL_BEST best papers must be AUTO_SIGMAS robust standard deviations (median, scaled MAD)
  above the controls' same figure; otherwise its best papers are no closer to it than to an
  unrelated phrase and it gathers none (params.json says so, curate_topics warns).

The papers left over are clustered as without pins (cluster.stage).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from papertopics.errors import ConfigError, PapertopicsError
from papertopics.vectors import normalise

# How a pinned topic's name is embedded: a document model places "a paper about X" nearer to
# papers about X than the bare phrase X (bench/pinned.py measures both).
PROMPT = "a paper about {name}"
# topics.pinned_min_similarity: auto: a paper joins when its similarity is this many standard
# deviations above the corpus' mean similarity to the pinned topic.
AUTO_SIGMAS = 2.0
NOT_PINNED = -1
# The null for `auto` (bench/pinned_null.py on the ICLR sample: nonsense pins score below 2,
# named areas above, at 300 and 1,000 papers): phrases far from research papers, embedded with
# PROMPT; stored after the pinned topics in pinned_topics.parquet under CONTROL_MARK + phrase.
CONTROLS = (
    "cooking recipes", "gardening", "a football match", "knitting", "wedding planning", "pet care",
    "home furniture", "holiday travel", "opera", "fashion", "car repair", "real estate",
    "wine tasting", "fishing", "yoga", "board games", "hairdressing", "baking", "poetry",
    "church history", "ballet", "camping", "jewellery", "gossip about celebrities",
)  # fmt: skip
CONTROL_MARK = "papertopics-null: "
NULL_BEST = 10  # the best papers whose mean cosine a pinned topic and each control are compared by
NEVER = 2.0  # the threshold of a pinned topic that takes no paper: above any cosine


@dataclass(frozen=True)
class PinnedTopic:
    name: str
    description: str = ""
    examples: tuple[str, ...] = field(default_factory=tuple)  # listing files of example papers

    @property
    def text(self) -> str:
        """What is embedded for the name (and description)."""
        text = PROMPT.format(name=self.name)
        return f"{text}. {self.description}" if self.description else text


def pinned_topics(entries) -> list[PinnedTopic]:
    """config.yaml topics.pinned as PinnedTopic (a phrase, or a mapping; the schema checked it)."""
    out = []
    for entry in entries or []:
        if isinstance(entry, str):
            out.append(PinnedTopic(" ".join(entry.split())))
            continue
        examples = entry.get("examples") or []
        examples = [examples] if isinstance(examples, str) else list(examples)
        out.append(
            PinnedTopic(
                " ".join(str(entry["name"]).split()),
                " ".join(str(entry.get("description") or "").split()),
                tuple(str(path) for path in examples),
            )
        )
    return out


def centred(vectors: np.ndarray, mean: np.ndarray | None = None) -> np.ndarray:
    """Unit vectors seen from the corpus' average paper (`mean`; default: these vectors' mean)."""
    vectors = np.asarray(vectors, dtype=np.float32)
    mean = vectors.mean(axis=0) if mean is None else np.asarray(mean, dtype=np.float32)
    return normalise(vectors - mean)


def topic_vector(
    name_vector: np.ndarray, example_vectors: np.ndarray | None = None, corpus_mean: np.ndarray | None = None
) -> np.ndarray:
    """The pinned topic's unit vector: its name's, plus its examples' mean (seen from the
    corpus' average paper, `corpus_mean`, as the papers are) at equal weight."""
    vector = normalise(np.asarray(name_vector, dtype=np.float64)[None, :])[0]
    if example_vectors is not None and len(example_vectors):
        mean = np.asarray(example_vectors, dtype=np.float64).mean(axis=0)
        if corpus_mean is not None:
            mean = mean - np.asarray(corpus_mean, dtype=np.float64)
        vector = normalise((vector + normalise(mean[None, :])[0])[None, :])[0]
    return vector.astype(np.float32)


def auto_thresholds(similarity: np.ndarray) -> np.ndarray:
    """pinned_min_similarity auto: per pinned topic, the corpus' mean similarity to it plus
    AUTO_SIGMAS standard deviations."""
    return similarity.mean(axis=0) + AUTO_SIGMAS * similarity.std(axis=0)


def split_controls(names: list[str], vectors: np.ndarray) -> tuple[list[str], np.ndarray, np.ndarray]:
    """pinned_topics.parquet's rows as (pinned names, their vectors, the controls' vectors)."""
    control = np.array([str(name).startswith(CONTROL_MARK) for name in names], dtype=bool)
    vectors = np.asarray(vectors, dtype=np.float32)
    return [n for n, c in zip(names, control) if not c], vectors[~control], vectors[control]


def best_mean(similarity: np.ndarray, k: int = NULL_BEST) -> np.ndarray:
    """Per column, the mean of its k highest values (all of them in a smaller corpus)."""
    k = max(1, min(k, len(similarity)))
    return np.sort(similarity, axis=0)[-k:].mean(axis=0)


def null_check(vectors: np.ndarray, pinned: np.ndarray, controls: np.ndarray) -> dict:
    """How far each pinned topic's best papers stand out from the controls' (CONTROLS):
    {"best": per pinned topic, "null": the controls' median, "spread": their robust SD
    (1.4826 x MAD), "stands_out": per pinned topic, best >= null + AUTO_SIGMAS x spread}."""
    seen = centred(vectors)
    best = best_mean(seen @ np.asarray(pinned, dtype=np.float32).T)
    null = best_mean(seen @ np.asarray(controls, dtype=np.float32).T)
    centre = float(np.median(null))
    spread = max(1.4826 * float(np.median(np.abs(null - centre))), 1e-6)
    return {
        "best": best,
        "null": centre,
        "spread": spread,
        "stands_out": best >= centre + AUTO_SIGMAS * spread,
    }


def assign_pinned(
    vectors: np.ndarray,
    pinned: np.ndarray,
    min_similarity: float | str,
    *,
    corpus_mean: np.ndarray | None = None,
    thresholds: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each paper's pinned topic (index into `pinned`, NOT_PINNED: none), its similarity to its
    nearest pinned topic, and the thresholds used (one per pinned topic).

    vectors: the corpus' unit vectors (rows), compared from their mean (`centred`; a new paper
    from the run's `corpus_mean`, with the run's `thresholds`: papertopics.load's transform);
    pinned: the pinned topics' unit vectors (`topic_vector`); min_similarity a number or "auto".
    """
    n = len(vectors)
    if not len(pinned):
        return np.full(n, NOT_PINNED), np.zeros(n, dtype=np.float32), np.zeros(0)
    similarity = centred(vectors, corpus_mean) @ np.asarray(pinned, dtype=np.float32).T
    if thresholds is not None:
        thresholds = np.asarray(thresholds, dtype=np.float64)
    elif min_similarity == "auto":
        thresholds = auto_thresholds(similarity)
    else:
        thresholds = np.full(len(pinned), float(min_similarity))
    if (thresholds >= NEVER).all():  # no pinned topic takes papers
        return np.full(n, NOT_PINNED), similarity.max(axis=1), thresholds
    # a pinned topic that takes no paper (NEVER: it stands out from no null) is nobody's nearest
    nearest = np.where(thresholds >= NEVER, -np.inf, similarity).argmax(axis=1)
    best = similarity[np.arange(n), nearest]
    # 0: every paper joins its nearest pinned topic, also one whose cosine is below 0
    joins = (
        best >= thresholds[nearest]
        if min_similarity == "auto" or float(min_similarity) > 0
        else np.ones(n, bool)
    )
    return np.where(joins, nearest, NOT_PINNED), best, thresholds


def example_files(entries, folder: Path) -> list[str]:
    """Every pinned topic's example listing files (globs expanded), relative to the folder as
    Snakemake names inputs; a file that is not there is one line naming the key."""
    from papertopics.ingest.listings import relative_to_folder, resolve_listings

    files: list[str] = []
    for i, topic in enumerate(pinned_topics(entries)):
        for path in topic.examples:
            key = f"topics.pinned[{i}].examples"
            try:
                specs = resolve_listings([path], Path(folder))
            except PapertopicsError as error:
                raise ConfigError(
                    f"config.yaml {key}: {error}; give a listing file of papers (BibTeX, RIS, CSV, ...) "
                    f"relative to {folder}, or remove it"
                ) from None
            files.extend(str(relative_to_folder(spec.path, Path(folder))) for spec in specs)
    return files


def example_texts(topic: PinnedTopic, index: int, folder: Path) -> list[str]:
    """The abstracts of a pinned topic's example listings, read as listings are (ingest); a file
    that does not read is one line naming the key."""
    from papertopics.ingest.listings import read_listing, resolve_listings

    texts: list[str] = []
    for path in topic.examples:
        key = f"topics.pinned[{index}].examples"
        try:
            found = [text for spec in resolve_listings([path], folder) for text in read_listing(spec)["text"]]
        except PapertopicsError as error:
            raise ConfigError(f"config.yaml {key}: {error}; fix the file or remove it from {key}") from None
        if not found:
            raise ConfigError(
                f"config.yaml {key}: {path} holds no paper with an abstract; "
                f"fix the file or remove it from {key}"
            )
        texts.extend(found)
    return texts


def pinned_vectors(
    topics: list[PinnedTopic], folder: Path, embed, corpus_mean: np.ndarray
) -> tuple[np.ndarray, list[int]]:
    """Each pinned topic's unit vector (rows in config order), and how many example papers each
    had; `embed(texts) -> unit vectors` is the documents' model, `corpus_mean` the mean of the
    corpus' vectors."""
    names = embed([topic.text for topic in topics])
    vectors, counts = [], []
    for i, topic in enumerate(topics):
        texts = example_texts(topic, i, folder)
        vectors.append(topic_vector(names[i], embed(texts) if texts else None, corpus_mean))
        counts.append(len(texts))
    return np.vstack(vectors), counts


def pin_topics_job(job, log) -> None:
    """Rule pin_topics (run by papertopics.runtime.inprocess.run_job): the pinned topics' vectors.

    Params: pinned (config.yaml topics.pinned), the embedding settings. Inputs: the example
    listings (read through ingest), the corpus' embeddings (their mean). Outputs:
    results/cluster/pinned_topics.parquet (doc_id = the pinned topic's name, vector), read by
    cluster_documents.
    """
    from papertopics.artifacts import save_embeddings
    from papertopics.embed import ENCODER_KEYS, embed_texts
    from papertopics.embed.user_cache import cache_root

    p = job.params
    topics = pinned_topics(p.pinned)
    settings = {key: getattr(p, key) for key in ENCODER_KEYS}

    def embed(texts: list[str]) -> np.ndarray:
        vectors, _ = embed_texts(
            texts, **settings, threads=job.threads, cache_dir=cache_root(p.cache_dir), cache_vectors=False
        )
        return vectors

    from papertopics.artifacts import load_embeddings

    corpus_mean = load_embeddings(job.input.embeddings)[1].mean(axis=0)
    vectors, counts = pinned_vectors(topics, Path.cwd(), embed, corpus_mean)
    # the null of `auto` after them (split_controls parts them again)
    controls = np.vstack([topic_vector(v) for v in embed([PROMPT.format(name=c) for c in CONTROLS])])
    save_embeddings(
        job.output.pinned,
        [topic.name for topic in topics] + [CONTROL_MARK + c for c in CONTROLS],
        np.vstack([vectors, controls]),
    )
    for topic, n in zip(topics, counts):
        log.info("pinned topic %r: %d example paper(s)", topic.name, n)


def pin_and_cluster(
    doc_ids: list[str],
    vectors: np.ndarray,
    reduced: np.ndarray,
    names: list[str],
    pinned: np.ndarray,
    min_similarity: float | str,
    cluster,
    resolved_all: dict | None = None,
    controls: np.ndarray | None = None,
):
    """clusters.parquet's table with the pinned topics first: a pinned paper's cluster is its
    pinned topic's index (0..P-1), the other papers are clustered by `cluster(doc_ids, vectors,
    reduced) -> (table, resolved)` and numbered after them (with fewer than two left, nothing is
    clustered and `resolved_all`, the parameters for the whole corpus, is what params.json
    keeps). Adds `pinned` (the pinned topic's name, else "") and `similarity` (cosine to the
    nearest pinned topic); a pinned paper's assignment is `pinned` (as transform says) and its
    confidence is that cosine (clipped to 0-1). With `auto` and the `controls` (CONTROLS'
    vectors), a pinned topic whose best papers do not stand out from theirs (null_check) takes
    none. Returns (table, resolved) with resolved["pinned"]."""
    import pandas as pd

    from papertopics.constants import ASSIGNED_PINNED, OUTLIER, UNASSIGNED

    check, thresholds = None, None
    if min_similarity == "auto" and controls is not None and len(controls):
        check = null_check(vectors, pinned, controls)
        thresholds = auto_thresholds(centred(vectors) @ np.asarray(pinned, dtype=np.float32).T)
        thresholds = np.where(check["stands_out"], thresholds, NEVER)
    index, best, thresholds = assign_pinned(vectors, pinned, min_similarity, thresholds=thresholds)
    rest = np.flatnonzero(index == NOT_PINNED)
    if len(rest) >= 2:
        table, resolved = cluster([doc_ids[i] for i in rest], vectors[rest], reduced[rest])
    else:  # every paper (or all but one) pinned: nothing left to cluster
        table = pd.DataFrame(
            {
                "doc_id": [doc_ids[i] for i in rest],
                "cluster": OUTLIER,
                "assignment": UNASSIGNED,
                "confidence": 0.0,
            }
        )
        # the parameters the corpus would have been clustered with (assess_stability's refits use them)
        resolved = {**(resolved_all or {}), "note": None, "n_clusters": 0, "n_outliers": len(rest)}
    n_pinned = len(names)
    clusters = np.full(len(doc_ids), OUTLIER)
    assignment = np.full(len(doc_ids), ASSIGNED_PINNED, dtype=object)
    confidence = np.clip(best, 0.0, 1.0).astype(np.float64)
    clusters[index >= 0] = index[index >= 0]
    found = table["cluster"].to_numpy()
    clusters[rest] = np.where(found == OUTLIER, OUTLIER, found + n_pinned)
    # a pinned topic no paper joined leaves no gap in the cluster numbers
    used = np.unique(clusters[clusters != OUTLIER])
    clusters = np.where(clusters == OUTLIER, OUTLIER, np.searchsorted(used, clusters))
    assignment[rest] = table["assignment"].to_numpy()
    confidence[rest] = table["confidence"].to_numpy()
    out = pd.DataFrame(
        {
            "doc_id": doc_ids,
            "cluster": clusters,
            "assignment": assignment.astype(str),
            "confidence": confidence,
            "pinned": [names[i] if i >= 0 else "" for i in index],
            "similarity": np.round(best, 4),
        }
    )
    resolved = dict(resolved)
    resolved["n_clusters"] = int(len(used))
    resolved["pinned"] = pinned_params(names, index, thresholds, min_similarity, check)
    return out, resolved


def pinned_params(names, index, thresholds, min_similarity, check: dict | None) -> dict:
    """params.json's `pinned`: each pinned topic's papers and threshold (and, with the null,
    the mean cosine of its best papers and the controls' figure it had to reach)."""
    counts = np.bincount(index[index >= 0], minlength=len(names))
    params = {
        "min_similarity": min_similarity,
        "n_documents": int((index >= 0).sum()),
        "topics": {
            name: {"documents": int(counts[i]), "threshold": round(float(thresholds[i]), 4)}
            | ({"best": round(float(check["best"][i]), 4)} if check else {})
            for i, name in enumerate(names)
        },
    }
    if check:  # the controls' figure: a pinned topic below null + AUTO_SIGMAS x spread takes none
        params["null"] = {
            "best_of": NULL_BEST,
            "null": round(check["null"], 4),
            "spread": round(check["spread"], 4),
            "needed": round(check["null"] + AUTO_SIGMAS * check["spread"], 4),
        }
    return params
