"""Quality figures on data whose right answer is known by construction."""

import math

import numpy as np
import pytest

from papertopics.evaluate.agreement import label_agreement, n_topics, outlier_share
from papertopics.evaluate.coherence import WindowTokens, npmi_coherence, window_tokens
from papertopics.evaluate.diversity import topic_diversity
from papertopics.evaluate.reproducibility import compare_runs
from papertopics.evaluate.silhouette import cluster_validity


def _lcg_corpus():
    """60 documents of 0-40 tokens over 12 words with heavy repetition; built with a fixed LCG
    so the text cannot drift with a library's random number generator."""
    state = 12345

    def nxt():
        nonlocal state
        state = (1103515245 * state + 12345) % 2**31
        return state

    vocab = [f"w{i}" for i in range(12)]
    docs = []
    for _ in range(60):
        n = nxt() % 41
        docs.append(" ".join(vocab[nxt() % 12 if nxt() % 3 else nxt() % 4] for _ in range(n)))
    return docs


# gensim 4.4.0 CoherenceModel(texts=..., coherence="c_npmi", topn=10, processes=1)
# .get_coherence_per_topic() on _lcg_corpus(), i.e. what OCTIS reports.
GENSIM_REFERENCE = {0: -0.4592511602950013, 1: -0.400466149748814, 2: -0.28166033678272734}
LCG_TOPICS = {0: ["w0", "w1", "w2", "w3"], 1: ["w4", "w5", "w6", "w7", "w8"], 2: ["w1", "w9", "w10", "w11"]}


def test_npmi_reproduces_gensim_c_npmi_numbers():
    result = npmi_coherence(LCG_TOPICS, _lcg_corpus(), analyzer=str.split)
    for topic, expected in GENSIM_REFERENCE.items():
        assert result["per_topic"][topic] == pytest.approx(expected, abs=1e-9)
    assert result["mean"] == pytest.approx(np.mean(list(GENSIM_REFERENCE.values())), abs=1e-9)


def test_exact_windows_differ_from_gensim_only_by_its_edge_artefact():
    exact = npmi_coherence(LCG_TOPICS, _lcg_corpus(), analyzer=str.split, window_semantics="exact")
    # Repeated words count in more windows when membership is exact, so scores move.
    assert all(exact["per_topic"][t] != pytest.approx(v, abs=1e-3) for t, v in GENSIM_REFERENCE.items())
    assert exact["n_windows"] == npmi_coherence(LCG_TOPICS, _lcg_corpus(), analyzer=str.split)["n_windows"]


def _brute_force_npmi(topic, docs, window=10):
    """Textbook boolean sliding windows, one Python set per window; phrases must fit inside."""
    wins = []
    for doc in docs:
        toks = doc.split()
        spans = [toks[s : s + window] for s in range(max(len(toks) - window + 1, 1))]
        for span in spans:
            text = " " + " ".join(span) + " "
            wins.append({w for w in topic if f" {w} " in text})
    n = len(wins)
    single = {w: sum(w in win for win in wins) / n for w in topic}
    topic = [w for w in topic if single[w] > 0]
    vals = []
    for a in topic:
        for b in topic:
            if a != b:
                pab = sum(a in win and b in win for win in wins) / n + 1e-12
                vals.append(math.log(pab / (single[a] * single[b])) / -math.log(pab))
    return sum(vals) / len(vals)


def test_exact_windows_match_a_brute_force_count_including_phrases():
    docs = _lcg_corpus()
    topics = {
        0: ["w0", "w1 w3", "w5"],
        1: ["w2 w0", "w7", "w11 w1", "w6"],
        2: ["w9", "w10", "w11", "w2 w4", "w1 w3 w5"],
    }
    result = npmi_coherence(topics, docs, analyzer=str.split, window_semantics="exact", batch_docs=13)
    for topic, words in topics.items():
        assert result["per_topic"][topic] == pytest.approx(_brute_force_npmi(words, docs), abs=1e-9)
    assert result["missing_terms"] == {}


