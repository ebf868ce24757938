"""papertopics.topics.ctfidf reproduces BERTopic's c-TF-IDF and saved folder, and BERTopic loads it.

fit_topics uses the reproduction so that a relabel or re-cluster does not pay BERTopic's 5 s
import; these tests are what keeps it honest against the BERTopic version that is installed.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
import scipy.sparse as sp
from test_grouping import _seeds

from papertopics.config import default_config
from papertopics.topics.representation import fit_bertopic, fit_topic_model
from papertopics.topics.stopwords import ENGLISH_STOP_WORDS
from papertopics.topics.vectorizer import build_vectorizer

CONFIG = default_config()
# Unigrams: the per-abstract counts equal BERTopic's joined-text counts exactly (bigrams differ
# by those spanning two abstracts; see test_bigrams_differ_only_by_pairs_spanning_two_abstracts).
UNIGRAMS = default_config(vectorizer={"ngram_range": [1, 1]})


def fit_args(config: dict) -> dict:
    return {key: config[key] for key in ("vectorizer", "representation", "topics")}


@pytest.fixture(scope="module")
def fitted():
    """Both fits on the 37 seed abstracts in 5 groups of distinct sizes, and 2 outliers."""
    texts, vectors = _seeds()
    labels = np.random.default_rng(0).permutation(np.repeat([3, 1, 4, 0, 2, -1], [12, 9, 7, 5, 2, 2]))
    args = fit_args(UNIGRAMS)
    ours, our_topics = fit_topic_model(texts, vectors, labels, **args)
    theirs, their_topics = fit_bertopic(texts, vectors, labels, **args)
    return texts, vectors, labels, ours, np.asarray(our_topics), theirs, np.asarray(their_topics)


def _members(topics):
    return {t: frozenset(np.flatnonzero(topics == t).tolist()) for t in set(topics.tolist())}


def test_default_fit_does_not_import_bertopic():
    """The point of the reproduction: the default fit never pays for BERTopic's import, nor
    scikit-learn's (given the per-corpus term counts, as fit_topics is)."""
    import subprocess
    import sys

    code = (
        "import sys, numpy as np, scipy.sparse as sp\n"
        "from papertopics.topics.terms import TermCounts\n"
        "from papertopics.config import default_config\n"
        "from papertopics.topics.representation import fit_topic_model\n"
        "c = default_config()\n"
        "texts = ['graph neural networks for molecules', 'diffusion models for images'] * 3\n"
        "terms = TermCounts(sp.csr_matrix(np.eye(6, 3, dtype=int)), np.array(list('abc'), dtype=object))\n"
        "fit_topic_model(texts, np.eye(6, 4), np.array([0, 1] * 3), vectorizer=c['vectorizer'],"
        " representation=c['representation'], topics=c['topics'], terms=terms)\n"
        "print(sorted(m for m in ('bertopic', 'umap', 'torch', 'sklearn') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_topics_keywords_and_matrix_equal_bertopics(fitted):
    _, _, labels, ours, our_topics, theirs, their_topics = fitted
    assert (our_topics == their_topics).all()  # same numbering: biggest topic first
    assert _members(our_topics) == _members(their_topics)
    column = theirs.vectorizer_model.vocabulary_
    for row, topic in enumerate(sorted(set(our_topics.tolist()))):
        mine, bert = ours.get_topic(topic), theirs.get_topic(topic)
        assert [s for _, s in mine] == [s for _, s in bert], topic
        # the same words, except that words of exactly equal score may come in another order
        assert all(theirs.c_tf_idf_[row, column[word]] == score for word, score in mine), topic
        assert sum(a != b for (a, _), (b, _) in zip(mine, bert)) <= 2 * len(mine) // 5, topic
    assert ours.get_topic(99) is False and theirs.get_topic(99) is False
    assert (ours.matrix != theirs.c_tf_idf_).nnz == 0
    assert np.allclose(ours.topic_embeddings, theirs.topic_embeddings_)
    assert list(ours.words) == list(theirs.vectorizer_model.get_feature_names_out())


def test_saved_folder_is_bertopics_and_bertopic_loads_it(fitted, tmp_path):
    from papertopics.topics.representation import import_bertopic

    texts, vectors, _, ours, our_topics, theirs, _ = fitted
    labels = {t: f"name {t}" for t in set(our_topics.tolist()) if t != 0}  # topic 0 keeps its default
    ours.set_topic_labels(labels)
    theirs.set_topic_labels(labels)
    ours.save(tmp_path / "ours", serialization="safetensors", save_ctfidf=True, save_embedding_model="m")
    theirs.save(tmp_path / "theirs", serialization="safetensors", save_ctfidf=True, save_embedding_model="m")
    for name in ("topics.json", "config.json", "ctfidf_config.json"):
        mine = json.loads((tmp_path / "ours" / name).read_text())
        bert = json.loads((tmp_path / "theirs" / name).read_text())
        assert mine.keys() == bert.keys(), name
        if name == "topics.json":
            for key in bert:
                if key != "topic_representations":
                    assert mine[key] == bert[key], key
            assert mine["custom_labels"][1] == "0_" + "_".join(w for w, _ in ours.get_topic(0)[:4])
        else:
            assert mine == bert, name
    from safetensors.numpy import load_file

    for name in ("ctfidf.safetensors", "topic_embeddings.safetensors"):
        mine, bert = load_file(str(tmp_path / "ours" / name)), load_file(str(tmp_path / "theirs" / name))
        assert mine.keys() == bert.keys()
        for key in bert:
            assert mine[key].dtype == bert[key].dtype and np.allclose(mine[key], bert[key]), (name, key)

    loaded = import_bertopic().load(str(tmp_path / "ours"))
    info = loaded.get_topic_info()
    assert info["Count"].tolist() == [int((our_topics == t).sum()) for t in info["Topic"]]
    assert info.set_index("Topic")["CustomName"].to_dict()[2] == "name 2"
    assert [tuple(pair) for pair in loaded.get_topic(1)] == ours.get_topic(1)
    assert sp.issparse(loaded.c_tf_idf_) and loaded.c_tf_idf_.shape == ours.matrix.shape
    predicted, _ = loaded.transform(texts[:6], embeddings=vectors[:6])
    assert len(predicted) == 6 and set(predicted) <= set(our_topics.tolist())


def test_bigrams_differ_only_by_pairs_spanning_two_abstracts(fitted):
    """BERTopic joins a topic's abstracts, so "... graphs. Diffusion ..." counts "graphs diffusion";
    per-abstract counts do not. Every other term and the keywords stay BERTopic's."""
    texts, vectors, labels, *_ = fitted
    args = fit_args(CONFIG)
    ours, _ = fit_topic_model(texts, vectors, labels, **args)
    theirs, _ = fit_bertopic(texts, vectors, labels, **args)
    mine = set(ours.words)
    bert = set(theirs.vectorizer_model.get_feature_names_out())
    assert mine < bert and all(" " in term for term in bert - mine)
    single = build_vectorizer(CONFIG["vectorizer"]).build_analyzer()
    in_one_abstract = set().union(*(single(text) for text in texts))
    assert not (bert - mine) & in_one_abstract
    column = theirs.vectorizer_model.vocabulary_
    for row, topic in enumerate(sorted(set(ours.doc_topics.tolist()))):
        scores = theirs.c_tf_idf_[row].toarray().ravel()  # BERTopic's score of every term
        tenth = theirs.get_topic(topic)[9][1]
        for word, score in ours.get_topic(topic):
            # each keyword is among BERTopic's ten best (up to ties) with a score within 1%
            assert scores[column[word]] >= tenth * 0.99 and abs(score / scores[column[word]] - 1) < 0.01, (
                topic,
                word,
            )


def test_stop_words_are_scikit_learns():
    """The copy that spares fit_topics scikit-learn's import is scikit-learn's list."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS as SKLEARN

    assert ENGLISH_STOP_WORDS == SKLEARN


def test_documents_assigned_afterwards_join_topics_but_not_their_keywords(fitted):
    """keyword_labels (the clusters as found): the outliers moved to their nearest topic count in
    its size and embedding, while the keywords stay those of the cluster's own members."""
    texts, vectors, labels, *_ = fitted
    args = fit_args(CONFIG)
    assigned = np.where(labels == -1, 3, labels)  # both outliers join cluster 3
    found, _ = fit_topic_model(texts, vectors, labels, **args)
    joined, topics = fit_topic_model(texts, vectors, assigned, keyword_labels=labels, **args)
    diluted, _ = fit_topic_model(texts, vectors, assigned, **args)
    model_of = {cluster: topic for topic, cluster in joined.cluster_of.items()}
    found_of = {cluster: topic for topic, cluster in found.cluster_of.items()}
    assert -1 not in set(topics.tolist()) and (topics == model_of[3]).sum() == (labels == 3).sum() + 2
    for cluster in range(5):
        assert joined.get_topic(model_of[cluster]) == found.get_topic(found_of[cluster]), cluster
    assert diluted.get_topic(model_of[3]) != found.get_topic(found_of[3])  # what keyword_labels avoids


def test_evaluation_needs_no_scikit_learn_and_agrees_with_it():
    """evaluate_topics' analyzer and silhouette are scikit-learn's, computed without it."""
    from sklearn.metrics import silhouette_score as sklearn_silhouette

    from papertopics.evaluate.coherence import default_analyzer
    from papertopics.evaluate.silhouette import silhouette_score
    from papertopics.topics.stopwords import stop_words
    from papertopics.topics.vectorizer import TOKEN_PATTERN

    texts, vectors = _seeds()
    sklearn_words = build_vectorizer({**CONFIG["vectorizer"], "ngram_range": [1, 1]}).build_analyzer()
    ours = default_analyzer(stop_words(True, []), TOKEN_PATTERN)  # as build_metrics calls it
    assert all(ours(text) == sklearn_words(text) for text in texts + ["Pokémon GANs, 3D-CNNs and x-rays."])
    rng = np.random.default_rng(0)
    labels = rng.integers(0, 5, len(vectors))
    labels[:1] = 7  # a cluster of one scores 0, as in scikit-learn
    vectors = vectors.astype(np.float64)  # as cluster_validity passes them
    assert silhouette_score(vectors, labels) == pytest.approx(sklearn_silhouette(vectors, labels), abs=1e-10)
    points = rng.normal(size=(300, 5)) + np.repeat(np.eye(5) * 4, 60, axis=0)
    groups = np.repeat(np.arange(5), 60)
    assert silhouette_score(points, groups) == pytest.approx(sklearn_silhouette(points, groups), abs=1e-10)
    # row blocks that do not divide the points (300 = 4 x 70 + 20) give the same score
    blocked = silhouette_score(points, groups, block_rows=70)
    assert blocked == pytest.approx(sklearn_silhouette(points, groups), abs=1e-10)
