"""Topic names: phrases from the abstracts, acronyms spelled out, named hierarchy and regions."""

from __future__ import annotations

import dataclasses
import gzip
import json
import re
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from papertopics.ingest.text import strip_markup
from papertopics.topics.names.chain import names_for
from papertopics.topics.names.hierarchy import topic_hierarchy
from papertopics.topics.names.phrases import NameIndex, PhraseNames, collect_acronyms
from papertopics.topics.names.score import (
    FEATURE_NAMES,
    WEIGHTS,
    Weights,
    feature_matrix,
    score,
    static_features,
    weight_vector,
)
from papertopics.topics.names.select import gather, pair_name
from papertopics.topics.stopwords import singular

FILLER = [
    "We study this question carefully.",
    "Experiments confirm the theory.",
    "Our bounds improve on earlier work.",
    "The code is released.",
]

TOPICS = {
    0: [
        "We propose a method for federated learning (FL) where clients keep their data private.",
        "In FL, clients send updates to a server; federated learning suffers from client drift.",
        "Personalized federated learning lets each of the clients adapt; "
        "we analyse FL under $\\mathcal{O}(\\log T)$ rounds.",
        "Communication in federated learning is costly, so FL clients compress updates.",
        "We show FL converges when clients are heterogeneous in federated learning.",
    ],
    1: [
        "Graph neural networks (GNNs) pass messages between nodes of a graph.",
        "We study the expressive power of GNNs with ReLU activations on graph data.",
        "Oversmoothing harms deep GNNs; our graph neural networks avoid it with ReLU gates.",
        "GNNs predict node labels; graph neural networks generalize over graph sizes.",
        "We bound the error of GNNs whose ReLU layers see every node $v_{\\gamma}$ of the graph.",
    ],
    2: [
        "Pokémon battles are a benchmark for game-playing agents.",
        "Agents that play Pokémon battles need long-horizon planning.",
        "We release Pokémon battles logs; agents learn team building from them.",
        "Language agents win Pokémon battles against human players.",
        "A tournament of Pokémon battles compares agents; $T_\\gamma \\log T_\\gamma$ regret is shown.",
    ],
}


def with_filler(sentences: list[str], seed: int) -> list[str]:
    """Each sentence followed by two FILLER sentences, drawn in order from `seed`."""
    rng = np.random.default_rng(seed)
    return [s + " " + " ".join(rng.choice(FILLER, size=2, replace=False)) for s in sentences]


# a second topic that shares no phrase with the one a test is about
SPEECH = [f"Speech recognition of accent {k} with speech models." for k in range(6)]


def beside_speech(sentences: list[str], seed: int) -> tuple[list[str], np.ndarray]:
    """Texts (with filler) and topics: `sentences` are topic 0, SPEECH topic 1."""
    return with_filler(sentences + SPEECH, seed), np.array([0] * len(sentences) + [1] * len(SPEECH))


def name_beside_speech(sentences: list[str], seed: int) -> str:
    """The name `sentences` get as one topic beside SPEECH (no vectors: the counts alone)."""
    texts, assigned = beside_speech(sentences, seed)
    return names_for(PhraseNames(NameIndex.build(texts))).name_topics(assigned).names[0]


def corpus(seed: int = 0):
    texts = with_filler([s for sentences in TOPICS.values() for s in sentences], seed)
    assigned = [topic for topic, sentences in TOPICS.items() for _ in sentences]
    return texts, np.array(assigned)


def fit_texts(
    texts: list[str], vectors: list, clusters: list[int], name_source: str = "auto", keywords=None, **options
):
    """fit_topic_tables with the default settings on a corpus of bare texts (no titles, no history;
    `keywords`: the listing's keywords column)."""
    from papertopics.config import default_config
    from papertopics.topics.fit import fit_topic_tables

    corpus = pd.DataFrame(
        {
            "doc_id": [f"d{i}" for i in range(len(texts))],
            "listings": "a",
            "title": "",
            "text": texts,
            "text_raw": texts,
        }
    )
    if keywords is not None:
        corpus["keywords"] = keywords
    config = default_config()
    settings = {key: config[key] for key in ("vectorizer", "representation", "topics")}
    settings["representation"] = {**settings["representation"], "name_source": name_source}
    return fit_topic_tables(corpus, np.array(vectors), np.array(clusters), None, **settings, **options)


@pytest.fixture(scope="module")
def named():
    texts, assigned = corpus()
    return names_for(PhraseNames(NameIndex.build(texts))).name_topics(assigned).names


def test_names_are_short_distinct_phrases(named):
    names = [named[t] for t in TOPICS]
    assert len({n.lower() for n in names}) == len(names)
    assert all(1 <= len(n.split()) <= 6 for n in names), names
    assert not any("," in n for n in names), "a name is one phrase, not a keyword list"


def test_extra_stop_words_stay_out_of_names(named):
    """vectorizer.extra_stop_words keeps a word out of the keywords; the names (from their own
    phrase index) must not bring it back, in the topics nor in the hierarchy."""
    texts, assigned = corpus()
    assert any("graph" in name.casefold() for name in named.values()), named
    exclude = frozenset({"graph", "gnns", "federated"})
    namer = names_for(PhraseNames(NameIndex.build(texts)).excluding(exclude))
    names = namer.name_topics(assigned).names
    assert not any(word in name.casefold() for name in names.values() for word in exclude), names
    vectors = np.random.default_rng(0).normal(size=(len(texts), 8))
    hierarchy, _ = topic_hierarchy(namer, assigned, vectors, names)
    labels = hierarchy["label"].str.casefold()
    assert not any(labels.str.contains(word).any() for word in exclude), hierarchy


def test_acronym_defined_in_the_corpus_is_spelled_out(named):
    assert named[0] == "federated learning (FL)"
    assert named[1] == "graph neural networks (GNNs)"


def test_case_is_as_the_abstracts_write_it(named):
    assert "Pokémon" in named[2]
    assert named[0].startswith("federated")  # lower case mid-sentence, though sentence starts capitalise it


