"""BERTopic on clusters computed upstream: keywords, labels and the tables users read.

UMAP and HDBSCAN run in their own stages (so a relabel does not refit them); here c-TF-IDF
is added on top of the given clusters. By default that is papertopics.topics.ctfidf (BERTopic's
c-TF-IDF and model folder, without BERTopic's 5 s import); with topics.nr_topics or
topics.reduce_outliers, BERTopic itself gets the cluster labels as `y` with its identity
reduction and pass-through clusterer (its documented "manual topic modeling" path).
"""

from __future__ import annotations

import sys

import numpy as np
import pandas as pd

from papertopics.constants import OUTLIER, OUTLIER_LABEL
from papertopics.errors import ConfigError
from papertopics.topics.stopwords import stop_words

# BERTopic's LLM representations import transformers (~3 s per process) and papertopics uses
# none of them; marking their modules absent makes BERTopic take its own "not installed"
# fallback for those two classes, which is what a `--no-deps` install of bertopic gets.
LLM_REPRESENTATIONS = ("bertopic.representation._textgeneration", "bertopic.representation._zeroshot")


def import_bertopic():
    """The BERTopic class, imported without the transformers-based representations."""
    for module in LLM_REPRESENTATIONS:
        sys.modules.setdefault(module, None)
    from bertopic import BERTopic

    return BERTopic


# Words of 2+ characters starting with a letter; hyphens kept ("chain-of-thought").
TOKEN_PATTERN = r"(?u)\b[^\W\d_][\w\-]*\w\b"


def vectorizer_params(vectorizer: dict) -> dict:
    """CountVectorizer's settings: English + domain stop words, bigrams, papertopics' tokens.

    Also what the saved model's ctfidf_config.json records (CountVectorizer.get_params() less
    tokenizer, preprocessor and dtype), written without importing scikit-learn.
    """
    return {
        "analyzer": "word",
        "binary": False,
        "decode_error": "strict",
        "encoding": "utf-8",
        "input": "content",
        "lowercase": True,
        "max_df": float(vectorizer["max_df"]),  # an int 1 would mean "in at most 1 topic"
        "max_features": None,
        "min_df": vectorizer["min_df"],
        "ngram_range": tuple(vectorizer["ngram_range"]),
        "stop_words": stop_words(vectorizer["domain_stop_words"], vectorizer["extra_stop_words"]),
        "strip_accents": None,
        "token_pattern": TOKEN_PATTERN,
        "vocabulary": None,
    }


def build_vectorizer(vectorizer: dict):
    """CountVectorizer with English + domain stop words and bigrams."""
    from sklearn.feature_extraction.text import CountVectorizer

    return CountVectorizer(**vectorizer_params(vectorizer))


def check_vectorizer(vectorizer: dict, labels, nr_topics=None) -> None:
    """vectorizer.min_df counts topics, not abstracts (BERTopic joins each topic's abstracts
    into one text): more than there are topics would crash c-TF-IDF, so say so here."""
    n_texts = len(set(np.asarray(labels).tolist()))
    if isinstance(nr_topics, int) and not isinstance(nr_topics, bool):
        n_texts = min(n_texts, nr_topics + (1 if -1 in set(np.asarray(labels).tolist()) else 0))
    min_df, max_df = vectorizer["min_df"], vectorizer["max_df"]
    if isinstance(min_df, int) and min_df > n_texts:
        raise ConfigError(
            f"vectorizer.min_df: {min_df}, but this corpus gives {n_texts} "
            f"topic text(s) (min_df counts topics, not abstracts); use at most "
            f"{n_texts}, or 1"
        )
    if isinstance(min_df, int) and isinstance(max_df, float) and max_df * n_texts < min_df:
        raise ConfigError(
            f"vectorizer.max_df: {max_df} of {n_texts} topic texts is fewer than "
            f"vectorizer.min_df ({min_df}); raise max_df or lower min_df"
        )


