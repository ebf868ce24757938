"""What the names benchmarks share: the labelled set, the hit rule, plain BERTopic's words, naming.

The labelled set is nine real listings with their authors' keywords, one per field: the ICLR
2026 sample (ML) and the eight exports of ../shared/data/exports (ecology, biophysics, pharmacology,
plant biology, health informatics, software engineering, political communication, cross-cultural
design), gunzipped into a temp
folder and read by papertopics' own readers, as a user would. Each is embedded and clustered once
as the workflow would (default config) and cached under --cache (not in git).

A name "names" a top author keyword of its papers (`hits`): the three keywords its papers give
most often (ties kept; keywords one paper gives count only where none is given twice), folded
(topics.names.text.fold: lower case, singular, hyphens dropped; "(ACRONYM)" apart), generic ones
never counted (GENERIC, and any keyword a fifth of the listing's keyworded papers give: the field
itself); a hit is one of them inside a phrase of the name, or a phrase of two words or more of
the name ending one of them ("language models" of "large language models"); either side of
"A & B", the long form or the acronym.
"""

from __future__ import annotations

import gzip
import pickle
import re
import shutil
import tempfile
from collections import Counter
from pathlib import Path

import _common_eval as ce  # bench/ is on sys.path when a bench script runs
import numpy as np

EXPORTS = ce.DATA / "exports"
FIELDS = {
    "ML": ce.DATA / "iclr2026-sample" / "iclr2026-sample.jsonl.gz",
    "ecology": EXPORTS / "wos-plain-capture-recapture-500.txt.gz",
    "biophysics": EXPORTS / "wos-plain-tr-wok-500.txt.gz",
    "pharmacology": EXPORTS / "pubmed-medline-pybibx-sample-crlf-335.txt.gz",
    "plant biology": EXPORTS / "pubmed-medline-mapofscience-252.txt.gz",
    "health informatics": EXPORTS / "scopus-csv-smart-on-fhir-701.csv.gz",
    "software engineering": EXPORTS / "ieee-csv-legal-re-492.csv.gz",
    "political communication": EXPORTS / "wos-ris-polcomm.ris.gz",
    "cross-cultural design": EXPORTS / "sciencedirect-bibtex-multicultural-100.bib.gz",
}
# keywords that say a whole field, never a topic of it
GENERIC = ("deep learning", "machine learning", "artificial intelligence", "neural networks", "AI", "ML")
FIELD_SHARE = 0.2  # ... and any keyword this share of a listing's keyworded papers give
HALF_SEED = 0  # which papers keep their keywords in the "half" variant


def fold(text: str) -> tuple[str, ...]:
    from papertopics.topics.names.text import fold_text

    return fold_text(text)


def parts(text: str) -> list[tuple[str, ...]]:
    """What a name or keyword says: each side of " & ", its long form and its "(ACRONYM)"."""
    out = []
    for part in re.sub(r"^Mixed: ", "", text).split(" & "):
        part = re.sub(r"\s*\(\d+\)$", "", part.strip())
        m = re.match(r"(.*?)\s*\(([^)]*)\)$", part)
        out += [m.group(1), m.group(2)] if m else [part]
    return [f for f in map(fold, out) if f]


def paper_keywords(corpus) -> list[list[str]]:
    """Each paper's authors' keywords as the corpus's `keywords` column has them ("a; b")."""
    column = corpus["keywords"] if "keywords" in corpus else [""] * len(corpus)
    return [[k.strip() for k in str(v).split(";") if k.strip()] for v in column]


def generic(keywords: list[list[str]]) -> set[tuple[str, ...]]:
    """The folded keywords that never count in this listing."""
    given = [{p for kw in kws for p in parts(kw)} for kws in keywords if kws]
    counts = Counter(p for ps in given for p in ps)
    field = {k for k, v in counts.items() if v >= FIELD_SHARE * max(len(given), 1)}
    return field | {p for g in GENERIC for p in parts(g)}


def top_keywords(keywords: list[list[str]], docs, skip: set) -> list[tuple[str, ...]]:
    counts = Counter(k for d in docs for k in {p for kw in keywords[d] for p in parts(kw)} if k not in skip)
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    if not ranked:
        return []
    cut = max(ranked[min(3, len(ranked)) - 1][1], min(2, ranked[0][1]))
    return [k for k, v in ranked if v >= cut]