def test_a_name_defined_in_title_case_shows_in_the_case_the_abstracts_write_its_words():
    """A 45-abstract listing showed "neural Tangent kernel (NTK)": abstracts define it as "Neural
    Tangent Kernel (NTK)" and write "neural" in lower case elsewhere. A capital that only a run of
    capitals shows counts no more than one at a sentence's start, where the word is also written in
    lower case; a proper name ("Monte Carlo", never written otherwise) keeps its capitals."""
    texts = [
        f"We study the Neural Tangent Kernel (NTK) of network {k}; the NTK of wide networks is fixed."
        for k in range(6)
    ]
    texts += [f"Training of neural model {k} follows the tangent space of its kernel." for k in range(3)]
    texts += [f"We estimate gradients by Monte Carlo sampling for model {k}." for k in range(6)]
    index = NameIndex.build(with_filler(texts + SPEECH, 23))
    assert index.name(index.group_of("neural tangent kernel")) == "neural tangent kernel (NTK)"
    assert index.name(index.group_of("monte carlo")) == "Monte Carlo"


def test_no_math_or_latex_residue(named):
    for name in named.values():
        assert not re.search(r"\blog\b|γ|mathcal|\\|\$|\bT\b", name), name
    assert "log" not in strip_markup("rounds $\\mathcal{O}(\\log T)$ and \\emph{fast} ones").split()


def test_outliers_keep_their_label_and_a_topic_without_phrases_falls_back():
    texts, assigned = corpus()
    assigned = assigned.copy()
    assigned[0] = -1
    names = names_for(PhraseNames(NameIndex.build(texts))).name_topics(assigned, fallback={0: "x, y"}).names
    assert names[-1] == "Outliers (no topic)"
    lonely = (
        names_for(PhraseNames(NameIndex.build(["Zebra.", "Quokka."])))
        .name_topics(np.array([0, 1]), fallback={0: "zebra", 1: "quokka"})
        .names
    )
    assert len(set(lonely.values())) == 2


def test_acronym_definitions_need_letters_that_spell_them():
    found = collect_acronyms(
        [
            "Detecting out-of-distribution (OOD) inputs matters.",
            "We defend against attacks (AA) of all kinds.",
            "Rectified Linear Units (ReLUs) are common.",
            "Self-supervised learning (SSL) is popular. Semi-supervised learning (SSL) too.",
        ]
    )
    assert found["OOD"][0] == ("out-of-distribution",)
    assert [w.lower() for w in found["ReLU"][0]] == ["rectified", "linear", "units"]
    assert "AA" not in found, "one word cannot define a two-letter acronym"
    assert "SSL" not in found, "an acronym defined two ways is left as written"


def test_chinese_text_gives_short_names_not_clauses():
    texts = ["联邦学习是一种分布式机器学习方法，客户端不共享数据。"] * 3 + [
        "图神经网络在节点分类任务上表现出色，图神经网络的表达能力有限。"
    ] * 3
    names = (
        names_for(PhraseNames(NameIndex.build(texts, min_df=2)))
        .name_topics(np.array([0, 0, 0, 1, 1, 1]))
        .names
    )
    assert len(set(names.values())) == 2
    assert all(1 <= len(n) <= 4 for n in names.values()), names
    assert names[0] in texts[0] and names[1] in texts[3], "a name is a run of the topic's own text"


def test_make_distinct_keeps_kept_names_and_moves_the_other():
    labels = {0: "federated learning (FL)", 1: "federated learning (FL)", -1: "Outliers (no topic)"}
    out = names_for(PhraseNames(NameIndex.build(FILLER))).make_distinct(
        labels, {1: ["federated learning (FL)", "client drift"]}, keep={0}
    )
    assert out == {0: "federated learning (FL)", 1: "client drift", -1: "Outliers (no topic)"}


def test_make_distinct_numbers_a_name_no_free_candidate_can_replace():
    """A kept name equal to a fresh one whose candidates are all taken: "(2)", "(3)", as
    fresh names are numbered (the old loop compared names with "(2)" stripped: it never ended)."""
    import signal

    labels = {0: "client drift", 1: "client drift", 2: "client drift"}
    signal.signal(signal.SIGALRM, lambda *_: pytest.fail("make_distinct did not end"))
    signal.alarm(5)
    try:
        out = names_for(PhraseNames(NameIndex.build(FILLER))).make_distinct(
            labels, {1: ["client drift"]}, keep={0}
        )
    finally:
        signal.alarm(0)
    assert out == {0: "client drift", 1: "client drift (2)", 2: "client drift (3)"}


def test_hierarchy_names_every_merge_and_cuts_regions():
    rng = np.random.default_rng(1)
    texts, assigned = [], []
    words = [
        "federated learning",
        "graph neural networks",
        "diffusion models",
        "reinforcement learning",
        "optimal transport",
        "speech recognition",
        "protein folding",
        "time series",
        "causal discovery",
        "semantic segmentation",
    ]
    centres = rng.normal(size=(len(words), 16))
    vectors = []
    for topic, phrase in enumerate(words):
        for k in range(6):
            texts.append(f"We study {phrase} in setting {k}. Our {phrase} work is new.")
            assigned.append(topic)
            vectors.append(centres[topic] + 0.05 * rng.normal(size=16))
    assigned = np.array(assigned)
    index = NameIndex.build(texts)
    leaves = names_for(PhraseNames(index)).name_topics(assigned).names
    tree, region_of = topic_hierarchy(names_for(PhraseNames(index)), assigned, np.array(vectors), leaves)
    assert list(tree.columns) == ["node", "parent", "level", "topics", "size", "label"]
    assert len(tree) == 2 * len(words) - 1 and (tree["parent"] == -1).sum() == 1
    by_node = tree.set_index("node")
    for node, row in by_node.iterrows():
        children = by_node[by_node["parent"] == node]
        if row["level"] > 0:
            assert len(children) == 2
            joined = sorted(int(t) for c in children["topics"] for t in c.split(";"))
            assert joined == sorted(int(t) for t in row["topics"].split(";"))
            assert row["size"] == children["size"].sum()
        assert row["label"], f"node {node} has no name"
    merges = tree[tree["level"] > 0]
    assert merges["label"].str.lower().is_unique
    assert 6 <= len(set(region_of.values())) <= 10 and set(region_of) == set(range(len(words)))
    assert by_node.loc[0, "label"] == leaves[0]