def fit_topic_model(
    texts: list[str],
    embeddings: np.ndarray,
    labels: np.ndarray,
    *,
    vectorizer: dict,
    representation: dict,
    topics: dict,
    terms=None,
    keyword_labels: np.ndarray | None = None,
):
    """c-TF-IDF keywords on fixed clusters; returns the model and the final (model) topic ids.

    By default the model is papertopics.topics.ctfidf's reproduction of BERTopic's c-TF-IDF (no
    BERTopic import: ~5 s per run); BERTopic itself runs when topics.nr_topics or
    topics.reduce_outliers ask for its topic merging or outlier reassignment. `terms`: the
    corpus's papertopics.topics.terms.TermCounts (rule count_terms), counted here when not given;
    `keyword_labels`: the labels whose documents make the keywords (ctfidf.fit_topic_terms).
    """
    check_vectorizer(vectorizer, labels, topics["nr_topics"])
    if topics["nr_topics"] is None and topics["reduce_outliers"] == "none":
        from papertopics.topics.ctfidf import fit_topic_terms
        from papertopics.topics.terms import count_terms

        try:
            model = fit_topic_terms(
                terms if terms is not None else count_terms(texts, vectorizer),
                embeddings,
                np.asarray(labels),
                vectorizer,
                reduce_frequent_words=representation["reduce_frequent_words"],
                bm25_weighting=representation["bm25_weighting"],
                top_n_words=representation["top_n_words"],
                keyword_labels=keyword_labels,
            )
        except ValueError as error:
            raise vectorizer_error(error) from None
        return model, model.doc_topics
    return fit_bertopic(
        texts, embeddings, labels, vectorizer=vectorizer, representation=representation, topics=topics
    )


def vectorizer_error(error: ValueError) -> Exception:
    """min_df/max_df leaving no terms is a config problem: say which keys; else re-raise as is."""
    if "min_df" in str(error) or "max_df" in str(error) or "no terms remain" in str(error):
        return ConfigError(
            f"vectorizer.min_df/max_df: {' '.join(str(error).split())} "
            f"(BERTopic's vectorizer sees one text per topic)"
        )
    return error


def fit_bertopic(
    texts: list[str],
    embeddings: np.ndarray,
    labels: np.ndarray,
    *,
    vectorizer: dict,
    representation: dict,
    topics: dict,
):
    """BERTopic's own fit on fixed clusters, then its topic merging / outlier reassignment."""
    BERTopic = import_bertopic()
    from bertopic.cluster import BaseCluster
    from bertopic.dimensionality import BaseDimensionalityReduction
    from bertopic.vectorizers import ClassTfidfTransformer

    model = BERTopic(
        umap_model=BaseDimensionalityReduction(),
        hdbscan_model=BaseCluster(),
        vectorizer_model=build_vectorizer(vectorizer),
        ctfidf_model=ClassTfidfTransformer(
            reduce_frequent_words=representation["reduce_frequent_words"],
            bm25_weighting=representation["bm25_weighting"],
        ),
        top_n_words=representation["top_n_words"],
        nr_topics=topics["nr_topics"],
        calculate_probabilities=False,
        # Any language but "english" stops BERTopic from stripping non-ASCII characters and
        # hyphens before c-TF-IDF ("Pokémon" -> "pokmon"); embeddings come from upstream anyway.
        language="multilingual",
        verbose=False,
    )
    try:
        assigned, _ = model.fit_transform(texts, embeddings=embeddings, y=np.asarray(labels))
    except ValueError as error:
        raise vectorizer_error(error) from None
    assigned = np.asarray(assigned)
    strategy = topics["reduce_outliers"]
    if strategy != "none" and (assigned == -1).any() and len(set(assigned.tolist()) - {-1}) > 0:
        assigned = np.asarray(
            model.reduce_outliers(texts, assigned, strategy=strategy, embeddings=embeddings)
        )
        model.update_topics(
            texts,
            topics=assigned.tolist(),
            vectorizer_model=model.vectorizer_model,
            ctfidf_model=model.ctfidf_model,
            top_n_words=representation["top_n_words"],
        )
    return model, assigned