# a fragment: a phrase ending in an adjective, adverb or participle ("sporting", "bodily",
# "collaborative") or an evaluative/generic word (issue 58's misses), by the shape of its last word
FRAGMENT_ENDINGS = ("ive", "ial", "ual", "ous", "ful", "ted", "sed", "ized", "ised", "ally")
EVALUATIVE = ("benefits", "drawbacks", "users", "research", "design process", "challenges", "approaches")


def is_generic(name: str, skip: set[tuple[str, ...]]) -> bool:
    """Does a phrase of the name say the field itself (a GENERIC keyword or one a fifth of the
    listing's keyworded papers give)?"""
    return any(p in skip for p in parts(name))


def is_fragment(name: str) -> bool:
    """Does a phrase of the name end in an adjective, adverb or participle, or is it evaluative?"""
    for part in re.sub(r"^Mixed: ", "", name).split(" & "):
        words = re.sub(r"\s*\([^)]*\)$", "", part.strip()).lower().split()
        if not words:
            continue
        last = words[-1]
        one_word_ing = len(words) == 1 and last in {
            "sporting",
            "bodily",
            "working",
            "employers",
            "economists",
        }
        if (
            last.endswith(FRAGMENT_ENDINGS)
            or one_word_ing
            or " ".join(words) in EVALUATIVE
            or last in EVALUATIVE
        ):
            return True
    return False


def _inside(short: tuple[str, ...], long: tuple[str, ...]) -> bool:
    return any(long[i : i + len(short)] == short for i in range(len(long) - len(short) + 1))


def hits(name: str, top: list[tuple[str, ...]]) -> bool:
    said = parts(name)
    return any(_inside(k, s) or (len(s) > 1 and k[-len(s) :] == s) for k in top for s in said)


# --------------------------------------------------------------------------- listings


def load_field(path: Path):
    """The listing's corpus table, read by papertopics' readers from the file as exported."""
    from papertopics.ingest.corpus import build_corpus
    from papertopics.ingest.listings import ListingSpec, read_listing

    with tempfile.TemporaryDirectory() as folder:
        name = path.name.removesuffix(".gz") if path.parent == EXPORTS else path.name
        local = Path(folder) / name
        if name != path.name:
            with gzip.open(path, "rb") as src, local.open("wb") as dst:
                shutil.copyfileobj(src, dst)
        else:
            shutil.copy(path, local)
        corpus, _ = build_corpus([read_listing(ListingSpec(path.stem.split(".")[0], local))])
    return corpus.reset_index(drop=True)


def prepare(cache: Path) -> dict[str, dict]:
    """field -> {corpus, vectors, clusters, assignment, confidence, keywords}: embedded and
    clustered once (default config), cached under `cache`."""
    path = cache / "fields.pkl"
    if path.exists():
        return pickle.loads(path.read_bytes())
    from papertopics.pipeline import default_config, reduce_and_cluster

    out = {}
    for field, source in FIELDS.items():
        corpus = load_field(source)
        vectors = ce.embed(corpus["text"].tolist())
        _, clustering, _ = reduce_and_cluster(vectors, default_config())
        out[field] = {
            "corpus": corpus,
            "vectors": vectors,
            "clusters": np.asarray(clustering.topics),
            "assignment": np.asarray(clustering.assignment),
            "confidence": np.asarray(clustering.confidence),
            "keywords": paper_keywords(corpus),
        }
        print(f"# {field}: {len(corpus)} abstracts, {len(set(clustering.topics)) - 1} clusters", flush=True)
    cache.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pickle.dumps(out))
    return out