def test_report_pages_show_names_not_numbers():
    from papertopics.report.dendrogram import visualize_hierarchy
    from papertopics.report.intertopic import visualize_intertopic
    from papertopics.report.model_files import TopicVectors

    topics = pd.DataFrame(
        {
            "topic": [0, 1, 2],
            "label": ["federated learning (FL)", "graph neural networks", "Pokémon battles"],
            "size": [5, 5, 5],
            "top_terms": ["fl; clients", "gnns; graph", "pokémon; agents"],
        }
    )
    vectors = TopicVectors(
        topics=[0, 1, 2],
        ctfidf=None,
        embeddings=np.array([[1, 0, 0], [0.9, 0.1, 0], [0, 0, 1.0]]),
        words=None,
        source="model",
    )
    bubble = visualize_intertopic(topics, vectors).data[0]
    assert list(bubble.text) == ["federated learning (FL)", "graph neural networks", "Pokémon battles"]
    merges = pd.DataFrame(
        {
            "node": [3, 4],
            "parent": [4, -1],
            "level": [1, 2],
            "topics": ["0;1", "0;1;2"],
            "size": [10, 15],
            "label": ["learning systems", "machine learning"],
        }
    )
    figure = visualize_hierarchy(topics, vectors, merges=merges)
    hover = " ".join(str(h) for trace in figure.data for h in (trace.hovertext or []))
    assert "learning systems" in hover and "machine learning" in hover


def test_rerun_keeps_a_name_while_it_is_still_a_candidate():
    from papertopics.topics.history import stable_topic_ids

    doc_ids = [f"d{i}" for i in range(6)]
    assigned = np.array([0, 0, 0, 1, 1, 1])
    vectors = np.eye(6)[[0, 0, 0, 1, 1, 1]].astype(float)
    first = stable_topic_ids(
        doc_ids,
        assigned,
        {0: "federated learning (FL)", 1: "graph neural networks"},
        vectors,
        None,
        "cfg",
        {0: ["federated learning (FL)"], 1: ["graph neural networks"]},
    )
    previous = (first[3], first[4])
    fresh = {0: "client drift", 1: "message passing"}
    _, kept, *_ = stable_topic_ids(
        doc_ids,
        assigned,
        fresh,
        vectors,
        previous,
        "cfg",
        {0: ["client drift", "federated learning (FL)"], 1: ["message passing"]},
    )
    assert kept == {0: "federated learning (FL)", 1: "message passing"}


def test_groups_without_a_free_name_get_numbered_names_and_naming_ends():
    """At 75k abstracts many merges of the hierarchy have no candidate left: their fallback names
    are numbered ("unnamed topic (2)"). "(2)" is what the distinctness check strips, so the
    numbering used to loop for ever (fit_topics hung on arXiv 75k)."""
    import signal

    from papertopics.topics.names.phrases import NameIndex, PhraseNames

    index = NameIndex.build(["image image image text"] * 9)  # no phrase sets one group apart
    groups = {g: np.arange(3 * g, 3 * g + 3) for g in range(3)}
    signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(TimeoutError("name_groups hangs")))
    signal.alarm(10)
    try:
        named = names_for(PhraseNames(index)).name_groups(groups, taken={"unnamed topic"})
    finally:
        signal.alarm(0)
    assert sorted(named.names.values()) == ["unnamed topic (2)", "unnamed topic (3)", "unnamed topic (4)"]


def test_acronym_letters_fit_the_long_form_and_one_long_form_keeps_its_usual_acronym():
    from papertopics.topics.names.phrases import letters_fit

    texts = [
        "We train with stochastic gradient descent (SGD) on images.",
        "Plain stochastic gradient descent (SGD) converges slowly.",
        "Our stochastic gradient descent (SSGD) variant is synchronous.",
        "Vision transformers (ViTs) and chain-of-thought (CoT) prompting.",
    ]
    found = collect_acronyms(texts)
    assert found["SGD"][0] == ("stochastic", "gradient", "descent")
    assert "SSGD" not in found, "SSGD's letters do not spell stochastic gradient descent"
    assert found["ViT"][0] == ("vision", "transformers") and found["CoT"][0] == ("chain-of-thought",)
    assert not letters_fit("SSGD", "stochastic gradient descent".split())
    assert letters_fit("GPT", "generative pre-trained transformer".split())
    assert letters_fit("MoE", "mixture of experts".split())
    index = NameIndex.build(texts * 2)
    group = index.group_of("stochastic gradient descent")
    assert group is not None and index.name(group) == "stochastic gradient descent (SGD)"


def test_coverage_is_the_share_of_a_topics_abstracts_using_its_name(named):
    texts, assigned = corpus()
    index = NameIndex.build(texts)
    groups = {t: np.flatnonzero(assigned == t) for t in named}
    coverage = index.coverage(named, groups)
    assert coverage[0] == 1.0, "every FL abstract says federated learning or FL"
    assert coverage[2] == 1.0 and all(0.0 <= v <= 1.0 for v in coverage.values())
    assert index.coverage({1: "Mixed: graph neural networks (GNNs)"}, groups)[1] == 1.0
    assert index.coverage({1: "no such phrase"}, groups)[1] == 0.0


def _region_fixture(n_topics: int = 30, seed: int = 4):
    """Topics in five families on a 16-d sphere, one family holding most documents."""
    rng = np.random.default_rng(seed)
    families = rng.normal(size=(5, 16))
    texts, assigned, vectors = [], [], []
    for topic in range(n_topics):
        family = topic % 5
        size = 40 if family == 0 else 8  # family 0: 6 topics x 40 of 30 x ... documents
        centre = families[family] + 0.6 * rng.normal(size=16)
        for k in range(size):
            texts.append(
                f"Family{family} methods share kernel{family} ideas. Topic{topic} work studies "
                f"subject{topic} number {k}."
            )
            assigned.append(topic)
            vectors.append(centre + 0.1 * rng.normal(size=16))
    return texts, np.array(assigned), np.array(vectors)