def top_terms(model, topic: int, n: int) -> list[str]:
    """The topic's top-n c-TF-IDF terms, empty strings (BERTopic's padding) dropped."""
    words = model.get_topic(topic) or []
    return [word for word, score in words[:n] if word and score > 0]


def make_label(terms: list[str], n_terms: int) -> str:
    """Join the first n distinct terms; a term sharing a word with a chosen one is skipped.

    So "language models, language, reasoning" becomes "language models, reasoning, ...".
    """
    chosen: list[str] = []
    seen_words: set[str] = set()
    for term in terms:
        words = {_singular(word) for word in term.split()}
        if words & seen_words:
            continue
        chosen.append(term)
        seen_words |= words
        if len(chosen) == n_terms:
            break
    return ", ".join(chosen) if chosen else "(no distinctive terms)"


def _singular(word: str) -> str:
    """Crude plural folding so "panel" and "panels" count as one word in a label."""
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


def topic_labels(model, assigned: np.ndarray, label_terms: int, top_n: int) -> dict[int, str]:
    """Topic id -> human label; outliers get a label that says what they are."""
    labels = {}
    for topic in sorted(set(assigned.tolist())):
        labels[topic] = (
            OUTLIER_LABEL if topic == OUTLIER else make_label(top_terms(model, topic, top_n), label_terms)
        )
    return labels


def representative_doc_ids(
    embeddings: np.ndarray, assigned: np.ndarray, doc_ids: list[str], n: int
) -> dict[int, list[str]]:
    """Per topic, the n documents closest (cosine) to the topic's mean embedding."""
    ids = np.asarray(doc_ids)
    out: dict[int, list[str]] = {}
    for topic in sorted(set(assigned.tolist())):
        members = np.flatnonzero(assigned == topic)
        centroid = embeddings[members].mean(axis=0)
        centroid /= np.linalg.norm(centroid) or 1.0
        scores = embeddings[members] @ centroid
        order = np.lexsort((ids[members], -scores))
        out[topic] = ids[members][order[:n]].tolist()
    return out


def topics_table(
    model, assigned: np.ndarray, labels: dict[int, str], representatives: dict[int, list[str]], top_n: int
) -> pd.DataFrame:
    """results/topics/topics.csv: topic, label, size, top_terms ('; '), representative_doc_ids."""
    sizes = pd.Series(assigned).value_counts()
    rows = []
    for topic in sorted(labels):
        rows.append(
            {
                "topic": topic,
                "label": labels[topic],
                "size": int(sizes.get(topic, 0)),
                "top_terms": "; ".join(top_terms(model, topic, top_n)) if topic != OUTLIER else "",
                "representative_doc_ids": ";".join(representatives.get(topic, [])),
            }
        )
    return pd.DataFrame(rows)


def reading_table(corpus: pd.DataFrame) -> pd.DataFrame:
    """What a reader sees of each document: id, listings, title, raw text, then the listing's own columns."""
    table = pd.DataFrame(
        {
            "doc_id": corpus["doc_id"].to_numpy(),
            "listings": corpus["listings"].to_numpy(),
            "title": corpus["title"].fillna("").to_numpy(),
            "text": corpus["text_raw"].to_numpy(),
        }
    )
    core = {"doc_id", "listings", "title", "text", "text_raw"}
    for column in corpus.columns:
        if column not in core:
            table[column] = corpus[column].to_numpy()
    return table


def document_table(corpus: pd.DataFrame, assigned: np.ndarray, labels: dict[int, str]) -> pd.DataFrame:
    """results/topics/document_topics.csv: one row per document, raw text for reading."""
    table = reading_table(corpus)
    table.insert(2, "topic", assigned)
    table.insert(3, "topic_label", [labels[t] for t in assigned.tolist()])
    return table