def given_half(n: int) -> np.ndarray:
    """Rows whose keywords the namer sees in the "half" variant (the others score it)."""
    return np.random.default_rng(HALF_SEED).permutation(n)[: n // 2]


def variant(data: dict, kind: str):
    """(corpus as the namer sees it, keywords its names are scored against): "abstracts": no
    keywords column, scored on every paper's; "half": a random half's keywords given, scored on
    the other half's; "all": every paper's keywords given and scored on (as the export has them)."""
    if kind == "all":
        return data["corpus"], data["keywords"]
    corpus = data["corpus"].drop(columns=["keywords"], errors="ignore")
    keywords = data["keywords"]
    if kind == "half":
        given = given_half(len(corpus))
        column = np.full(len(corpus), "", dtype=object)
        column[given] = data["corpus"]["keywords"].to_numpy(dtype=object)[given]
        corpus = corpus.assign(keywords=column)
        keywords = [[] if i in set(given.tolist()) else k for i, k in enumerate(keywords)]
    return corpus, keywords


# --------------------------------------------------------------------------- naming


def phrase_vectors(index) -> dict:
    phrases = index.nameable()
    return dict(zip(phrases, ce.embed(phrases)))


def fit(data: dict, corpus, index=None, vectors=None, **options):
    """fit_topic_tables as rule fit_topics runs it (name index, phrase vectors: from corpus unless given)."""
    from papertopics.pipeline import default_config
    from papertopics.topics.fit import fit_topic_tables
    from papertopics.topics.names.phrases import NameIndex

    index = index or NameIndex.build(corpus["text_raw"].tolist(), corpus["title"].fillna("").tolist())
    config = default_config()
    if "naming" in options:  # a registered name source (bench/names_fit.py's "bench-fitted")
        config["representation"]["name_source"] = options.pop("naming")
    return fit_topic_tables(
        corpus,
        data["vectors"],
        data["clusters"],
        None,
        vectorizer=config["vectorizer"],
        representation=config["representation"],
        topics=config["topics"],
        assignment=data["assignment"],
        confidence=data["confidence"],
        mixed_cohesion=config["clustering"]["mixed_cohesion"],
        index=index,
        phrase_vectors=phrase_vectors(index) if vectors is None else vectors,
        **options,
    )


def named(fitted) -> dict:
    """What the figures read of a fit: each paper's topic, each topic's name, terms and region."""
    table = fitted.topics[fitted.topics["topic"] >= 0]
    return {
        "assigned": fitted.documents["topic"].tolist(),
        "topics": [
            {
                "topic": int(t["topic"]),
                "label": t["label"],
                "terms": str(t["top_terms"]).split("; "),
                "region": int(t["region"]),
                "region_label": t["region_label"],
                "source": t.get("name_source", "abstracts"),
            }
            for t in table.to_dict("records")
        ],
    }


def plain_words(texts: list[str], assigned: np.ndarray) -> dict[int, list[str]]:
    """Plain BERTopic's label words for these topics: its default CountVectorizer and
    ClassTfidfTransformer on the same documents and topics (its label "3_fl_clients_federated_...")."""
    from bertopic.vectorizers import ClassTfidfTransformer
    from sklearn.feature_extraction.text import CountVectorizer

    topics = sorted(t for t in set(assigned.tolist()) if t >= 0)
    joined = [" ".join(texts[i] for i in np.flatnonzero(assigned == t)) for t in topics]
    vectorizer = CountVectorizer().fit(joined)
    ctfidf = ClassTfidfTransformer().fit_transform(vectorizer.transform(joined)).toarray()
    words = vectorizer.get_feature_names_out()
    return {t: [str(w) for w in words[np.argsort(-row)[:4]]] for t, row in zip(topics, ctfidf)}


# ---------------------------------------------------------------- shared by names_fit, names_regions


def clustered(corpus) -> dict:
    """{corpus, vectors, clusters, assignment, confidence}: the corpus embedded and clustered as
    the workflow would (default config)."""
    from papertopics.pipeline import default_config, reduce_and_cluster

    vectors = ce.embed(corpus["text"].tolist())
    _, clustering, _ = reduce_and_cluster(vectors, default_config())
    return {
        "corpus": corpus,
        "vectors": vectors,
        "clusters": np.asarray(clustering.topics),
        "assignment": np.asarray(clustering.assignment),
        "confidence": np.asarray(clustering.confidence),
    }


def text_listing(name: str, header: str, texts: list[str]):
    """The corpus of a listing in the seeds' text format (a header line, one abstract per
    paragraph), read by papertopics' own reader."""
    from papertopics.ingest.corpus import build_corpus
    from papertopics.ingest.listings import ListingSpec, read_listing

    with tempfile.TemporaryDirectory() as folder:
        listing = Path(folder) / f"{name}.txt"
        listing.write_text(header + "\n\n" + "\n\n".join(texts) + "\n")
        corpus, _ = build_corpus([read_listing(ListingSpec(name, listing))])
    return corpus