def test_regions_divide_the_map_and_are_named_apart_from_their_topics():
    texts, assigned, vectors = _region_fixture()
    index = NameIndex.build(texts)
    leaves = names_for(PhraseNames(index)).name_topics(assigned).names
    tree, region_of = topic_hierarchy(names_for(PhraseNames(index)), assigned, vectors, leaves)
    regions = sorted(set(region_of.values()))
    assert 6 <= len(regions) <= 15
    label = dict(zip(tree["node"], tree["label"]))
    size = dict(zip(tree["node"], tree["size"]))
    for region in regions:
        members = [t for t, r in region_of.items() if r == region]
        assert size[region] <= 0.3 * len(assigned), (label[region], size[region])
        if len(members) > 1:  # a region is one joint of the hierarchy, named apart from its topics
            assert label[region].lower() not in {leaves[t].lower() for t in members}, label[region]
    assert len({label[r].lower() for r in regions}) == len(regions)


def test_balanced_regions_respect_the_cap_and_the_count():
    from papertopics.topics.tree import balanced_regions

    rng = np.random.default_rng(0)
    directions = rng.normal(size=(40, 8))
    directions /= np.linalg.norm(directions, axis=1, keepdims=True)
    sizes = rng.integers(5, 60, size=40)
    # a cap that binds: without it the largest of the 8 regions holds more
    cap = 0.15 * sizes.sum()
    assert np.bincount(balanced_regions(directions, sizes, 8, np.inf), weights=sizes).max() > cap
    groups = balanced_regions(directions, sizes, 8, cap)
    assert len(set(groups.tolist())) == 8
    per_region = np.bincount(groups, weights=sizes)
    assert per_region.max() <= cap


def test_hierarchy_page_names_the_regions_of_the_map():
    from papertopics.report.dendrogram import visualize_hierarchy
    from papertopics.report.model_files import TopicVectors

    texts, assigned, vectors = _region_fixture()
    index = NameIndex.build(texts)
    leaves = names_for(PhraseNames(index)).name_topics(assigned).names
    tree, region_of = topic_hierarchy(names_for(PhraseNames(index)), assigned, vectors, leaves)
    ids = sorted(leaves)
    label = dict(zip(tree["node"], tree["label"]))
    topics = pd.DataFrame(
        {
            "topic": ids,
            "label": [leaves[t] for t in ids],
            "size": [int((assigned == t).sum()) for t in ids],
            "top_terms": ["" for _ in ids],
            "region": [region_of[t] for t in ids],
            "region_label": [label[region_of[t]] for t in ids],
        }
    )
    centroids = np.stack([vectors[assigned == t].mean(axis=0) for t in ids])
    topic_vectors = TopicVectors(topics=ids, ctfidf=None, embeddings=centroids, words=None, source="model")
    figure = visualize_hierarchy(topics, topic_vectors, merges=tree)
    hover = " ".join(str(h) for trace in figure.data for h in (trace.hovertext or []))
    shared = {r for r in region_of.values() if list(region_of.values()).count(r) > 1}
    assert shared and all(label[r] in hover for r in shared), [label[r] for r in shared]


def test_a_registered_name_source_names_topics_regions_and_merges():
    """One class of two methods registered under a key is all a new name source takes:
    representation.name_source picks it and it gives every name in topics.csv (label,
    region_label) and hierarchy.csv; an unknown key is a one-line config error."""
    from papertopics.errors import ConfigError
    from papertopics.topics.names.registry import NAMING_METHODS, NamingMethod, TopicNames, register_naming

    @register_naming("first-words")
    class FirstWords(NamingMethod):
        """Each group is named after its first document's first two words, numbered."""

        def __init__(self, texts):
            self.texts = texts

        @classmethod
        def for_listing(cls, listing):
            return cls(listing.corpus["text"].tolist())

        def name_groups(self, groups, *, taken, within=None, second=False):
            names = {g: f"{' '.join(self.texts[rows[0]].split()[2:4])} #{g}" for g, rows in groups.items()}
            return TopicNames(names, {g: [name] for g, name in names.items()})

    try:
        rng = np.random.default_rng(0)
        words = [
            "federated learning",
            "graph networks",
            "diffusion models",
            "optimal transport",
            "spiking neurons",
            "protein folding",
            "speech recognition",
            "causal inference",
        ]  # 8 topics cut into 6 regions: some regions hold several topics
        texts, clusters, vectors = [], [], []
        for topic, phrase in enumerate(words):
            centre = rng.normal(size=16)
            for k in range(6):
                texts.append(f"We study {phrase} in setting {k}. Our {phrase} work is new.")
                clusters.append(topic)
                vectors.append(centre + 0.05 * rng.normal(size=16))
        fitted = fit_texts(texts, vectors, clusters)
        # the default, phrases: each topic named by its own phrase (or a part of it), all apart
        defaults = fitted.topics["label"].str.lower().tolist()
        assert len(set(defaults)) == len(words) and all(any(d in w for w in words) for d in defaults)
        mine = fit_texts(texts, vectors, clusters, name_source="first-words")
        labels = mine.topics["label"].tolist()
        assert sorted(label.rsplit(" #", 1)[0] for label in labels) == sorted(words)
        assert set(mine.topics["name_source"]) == {"first-words"}
        shared = mine.topics[mine.topics.duplicated("region", keep=False)]
        assert len(shared) and all("#" in label for label in shared["region_label"])  # the source's
        merges = mine.hierarchy[mine.hierarchy["level"] > 0]
        assert len(merges) == len(words) - 1 and all("#" in label for label in merges["label"])
        with pytest.raises(
            ConfigError, match="name_source 'nope' is not one of auto, abstracts, first-words"
        ):
            fit_texts(texts, vectors, clusters, name_source="nope")
    finally:
        NAMING_METHODS.pop("first-words", None)