def test_a_corpus_tokenised_once_scores_as_tokenising_it_again(tmp_path):
    """count_terms writes the NPMI token stream once per corpus; evaluate_topics reads it back."""
    docs = _lcg_corpus() + [None, ""]  # a missing text has no tokens, and still adds a window
    topics = {0: ["w0", "w1 w3", "w5", "unseen"], 1: ["w2 w0", "w7", "w11 w1", "w6"]}
    tokens = window_tokens(docs, str.split)
    tokens.save(tmp_path / "window_tokens.npz")
    loaded = WindowTokens.load(tmp_path / "window_tokens.npz")
    assert loaded.vocabulary == tokens.vocabulary and loaded.lengths.tolist() == tokens.lengths.tolist()
    for semantics in ("gensim", "exact"):
        again = npmi_coherence(topics, docs, analyzer=str.split, window_semantics=semantics, batch_docs=13)
        cached = npmi_coherence(
            topics, docs, analyzer=str.split, window_semantics=semantics, batch_docs=13, tokens=loaded
        )
        assert cached == again and again["missing_terms"] == {0: ["unseen"]}
    with pytest.raises(ValueError, match="tokens of 62 documents for 60"):
        npmi_coherence(topics, docs[:60], analyzer=str.split, tokens=loaded)


def _two_theme_corpus():
    return ["alpha beta"] * 50 + ["gamma delta"] * 50 + ["noise words here"] * 100


def test_words_that_always_cooccur_score_one_and_never_close_to_minus_one():
    docs = _two_theme_corpus()
    result = npmi_coherence({0: ["alpha", "beta"], 1: ["alpha", "gamma"]}, docs)
    assert result["per_topic"][0] == pytest.approx(1.0, abs=1e-9)
    # gensim's epsilon: log(1e-12 / 0.0625) / -log(1e-12), a little above -1.
    expected = math.log(1e-12 / 0.0625) / -math.log(1e-12)
    assert result["per_topic"][1] == pytest.approx(expected, abs=1e-9)
    assert result["per_topic"][1] < -0.85
    assert result["mean"] == pytest.approx((1.0 + expected) / 2)
    assert result["n_windows"] == 200


def test_cooccurrence_is_within_ten_token_windows_not_whole_documents():
    filler = " ".join(f"f{i}" for i in range(20))
    near = ["alpha beta " + filler] * 20
    far = ["alpha " + filler + " beta"] * 20
    topic = {0: ["alpha", "beta"]}
    assert npmi_coherence(topic, near)["per_topic"][0] > 0.3
    assert npmi_coherence(topic, far)["per_topic"][0] < -0.5


def test_default_analyzer_drops_stop_words_before_windowing():
    docs = ["alpha " + "the of and " * 5 + "beta"] * 10 + ["other text"] * 10
    topic = {0: ["alpha", "beta"]}
    assert npmi_coherence(topic, docs)["per_topic"][0] == pytest.approx(1.0)
    assert npmi_coherence(topic, docs, stop_words=[])["per_topic"][0] < 0


def test_bigram_terms_count_only_as_adjacent_phrases():
    docs = ["neural network graph"] * 20 + ["neural model of the network"] * 20 + ["other"] * 20
    result = npmi_coherence({0: ["neural network", "graph"]}, docs)
    assert result["per_topic"][0] == pytest.approx(1.0)
    assert result["missing_terms"] == {}


def test_missing_terms_are_dropped_and_reported():
    docs = _two_theme_corpus()
    result = npmi_coherence(
        {0: ["alpha", "beta", "zebra"], 1: ["gamma", "unicorn"], -1: ["noise", "words"]}, docs
    )
    assert result["per_topic"][0] == pytest.approx(1.0)
    assert result["missing_terms"] == {0: ["zebra"], 1: ["unicorn"]}
    assert result["per_topic"][1] is None  # one known word: no pair to score
    assert -1 not in result["per_topic"]
    assert result["mean"] == pytest.approx(1.0)


def test_terms_are_matched_case_insensitively_once_and_missing_texts_are_empty():
    docs = _two_theme_corpus() + [None, float("nan")]
    result = npmi_coherence({0: ["Alpha", "alpha", "BETA"]}, docs)
    assert result["per_topic"][0] == pytest.approx(1.0)
    assert result["n_windows"] == 202


def test_only_top_n_terms_are_scored():
    docs = _two_theme_corpus()
    result = npmi_coherence({0: ["alpha", "beta", "gamma"]}, docs, top_n=2)
    assert result["per_topic"][0] == pytest.approx(1.0)


def test_batches_do_not_change_the_result():
    docs = _lcg_corpus()
    one = npmi_coherence(LCG_TOPICS, docs, analyzer=str.split)
    many = npmi_coherence(LCG_TOPICS, docs, analyzer=str.split, batch_docs=7)
    assert many["per_topic"] == pytest.approx(one["per_topic"])


def test_empty_inputs_give_none_not_an_error():
    assert npmi_coherence({}, ["some text"])["mean"] is None
    assert npmi_coherence({0: ["alpha", "beta"]}, [])["mean"] is None
    assert topic_diversity({}) is None


