"""The vectorizer settings every c-TF-IDF and every metric tokenises with: one owner for them.

`vectorizer_params` is scikit-learn's CountVectorizer configuration (also recorded in the saved
model's ctfidf_config.json); `terms` counts with it, `ctfidf` records it, `representation` checks
a config against a corpus's topic count and `evaluate.coherence` tokenises its NPMI windows with the
same token pattern and stop words.
"""

from __future__ import annotations

import numpy as np

from papertopics.errors import ConfigError
from papertopics.topics.stopwords import stop_words

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


def vectorizer_error(error: ValueError) -> Exception:
    """min_df/max_df leaving no terms is a config problem: say which keys; else re-raise as is."""
    if "min_df" in str(error) or "max_df" in str(error) or "no terms remain" in str(error):
        return ConfigError(
            f"vectorizer.min_df/max_df: {' '.join(str(error).split())} "
            f"(BERTopic's vectorizer sees one text per topic)"
        )
    return error