def test_a_piece_of_a_phrase_is_never_a_name():
    """ "multiple-input" always goes on to "multiple-input multiple-output": once a topic holds the
    phrase, the region around it must not take a piece that is left (75k arXiv's
    "lower bound & multiple-input", then "... & multiple-output", and "large language")."""
    antennas = [f"Massive multiple-input multiple-output antennas serve user group {k}." for k in range(6)]
    channels = [
        f"Channel estimation for multiple-input multiple-output links uses pilot {k}." for k in range(6)
    ]
    texts = with_filler(antennas + channels + SPEECH, 5)
    assigned = np.array([0] * 6 + [1] * 6 + [2] * 6)
    namer = names_for(PhraseNames(NameIndex.build(texts)))
    leaves = {0: "multiple-input multiple-output", 1: "channel estimation", 2: "speech recognition"}
    regions = namer.name_regions(assigned, {0: 10, 1: 10, 2: 2}, leaves)
    assert regions[2] == "speech recognition"
    pieces = {"multiple-input", "multiple-output", "multiple"}
    assert not pieces & {part.strip() for part in regions[10].split("&")}, regions[10]
    names = namer.name_topics(assigned).names
    assert not pieces & set(names.values()), names


def test_a_singular_in_s_and_its_plural_are_one_phrase():
    """arXiv cs.CL had a topic "bias & biases": plural folding cut "bias" to "bia" and "biases" to
    "biase", two phrases. They are one, as are "analysis" and "analyses"."""
    texts = [f"Gender bias in model {k}; such biases hurt." for k in range(4)]
    texts += [f"Social biases of corpus {k} need error analyses." for k in range(4)]
    texts += [f"One error analysis of corpus {k} finds a bias." for k in range(4)]
    index = NameIndex.build(with_filler(texts + SPEECH, 25))
    assert index.group_of("biases") == index.group_of("bias") is not None
    assert index.group_of("analyses") == index.group_of("analysis")
    assert index.group_of("error analyses") == index.group_of("error analysis") is not None


def test_a_singular_acronym_spells_out_its_long_form_in_the_singular():
    """arXiv cs.CL named a topic "large language models unlearning": the abstracts wrote "LLM
    unlearning", and "LLM" was spelled out as defined, "large language models (LLMs)". A singular
    acronym takes its long form's singular; one whose long form is plural by itself ("mixture of
    experts (MoE)") keeps it."""
    texts = [
        f"Large language models (LLMs) memorise record {k}; LLM unlearning removes it." for k in range(6)
    ]
    texts += [f"A mixture of experts (MoE) routes token {k}; each MoE layer is sparse." for k in range(6)]
    index = NameIndex.build(with_filler(texts + SPEECH, 26))
    assert index.name(index.group_of("large language model unlearning")) == "large language model unlearning"
    assert index.name(index.group_of("large language models")) == "large language models (LLMs)"
    assert index.name(index.group_of("mixture of experts layer")) == "mixture of experts layer"


def test_a_plural_acronym_is_its_long_form_in_the_plural():
    """The seeds named five papers on LLM agents "large language model (LLM)": their one
    definition is singular, and "LLMs" was read as "large language model", so the plural looked
    rare. "LLMs" says "large language models" (a bare "LLM" stays singular: the test above)."""
    texts = ["We study a large language model (LLM) for planning in games."]
    texts += [f"LLMs plan in game {k}, and LLMs act." for k in range(4)]
    texts += ["An LLM agent plans in games."]
    index = NameIndex.build(with_filler(texts + SPEECH, 37))
    assert index.name(index.group_of("large language model")) == "large language models (LLMs)"
    assert name_beside_speech(texts, 37) == "large language models (LLMs)"  # was "... model (LLM)"


def test_an_acronym_takes_a_plural_s_only_after_a_plural_noun():
    """arXiv cs.CL showed "aspect-based sentiment analysis (ABSAs)" and "Mixture-of-Experts
    (MoEs)": a name ending in "s" took a plural acronym. "analysis" and "series" are singular, and
    "Mixture-of-Experts" is a mixture; "news" is no plural of "new"."""
    texts = [f"Aspect-based sentiment analysis (ABSA) of review {k} finds opinions." for k in range(6)]
    texts += [f"A Mixture-of-Experts (MoE) routes token {k} to experts." for k in range(6)]
    texts += [f"Multivariate time series (TS) forecasting of sensor {k}." for k in range(6)]
    texts += [f"Graph neural networks (GNNs) read molecule {k}." for k in range(6)]
    texts += [f"Fake news spreads on platform {k}; a new detector flags news." for k in range(6)]
    index = NameIndex.build(with_filler(texts + SPEECH, 28))
    phrases = [
        "aspect-based sentiment analysis",
        "Mixture-of-Experts",
        "time series",
        "graph neural networks",
    ]
    named = {phrase: index.name(index.group_of(phrase)) for phrase in phrases}
    assert named == {
        "aspect-based sentiment analysis": "aspect-based sentiment analysis (ABSA)",
        "Mixture-of-Experts": "Mixture-of-Experts (MoE)",
        "time series": "time series (TS)",
        "graph neural networks": "graph neural networks (GNNs)",
    }
    assert index.name(index.group_of("fake news")) == "fake news"
    assert index.group_of("fake new") is None


def test_prove_names_nothing():
    """75k's communication region took "channels & prove": theory abstracts say "we prove", which
    no researcher would call a field. Like "findings" or "insights", it starts and ends no name."""
    texts = with_filler([f"We prove regret bounds for game {k}; proving them is hard." for k in range(6)], 20)
    index = NameIndex.build(texts + with_filler(SPEECH, 21))
    assert index.group_of("regret bounds") is not None
    assert [k for k in index.keys if k[0].startswith("prov") or k[-1].startswith("prov")] == []


def test_a_region_name_of_two_phrases_fits_the_map():
    """NeurIPS 2023's region "graph neural networks (GNNs) & differential equations (DEs)" was cut
    on the map ("... & differential..."): a region's two phrases drop their acronyms when these
    make the name longer than a topic's name may be (MAX_NAME_WORDS)."""
    texts = [
        f"Graph neural networks (GNNs) solve differential equations (DEs) on mesh {k}." for k in range(6)
    ]
    texts += [f"We train GNNs on DEs for flow {k} on a mesh." for k in range(6)]
    namer = PhraseNames(NameIndex.build(with_filler(texts + SPEECH, 22)))
    gnn, de = namer.index.group_of("graph neural networks"), namer.index.group_of("differential equations")
    mesh = namer.index.group_of("mesh")
    assert namer.index.name(gnn) == "graph neural networks (GNNs)"
    assert pair_name(namer.index, gnn, de) == "graph neural networks & differential equations"
    assert pair_name(namer.index, de, mesh) == "differential equations (DEs) & mesh"  # short enough