def test_topic_diversity_counts_shared_terms():
    distinct = {0: list("abcde"), 1: list("fghij")}
    duplicated = {0: list("abcde"), 1: list("abcde")}
    assert topic_diversity(distinct, top_n=5) == 1.0
    assert topic_diversity(duplicated, top_n=5) == 0.5
    assert topic_diversity({**duplicated, -1: list("vwxyz")}, top_n=5) == 0.5
    assert topic_diversity({0: list("abcdefghij"), 1: list("abcdefghij")}, top_n=3) == 0.5


def _blobs(seed=0, per=200):
    rng = np.random.default_rng(seed)
    centres = np.array([[0, 0, 0], [20, 0, 0], [0, 20, 0]], dtype=float)
    points = np.vstack([c + rng.normal(size=(per, 3)) for c in centres])
    labels = np.repeat([0, 1, 2], per)
    return points, labels


def test_cluster_validity_high_for_separated_clusters_and_ignores_outliers():
    points, labels = _blobs()
    clean = cluster_validity(points, labels)
    assert clean > 0.8
    rng = np.random.default_rng(1)
    noisy_points = np.vstack([points, rng.uniform(-50, 50, size=(300, 3))])
    noisy_labels = np.concatenate([labels, np.full(300, -1)])
    assert cluster_validity(noisy_points, noisy_labels) == pytest.approx(clean)
    shuffled = rng.permutation(labels)
    assert cluster_validity(points, shuffled) < 0.1


def test_cluster_validity_subsample_is_deterministic_and_none_for_one_topic():
    points, labels = _blobs(per=400)
    a = cluster_validity(points, labels, sample_size=300)
    assert a == cluster_validity(points, labels, sample_size=300)
    assert a > 0.8
    assert cluster_validity(points, np.zeros(len(labels), dtype=int)) is None
    assert cluster_validity(points, np.full(len(labels), -1)) is None


def test_stability_is_perfect_under_renumbering():
    rng = np.random.default_rng(0)
    ref = rng.integers(-1, 5, size=500)
    renumbered = np.array([{-1: -1, 0: 3, 1: 4, 2: 0, 3: 1, 4: 2}[x] for x in ref])
    result = compare_runs(ref, [renumbered, ref.copy()])
    assert result["ari"] == pytest.approx(1.0)
    assert result["per_topic"] == pytest.approx({t: 1.0 for t in range(5)})
    assert result["mean_jaccard"] == pytest.approx(1.0)
    assert result["n_runs"] == 2


def test_stability_drops_for_noise_and_for_topics_lost_to_outliers():
    rng = np.random.default_rng(0)
    ref = np.repeat([0, 1, 2, 3], 100)
    noise = rng.integers(0, 4, size=400)
    result = compare_runs(ref, [noise])
    assert result["ari"] < 0.1
    assert result["mean_jaccard"] < 0.5
    dissolved = ref.copy()
    dissolved[ref >= 2] = -1  # topics 2 and 3 become outliers in one run
    result = compare_runs(ref, [dissolved, ref])
    assert result["per_topic"][3] == pytest.approx(0.5)  # 0 in one run, 1 in the other
    assert result["per_topic"][0] == pytest.approx(1.0)
    assert result["ari_per_run"][0] < 1.0 and result["ari_per_run"][1] == pytest.approx(1.0)


def test_stability_rejects_misaligned_runs():
    with pytest.raises(ValueError, match="documents"):
        compare_runs(np.zeros(10), [np.zeros(9)])


def test_label_agreement_perfect_up_to_renaming_and_skips_unlabelled():
    topics = [0, 0, 1, 1, 2, 2, -1]
    labels = ["cs.CV", "cs.CV", "cs.CL", "cs.CL", "math", "math", None]
    result = label_agreement(topics, labels)
    assert result == {"nmi": pytest.approx(1.0), "ari": pytest.approx(1.0), "n_documents": 6}
    worse = label_agreement([0, 1, 0, 1, 0, 1, 0], labels)
    assert worse["nmi"] < 0.5


def test_label_agreement_counts_outliers_unless_told_not_to():
    topics = [0, 0, -1, 1, 1, -1]
    labels = ["a", "a", "a", "b", "b", "b"]
    assert label_agreement(topics, labels)["ari"] < 1.0
    assert label_agreement(topics, labels, exclude_outliers=True)["ari"] == pytest.approx(1.0)


def test_outlier_share_and_topic_count():
    labels = [-1, 0, 0, 1, -1, 2]
    assert outlier_share(labels) == pytest.approx(1 / 3)
    assert n_topics(labels) == 3
    assert outlier_share([]) is None
    assert n_topics([-1, -1]) == 0