def test_a_family_of_models_is_named_in_the_plural():
    """A 45-abstract listing named topics "diffusion model" and "adversarial attack": the form
    written most often ("a diffusion model"). A topic gathers a family of them, and a researcher
    names it "diffusion models": the plural is shown where the corpus uses it in a third of its
    uses or more; a plural said once in seven uses ("graph kernels") is not."""
    texts = [f"A diffusion model for scene {k}, with graph kernel {k}." for k in range(6)]
    texts[:2] = [f"Diffusion models for scene {k}, with graph kernel {k}." for k in range(2)]
    texts[3] += " Graph kernels help."
    index = NameIndex.build(with_filler(texts + SPEECH, 36))
    assert index.name(index.group_of("diffusion model")) == "diffusion models"
    assert index.name(index.group_of("graph kernel")) == "graph kernel"


def test_every_number_of_the_score_is_a_weight():
    """One frozen object holds the weights: the score is its weights times the features, each
    feature a field, and nothing else moves it (a weight at 0 removes its feature)."""
    texts, assigned = corpus()
    index = NameIndex.build(texts)
    found = gather(index, {t: np.flatnonzero(assigned == t) for t in TOPICS}, WEIGHTS)
    fields = {f.name for f in dataclasses.fields(Weights)}
    assert set(FEATURE_NAMES) <= fields and "share" in FEATURE_NAMES
    with pytest.raises(dataclasses.FrozenInstanceError):
        WEIGHTS.share = 2.0  # type: ignore[misc]
    for c in found.values():
        matrix = feature_matrix(c)
        assert matrix.shape == (len(c.cols), len(FEATURE_NAMES)) and np.isfinite(matrix).all()
        assert np.allclose(score(c), matrix @ weight_vector(WEIGHTS))
        for k, name in enumerate(FEATURE_NAMES):
            without = dataclasses.replace(WEIGHTS, **{name: 0.0})
            assert np.allclose(score(c, without), score(c) - getattr(WEIGHTS, name) * matrix[:, k])


def _feature(index: NameIndex, name: str, phrase: str) -> float:
    return float(static_features(index)[name][index.group_of(phrase)])


def test_each_phrase_feature_says_what_its_name_says():
    """The features that depend on a phrase alone: how often arXiv titles name it per abstract
    using it (a field's name, not what abstracts say in passing), and
    for one word, how many arXiv abstracts use it ("efficiency" names nothing), and the share of
    its papers using one phrase a word longer (a piece of a name)."""
    texts = [f"Large language models (LLMs) plan route {k} in latent space {k}." for k in range(6)]
    texts += [f"The efficiency of reinforcement learning {k} for agents." for k in range(6)]
    index = NameIndex.build(with_filler(texts + SPEECH, 40))
    assert _feature(index, "title", "reinforcement learning") > _feature(index, "title", "efficiency")
    assert _feature(index, "generic", "efficiency") > _feature(index, "generic", "speech") > 0
    assert _feature(index, "generic", "reinforcement learning") == 0  # a phrase: its words say more
    # "large language" is always "large language models": a piece of a name, not one
    assert _feature(index, "piece", "large language") == 1 > _feature(index, "piece", "large language models")


def test_meaning_and_counts_weigh_in():
    """share reads the group's counts (its candidates: the phrases it uses more than the rest of
    the corpus does); similarity the cosine of a phrase's embedding with the group's mean
    embedding, so the namer given vectors can prefer a phrase nearer the topic's abstracts."""
    texts, assigned = corpus()
    index = NameIndex.build(texts)
    rng = np.random.default_rng(0)
    vectors = rng.normal(size=(len(texts), 8))
    fl = np.flatnonzero(assigned == 0)
    centre = vectors[fl].mean(axis=0)
    near = centre / np.linalg.norm(centre)
    phrase_vectors = {index.display[g]: -near for g in range(len(index.keys))}
    phrase_vectors[index.display[index.group_of("clients")]] = near
    namer = PhraseNames(index).with_vectors(vectors, phrase_vectors)
    c = namer.candidates({0: fl})[0]
    at = {int(col): k for k, col in enumerate(c.cols)}
    cosine = c.cosine
    assert cosine[at[index.group_of("clients")]] == pytest.approx(1.0, abs=1e-5)
    assert cosine[at[index.group_of("federated learning")]] == pytest.approx(-1.0, abs=1e-5)
    features = dict(zip(FEATURE_NAMES, feature_matrix(c).T))
    assert features["share"][at[index.group_of("federated learning")]] == pytest.approx(0.0)  # all five
    # "federated learning" is in every FL abstract and no other: far above the rest of the corpus
    assert features["lift"][at[index.group_of("federated learning")]] > np.log(2)
    assert names_for(namer).name_groups({0: fl}).names[0] == "clients"
    assert names_for(PhraseNames(index)).name_groups({0: fl}).names[0] == "federated learning (FL)"


def _iclr_fixture() -> list[dict]:
    path = Path(__file__).parent / "fixtures" / "iclr2026_names.jsonl.gz"
    return [json.loads(line) for line in gzip.open(path, "rt", encoding="utf-8")]


def _fold(text: str) -> tuple[str, ...]:
    return tuple(singular(w.replace("-", "")) for w in re.findall(r"[\w\-]+", text.lower()))


def _said(text: str) -> list[tuple[str, ...]]:
    """A name's or keyword's phrases: each side of " & ", the long form and "(ACRONYM)"."""
    out = []
    for part in re.sub(r"^Mixed: ", "", text).split(" & "):
        m = re.match(r"(.*?)\s*\(([^)]*)\)$", part.strip())
        out += [m.group(1), m.group(2)] if m else [part]
    return [f for f in map(_fold, out) if f]


def _names_a_keyword(name: str, keywords: list[list[str]]) -> bool:
    """Does the name say one of the group's three commonest author keywords (bench/names_fit.py)?"""
    counts = Counter(k for kws in keywords for k in {p for kw in kws for p in _said(kw)})
    ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    cut = max(ranked[min(3, len(ranked)) - 1][1], min(2, ranked[0][1]))
    top = [k for k, v in ranked if v >= cut]

    def inside(short, long):
        return any(long[i : i + len(short)] == short for i in range(len(long) - len(short) + 1))

    return any(inside(k, s) or (len(s) > 1 and k[-len(s) :] == s) for k in top for s in _said(name))


def test_names_say_what_authors_call_their_papers():
    """A small labelled check: 160 ICLR 2026 submissions (tests/fixtures, from ../shared's labelled
    set) grouped by the primary area their authors chose (broad: "datasets and benchmarks").
    Names from the counts alone (no embeddings) name one of a group's three commonest author
    keywords for half the groups, where c-TF-IDF's first word (plain BERTopic's label) names
    hardly any."""
    from bertopic.vectorizers import ClassTfidfTransformer
    from sklearn.feature_extraction.text import CountVectorizer

    records = _iclr_fixture()
    areas = sorted({r["primary_area"] for r in records})
    assigned = np.array([areas.index(r["primary_area"]) for r in records])
    texts = [r["abstract"] for r in records]
    names = names_for(PhraseNames(NameIndex.build(texts))).name_topics(assigned).names
    keywords = {t: [r["keywords"] for r, a in zip(records, assigned) if a == t] for t in range(len(areas))}
    hits = sum(_names_a_keyword(names[t], keywords[t]) for t in keywords)
    joined = [" ".join(t for t, a in zip(texts, assigned) if a == k) for k in range(len(areas))]
    vectorizer = CountVectorizer().fit(joined)
    weights = ClassTfidfTransformer().fit_transform(vectorizer.transform(joined)).toarray()
    words = vectorizer.get_feature_names_out()
    plain = sum(_names_a_keyword(str(words[row.argmax()]), keywords[t]) for t, row in enumerate(weights))
    assert hits >= 4 and hits >= plain + 3, (names, hits, plain)


# --------------------------------------------------------------------------- authors' keywords

FHIR_EXPORT = (
    Path(__file__).parent / "fixtures" / "scopus_fhir_60.csv.gz"
)  # 60 records of a real Scopus export


@pytest.fixture(scope="module")
def fhir():
    """The Scopus export slice read as a user's listing, cut into 5 topics (TF-IDF k-means)."""
    from sklearn.cluster import KMeans
    from sklearn.decomposition import TruncatedSVD
    from sklearn.feature_extraction.text import TfidfVectorizer

    from papertopics.ingest.corpus import build_corpus
    from papertopics.ingest.listings import ListingSpec, read_listing

    corpus, _ = build_corpus([read_listing(ListingSpec("scopus", FHIR_EXPORT))])
    tfidf = TfidfVectorizer(stop_words="english").fit_transform(corpus["text"])
    vectors = TruncatedSVD(20, random_state=0).fit_transform(tfidf)
    clusters = KMeans(5, n_init=4, random_state=0).fit_predict(vectors)
    return corpus.reset_index(drop=True), vectors, clusters


def _fit(corpus, vectors, clusters, source: str):
    from papertopics.config import default_config
    from papertopics.topics.fit import fit_topic_tables

    config = default_config()
    settings = {key: config[key] for key in ("vectorizer", "representation", "topics")}
    settings["representation"] = {**settings["representation"], "name_source": source}
    return fit_topic_tables(corpus, vectors, clusters, None, **settings)


def test_keyword_names_are_keywords_the_topics_papers_give(fhir):
    """A listing with authors' keywords (Scopus `Author Keywords`): each topic is named by a
    keyword (or two) its own papers give, names apart, topics.csv says so; with
    name_source: abstracts the same topics are named from their abstracts, as before."""
    from papertopics.topics.names.keywords import split_keywords
    from papertopics.topics.names.text import fold_text

    corpus, vectors, clusters = fhir
    fitted = _fit(corpus, vectors, clusters, "auto")
    table = fitted.topics[fitted.topics["topic"] >= 0]
    assert set(table["name_source"]) == {"keywords"}
    assert table["label"].str.lower().is_unique
    assigned = fitted.documents["topic"].to_numpy()
    for row in table.itertuples():
        given = Counter(
            "".join(fold_text(re.sub(r"\s*\([^)]*\)$", "", k)))
            for i in np.flatnonzero(assigned == row.topic)
            for k in split_keywords(corpus["keywords"][i])
        )
        for part in row.label.removeprefix("Mixed: ").split(" & "):
            key = "".join(fold_text(re.sub(r"\s*\([^)]*\)$", "", part)))
            assert given[key] >= 2, (row.label, part)
        assert row.coverage > 0
    plain = _fit(corpus, vectors, clusters, "abstracts").topics
    assert set(plain["name_source"]) == {"abstracts"}
    assert plain["label"].tolist() != fitted.topics["label"].tolist()


def test_keyword_variants_are_one_keyword(fhir):
    """Case, plural, hyphen and spacing, an acronym and its long form: one keyword, shown in
    lower case with its acronym ("fast healthcare interoperability resources (FHIR)")."""
    from papertopics.topics.names.keywords import KeywordIndex

    index = KeywordIndex.build(
        [
            "Meta-learning; FHIR",
            "meta learning; Fast Healthcare Interoperability Resources (FHIR)",
            "Electronic Health Records; electronic health record",
        ]
    )
    assert index.incidence.shape == (3, 3)
    fhir_group = index.group_of("FHIR")
    assert fhir_group == index.group_of("fast healthcare interoperability resources")
    assert index.display[fhir_group] == "fast healthcare interoperability resources (FHIR)"
    assert index.incidence[:, fhir_group].sum() == 2
    assert index.group_of("meta-learning") == index.group_of("Meta Learning")
    corpus = fhir[0]
    real = KeywordIndex.build(corpus["keywords"].tolist())
    assert real.incidence[:, real.group_of("FHIR")].sum() >= 10  # the export's own spellings joined


def test_a_listing_without_keywords_is_named_from_its_abstracts(fhir):
    corpus, vectors, clusters = fhir
    bare = _fit(corpus.drop(columns=["keywords"]), vectors, clusters, "auto").topics
    plain = _fit(corpus, vectors, clusters, "abstracts").topics
    assert bare["label"].tolist() == plain["label"].tolist()
    assert set(bare["name_source"]) == {"abstracts"}


def test_a_card_says_its_name_came_from_the_authors_keywords(tmp_path):
    """topics.csv name_source: keywords -> the overview card says so (and its coverage); a name
    from the abstracts keeps "name used by ... of its abstracts"."""
    from report_sample import sample_inputs

    from papertopics.report import render_report

    report = sample_inputs(40, n_topics=2)
    topics = report.topics
    topics["coverage"] = np.where(topics["topic"] >= 0, 0.5, np.nan)
    topics["name_source"] = np.where(topics["topic"] == 0, "keywords", "abstracts")
    render_report(report, tmp_path / "report")
    page = (tmp_path / "report" / "index.html").read_text(encoding="utf-8")
    assert page.count("name from the authors' keywords, given by 50% of its papers") == 1
    assert page.count("name used by 50% of its abstracts") == 1


def test_a_keyword_card_counts_the_papers_that_give_it_and_a_config_name_says_only_so(tmp_path):
    """Issue 58: a keyword name's figure is the share of the topic's papers whose authors give it,
    and of those that carry keywords ("given by 30% of its papers (60% of those with keywords)");
    a topic renamed in config.yaml says only that, not where a name it no longer has came from."""
    from report_sample import sample_inputs

    from papertopics.report import render_report

    report = sample_inputs(40, n_topics=2)
    topics = report.topics
    topics["coverage"] = np.where(topics["topic"] >= 0, 0.3, np.nan)
    topics["name_source"] = np.where(topics["topic"] >= 0, "keywords", "abstracts")
    topics["keyworded"] = np.where(topics["topic"] >= 0, 0.5, np.nan)
    topics["named_by"] = np.where(topics["topic"] == 1, "config.yaml", "papertopics")
    render_report(report, tmp_path / "report")
    page = (tmp_path / "report" / "index.html").read_text(encoding="utf-8")
    said = "name from the authors' keywords, given by 30% of its papers (60% of those with keywords)"
    assert page.count(said) == 1  # topic 0; topic 1 is the reader's name
    assert page.count("your name (config.yaml)") == 1


def test_keywords_are_cleaned_split_as_the_listing_writes_them_and_keep_the_authors_acronyms():
    """Issue 58: "R&amp;D" is one keyword "R&D"; "nature&#8208; based solution" is
    "nature-based solution"; "FHIR<sup>®</sup>" is FHIR; a listing that separates keywords by "|"
    is split there; a 33-word "keyword" names nothing; acronyms keep the case authors write
    ("low-rank adaptation (LoRA)", "large language models (LLMs)"), not "LORA", "LLMS"."""
    from papertopics.topics.names.keywords import KeywordIndex

    sentence = " ".join(["word"] * 33)
    index = KeywordIndex.build(
        [
            "R&amp;D | nature&#8208; based solution | FHIR<sup>®</sup>",
            "R&D | FHIR | low-rank adaptation (LoRA)",
            f"Low-Rank Adaptation (LoRA) | LoRA | {sentence}",
            "large language models (LLMs) | LLMs | nature-based solutions",
            "Large Language Models (LLMs) | fine-tuning, pruning",
        ]
    )
    shown = set(index.display)
    assert "R&D" in shown and not {"R&amp", "D", "based solution"} & shown, shown
    assert index.incidence[:, index.group_of("R&D")].sum() == 2
    assert index.incidence[:, index.group_of("nature-based solution")].sum() == 2
    assert index.incidence[:, index.group_of("FHIR")].sum() == 2 and "FHIR®" not in shown
    assert "low-rank adaptation (LoRA)" in shown and "large language models (LLMs)" in shown, shown
    assert not any(len(k.split()) > 6 for k in shown)
    assert "fine-tuning, pruning" in shown  # "|" is this listing's separator, not ","


def test_keyword_names_of_a_large_topic_need_no_papers_by_keywords_matrix():
    """Issue 60: naming a 3,000-paper topic among 20,000 distinct keywords reads only its
    shortlist's columns (96b150c made a dense papers x keywords array: over 100 MB here)."""
    import tracemalloc

    from papertopics.topics.names.keywords import KeywordNames
    from papertopics.topics.names.registry import Listing

    rng = np.random.default_rng(0)
    rare = [f"keyword {i}" for i in range(20_000)]
    column = [
        "; ".join([*rng.choice(rare, 3), *(["topic modelling"] if i < 3_000 else [])]) for i in range(3_600)
    ]
    corpus = pd.DataFrame({"keywords": column})
    source = KeywordNames.for_listing(Listing(corpus))
    topic = np.arange(3_000)
    tracemalloc.start()
    try:
        named = source.name_groups({0: topic}, taken=set(), second=True)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert named.names[0].startswith("topic modelling"), named.names
    assert peak < 20 * 2**20, f"{peak / 2**20:.0f} MiB"


def test_a_keyword_two_papers_give_does_not_name_a_thirty_paper_topic():
    """Issue 58: "interpretability" from 2 of a topic's 30 keyworded papers (each of the others
    gives keywords of its own) is no name for it: under `keyword_floor` of its keyworded papers
    give it, so its abstracts name it; a keyword 12 of the other topic's 30 give names that one."""
    texts, keywords, clusters = [], [], []
    for k in range(30):
        texts.append(f"We study federated learning with clients in round {k}. Federated learning scales.")
        keywords.append("interpretability" if k < 2 else f"private topic {k}; own idea {k}")
        clusters.append(0)
    for k in range(30):
        texts.append(f"Speech recognition of accent {k} with acoustic models. Speech recognition works.")
        keywords.append("automatic speech recognition" if k < 12 else f"speech idea {k}")
        clusters.append(1)
    rng = np.random.default_rng(0)
    vectors = [rng.normal(size=8) + (5 if c else -5) for c in clusters]
    table = fit_texts(texts, vectors, clusters, keywords=keywords).topics.set_index("topic")
    labels = dict(zip(table["label"], table["name_source"]))
    assert "interpretability" not in labels and "abstracts" in labels.values(), labels
    assert labels.get("automatic speech recognition") == "keywords", labels
