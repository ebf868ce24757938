"""Topic names: phrases from the abstracts, acronyms spelled out, named hierarchy and regions."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest

from papertopics.topics.names import phrases
from papertopics.topics.names.hierarchy import topic_hierarchy
from papertopics.topics.names.phrases import (
    NameIndex,
    PhraseNames,
    collect_acronyms,
    is_modifier_word,
    strip_markup,
)

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
    return PhraseNames(NameIndex.build(texts)).name_topics(assigned).names[0]


def corpus(seed: int = 0):
    texts = with_filler([s for sentences in TOPICS.values() for s in sentences], seed)
    assigned = [topic for topic, sentences in TOPICS.items() for _ in sentences]
    return texts, np.array(assigned)


def fit_texts(texts: list[str], vectors: list, clusters: list[int], **options):
    """fit_topic_tables with the default settings on a corpus of bare texts (no titles, no history)."""
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
    config = default_config()
    settings = {key: config[key] for key in ("vectorizer", "representation", "topics")}
    return fit_topic_tables(corpus, np.array(vectors), np.array(clusters), None, **settings, **options)


@pytest.fixture(scope="module")
def named():
    texts, assigned = corpus()
    return PhraseNames(NameIndex.build(texts)).name_topics(assigned).names


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
    namer = PhraseNames(NameIndex.build(texts)).excluding(exclude)
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
    names = PhraseNames(NameIndex.build(texts)).name_topics(assigned, fallback={0: "x, y"}).names
    assert names[-1] == "Outliers (no topic)"
    lonely = (
        PhraseNames(NameIndex.build(["Zebra.", "Quokka."]))
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
    names = PhraseNames(NameIndex.build(texts, min_df=2)).name_topics(np.array([0, 0, 0, 1, 1, 1])).names
    assert len(set(names.values())) == 2
    assert all(1 <= len(n) <= 4 for n in names.values()), names
    assert names[0] in texts[0] and names[1] in texts[3], "a name is a run of the topic's own text"


def test_make_distinct_keeps_kept_names_and_moves_the_other():
    labels = {0: "federated learning (FL)", 1: "federated learning (FL)", -1: "Outliers (no topic)"}
    out = PhraseNames(NameIndex.build(FILLER)).make_distinct(
        labels, {1: ["federated learning (FL)", "client drift"]}, keep={0}
    )
    assert out == {0: "federated learning (FL)", 1: "client drift", -1: "Outliers (no topic)"}


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
    leaves = PhraseNames(index).name_topics(assigned).names
    tree, region_of = topic_hierarchy(PhraseNames(index), assigned, np.array(vectors), leaves)
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
        named = PhraseNames(index).name_groups(groups, taken={"unnamed topic"})
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


def test_a_head_word_gives_way_to_the_phrase_the_field_uses():
    gnn = [
        "Graph neural networks learn on a graph.",
        "We study graph neural networks for graph data.",
        "Message passing on the graph with graph neural networks.",
        "Each graph gets a graph embedding from its nodes.",
        "Expressive models count graph motifs.",
        "A graph transformer reads the graph.",
    ]
    # "graph" is in all six abstracts, the phrase in half: close enough for the field's phrase
    assert name_beside_speech(gnn, 3) == "graph neural networks"


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
    leaves = PhraseNames(index).name_topics(assigned).names
    tree, region_of = topic_hierarchy(PhraseNames(index), assigned, vectors, leaves)
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
    leaves = PhraseNames(index).name_topics(assigned).names
    tree, region_of = topic_hierarchy(PhraseNames(index), assigned, vectors, leaves)
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


def test_a_registered_naming_method_names_topics_regions_and_merges():
    """One class registered under a name is all a new naming method takes: fit_topic_tables uses
    it for every name in topics.csv (label, region_label) and hierarchy.csv; an unknown name is a
    one-line config error."""
    from papertopics.errors import ConfigError
    from papertopics.topics.names.registry import NAMING_METHODS, NamingMethod, TopicNames, register_naming

    @register_naming("first-words")
    class FirstWords(NamingMethod):
        """Each group is named after its first document's first two words, numbered."""

        def __init__(self, texts):
            self.texts = texts

        @classmethod
        def for_corpus(cls, corpus, prepared=None):
            return cls(corpus["text"].tolist())

        def name_groups(self, groups, *, taken=None, fallback=None, keywords=None):
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
        # the default, phrases: each topic named by its own phrase
        assert sorted(fitted.topics["label"].str.lower()) == sorted(words)
        mine = fit_texts(texts, vectors, clusters, naming="first-words")
        labels = mine.topics["label"].tolist()
        assert sorted(label.rsplit(" #", 1)[0] for label in labels) == sorted(words)
        shared = mine.topics[mine.topics.duplicated("region", keep=False)]
        assert len(shared) and all("#" in label for label in shared["region_label"])  # the method's
        merges = mine.hierarchy[mine.hierarchy["level"] > 0]
        assert len(merges) == len(words) - 1 and all("#" in label for label in merges["label"])
        with pytest.raises(ConfigError, match="naming method 'nope' is not one of .*phrases"):
            fit_texts(texts, vectors, clusters, naming="nope")
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
    namer = PhraseNames(NameIndex.build(texts))
    leaves = {0: "multiple-input multiple-output", 1: "channel estimation", 2: "speech recognition"}
    regions = namer.name_regions(assigned, {0: 10, 1: 10, 2: 2}, leaves).names
    assert regions[2] == "speech recognition"
    pieces = {"multiple-input", "multiple-output", "multiple"}
    assert not pieces & {part.strip() for part in regions[10].split("&")}, regions[10]
    names = namer.name_topics(assigned).names
    assert not pieces & set(names.values()), names


def test_a_phrase_any_topic_could_have_gives_way_to_the_topics_own():
    protein = [
        "Machine learning predicts protein folding from sequence alone.",
        "We apply machine learning to protein folding with evolutionary couplings.",
        "Protein folding trajectories are sampled faster by machine learning surrogates.",
        "A machine learning potential speeds up protein folding simulations.",
        "Machine learning ranks candidate molecules for docking.",
        "Enzyme design with machine learning needs few assays.",
    ]
    # "machine learning" is in all six abstracts, "protein folding" in four: the field is the latter
    assert name_beside_speech(protein, 6) == "protein folding"


def test_meaning_chooses_among_phrases_that_cover_the_topic_alike(monkeypatch):
    """The counts alone prefer the bare word "policy" (all six abstracts); "reinforcement
    learning" covers three and sits nearer the topic's abstracts in embedding space, so it names
    the topic. "value iteration" sits nearer still but covers two: it does not. (Without the
    title table: with it, "policy" gives way to the field's name by its titles already.)"""
    monkeypatch.setattr(phrases, "title_use", dict)
    rl = [
        "Reinforcement learning trains a policy from rewards in the environment.",
        "We study policy gradients for reinforcement learning with sparse rewards.",
        "A policy learned by offline reinforcement learning avoids unsafe actions.",
        "Robot agents share one policy across tasks.",
        "Our method improves the policy with value iteration.",
        "The policy is distilled with value iteration from a planner.",
    ]
    texts, assigned = beside_speech(rl, 7)
    namer = PhraseNames(NameIndex.build(texts))
    assert namer.name_topics(assigned).names[0] == "policy"  # the counts' choice
    topic, other = np.eye(4)[0], np.eye(4)[1]
    vectors = np.array([topic] * 6 + [other] * 6)

    def unit(cos: float) -> np.ndarray:
        return np.array([cos, np.sqrt(1 - cos**2), 0.0, 0.0])

    def named(near: dict[str, float]) -> str:
        phrase_vectors = {p: unit(near.get(p, 0.05)) for p in namer.index.nameable()}
        return namer.with_vectors(vectors, phrase_vectors).name_topics(assigned).names[0]

    assert named({"reinforcement learning": 0.5, "value iteration": 0.99}) == "reinforcement learning"
    # however near, a phrase two of the six abstracts use does not replace the one all six use
    assert named({"value iteration": 0.99}) == "policy"
    # without vectors for its phrases a topic keeps the counts' name
    assert namer.with_vectors(vectors, {}).name_topics(assigned).names[0] == "policy"


def test_a_modifier_names_nothing_the_noun_it_goes_with_does():
    """ "molecular" goes on to a noun in every abstract (molecular dynamics, molecular graphs...):
    it modifies, so it does not name the topic although all six use it; "protein", which ends
    its phrases in five, does (NeurIPS 2023's "molecular" topic is now "protein")."""
    heads = ["dynamics", "graphs", "docking", "conformers", "fingerprints", "simulations"]
    verbs = ["fold", "dock", "design", "mutate", "bind"]
    chem = [f"Molecular {h} {v}s the protein." for h, v in zip(heads, verbs)]
    chem.append(f"Molecular {heads[5]} bind a ligand.")
    texts, assigned = beside_speech(chem, 8)
    index = NameIndex.build(texts)
    assert index.ends[index.group_of("molecular")] < 0.3 < 0.5 < index.ends[index.group_of("protein")]
    assert PhraseNames(index).name_topics(assigned).names[0] == "protein"


def test_a_region_takes_the_fields_name_and_its_topic_a_narrower_one():
    """NeurIPS 2023: the region of the language-model topics was "language" because its largest
    topic held "language models (LMs)"; now the region is "language models" and the topic keeps
    "large language models", a candidate holding the region's name. A topic with no narrower
    candidate keeps its name, and the region takes another."""

    rng = np.random.default_rng(3)
    phrases = ["protein folding", "optimal transport", "spiking neurons", "causal inference"]
    phrases += ["federated learning", "graph networks"]
    texts, clusters, vectors = [], [], []
    centres = [rng.normal(size=16) for _ in range(len(phrases) + 2)]
    centres[-1] = centres[-2] + 0.1 * rng.normal(size=16)  # the two language topics: one region
    texts += [  # topic 0: language models, half of them large
        "Large language models answer math questions.",
        "We prompt large language models with worked examples.",
        "Large language models hallucinate facts.",
        "Language models of code are evaluated on repositories.",
        "Small language models are distilled from a teacher.",
        "Multilingual language models transfer across scripts.",
    ]
    texts += [  # topic 1: speech recognition, with language models too
        "Speech recognition improves with language models.",
        "Language models rescore speech recognition lattices.",
        "Noisy speech recognition uses external language models.",
        "Speech recognition for accented speakers.",
        "Streaming speech recognition on phones.",
        "Speech recognition errors are corrected by language models.",
    ]
    for phrase in phrases:
        texts += [f"We study {phrase} in setting {k}. Our {phrase} work is new." for k in range(6)]
    for topic, centre in enumerate(centres[-2:] + centres[: len(phrases)]):
        clusters += [topic] * 6
        vectors += [centre + 0.05 * rng.normal(size=16) for _ in range(6)]
    fitted = fit_texts(texts, vectors, clusters)
    topics = fitted.topics.set_index("topic")
    llm, speech = 0, 1  # no history: the ids are the clusters'
    assert topics.loc[llm, "label"] == "large language models", topics["label"]
    assert topics.loc[speech, "label"] == "speech recognition", topics["label"]
    assert topics.loc[llm, "region"] == topics.loc[speech, "region"]
    assert topics.loc[llm, "region_label"] == "language models"
    leaves = fitted.hierarchy[fitted.hierarchy["level"] == 0].set_index("node")["label"]
    assert leaves.to_dict() == topics["label"].to_dict()  # hierarchy.csv shows the new name too
    # without a narrower candidate the topic holds its name and the region names itself apart
    index = NameIndex.build(texts)
    region_of = {t: (10 if t < 2 else t) for t in range(len(centres))}
    leaf_names = {0: "language models", 1: "speech recognition"}
    leaf_names.update({t + 2: p for t, p in enumerate(phrases)})
    only_wider = {0: ["math questions"]}  # no candidate holding "language models"
    named = PhraseNames(index).name_regions(np.array(clusters), region_of, leaf_names, only_wider)
    assert named.topics == {} and named.names[10] != "language models", named


def test_a_phrase_shows_the_form_that_ends_its_noun_phrases():
    """ "bandit" is in more abstracts, but as a modifier ("bandit feedback"); the field is
    "bandits", the form the abstracts end a noun phrase with (NeurIPS 2023's topic "bandits")."""
    heads = ["feedback", "problems", "algorithms", "instances", "settings", "arms"]
    texts = [f"We study bandit {h} with delays." for h in heads]
    exploration = ("optimistic", "greedy", "random")
    texts += [f"Contextual bandits are solved with {m} exploration." for m in exploration]
    index = NameIndex.build(with_filler(texts + SPEECH, 9))
    assert index.display[index.group_of("bandit")] == "bandits"


def test_a_name_is_a_noun_not_an_adjective_or_a_verb():
    """Names a 45-abstract listing got: "robust", "generalize", "multi-scale", "matching upper".
    An adjective or a verb all six abstracts use gives way to the noun phrase three use."""
    robust = [
        "Our detector is robust, even when labels are noisy.",
        "The estimator remains robust when outliers appear.",
        "We prove the policy is robust against perturbations.",
        "Ensembles are robust but slow; adversarial robustness is certified.",
        "Pruned networks stay robust after compression and keep adversarial robustness.",
        "Is the tokenizer robust to typos? Adversarial robustness says no.",
    ]
    generalize = [
        "Models generalize poorly when data shift.",
        "Networks that generalize need flat minima.",
        "Do transformers generalize? Out-of-distribution generalization says partly.",
        "We ask why policies generalize across tasks.",
        "Agents generalize to new mazes, and out-of-distribution generalization improves.",
        "Out-of-distribution generalization is measured on scans where classifiers generalize.",
    ]
    for sentences, name, seed in (
        (robust, "adversarial robustness", 10),
        (generalize, "out-of-distribution generalization", 13),
    ):
        assert name_beside_speech(sentences, seed) == name
    modifiers = ["multi-scale", "vision-language", "black-box", "unlabeled", "upper", "Bayesian"]
    modifiers += ["distributionally", "provably", "efficiently", "differentially"]
    nouns = [
        "fine-tuning",
        "pre-training",
        "self-attention",
        "DP-SGD",
        "bandits",
        "speed",
        "anomaly",
        "family",
    ]
    assert [w for w in modifiers if not is_modifier_word(w)] == []
    assert [w for w in nouns if is_modifier_word(w)] == []


def test_a_name_goes_without_methods_where_it_stands_alone():
    """ "few-shot learning methods" named a 45-abstract listing's topic; "few-shot learning" ends
    its noun phrases wherever "methods" does not follow, so it is the name. ("diffusion models"
    stays: "diffusion" alone is a modifier.)"""
    texts = [
        "Few-shot learning methods fail on new domains, as few-shot learning is brittle.",
        "We compare few-shot learning methods on medical scans; few-shot learning remains hard.",
        "Few-shot learning methods need good priors, and few-shot learning benefits from them.",
        "Existing few-shot learning methods overfit; we revisit few-shot learning.",
        "Our few-shot learning methods use prompts, since few-shot learning with prompts is cheap.",
        "Few-shot learning with transformers is studied: few-shot learning is easy there.",
    ]
    assert name_beside_speech(texts, 12) == "few-shot learning"
    diffusion = [
        "Diffusion models denoise images step by step.",
        "We distill diffusion models into one step.",
        "Diffusion models memorize their training data.",
        "Guidance steers diffusion models toward prompts.",
        "Latent diffusion models compress images first.",
        "Diffusion models sample molecules for drug design.",
    ]
    assert name_beside_speech(diffusion, 15) == "diffusion models"


def test_a_region_of_two_topics_shows_both_unless_a_phrase_covers_most_of_it():
    """NeurIPS 2023's region of reinforcement learning and bandits was "policy", a word in 47% of
    its abstracts: it is now "reinforcement learning (RL) & bandits". A phrase in most of the
    pair's abstracts still names it."""

    def region(policy_rl: int, policy_bandits: int) -> str:
        rl = [
            f"Reinforcement learning agents explore maze {k}"
            + (" with a learned policy." if k < policy_rl else ".")
            for k in range(6)
        ]
        arms = ["two", "many", "linear", "dueling", "contextual", "sleeping"]
        bandits = [
            f"Bandits with {arm} arms trade exploration for reward"
            + (" under a fixed policy." if k < policy_bandits else ".")
            for k, arm in enumerate(arms)
        ]
        texts = with_filler(rl + bandits + SPEECH, 14)
        assigned = np.array([0] * 6 + [1] * 6 + [2] * 6)
        leaves = {0: "reinforcement learning", 1: "bandits", 2: "speech recognition"}
        namer = PhraseNames(NameIndex.build(texts))
        return namer.name_regions(assigned, {0: 10, 1: 10, 2: 2}, leaves).names[10]

    assert region(3, 2) == "reinforcement learning & bandits"  # "policy" in 5 of 12
    assert region(5, 4) == "policy"  # in 9 of 12


def test_a_region_is_named_by_a_noun():
    """Every abstract of three topics says "Bayesian", always before a noun; the region they
    make is named by what they share that names something ("uncertainty"), not by the adjective
    (NeurIPS 2023 without titles had the region "gradient descent (GD) & Gaussian"), and not by
    a phrase one of its topics is named by."""
    kinds = {
        "Bayesian {} quantify uncertainty in regression task {}.": [
            "posteriors",
            "ensembles",
            "priors",
            "credible sets",
            "evidence bounds",
            "samplers",
        ],
        "Gaussian processes are Bayesian {} for uncertainty in dataset {}.": [
            "smoothers",
            "emulators",
            "surrogates",
            "interpolators",
            "kernels",
            "regressors",
        ],
        "Variational inference fits Bayesian {} at scale {}.": [
            "autoencoders",
            "mixtures",
            "networks",
            "factor models",
            "topic models",
            "state spaces",
        ],
    }
    texts = [pattern.format(w, k) for pattern, words in kinds.items() for k, w in enumerate(words)]
    texts = with_filler(texts + SPEECH, 16)
    assigned = np.repeat([0, 1, 3, 2], 6)
    leaves = {0: "regression", 1: "Gaussian processes", 3: "variational inference", 2: "speech recognition"}
    namer = PhraseNames(NameIndex.build(texts))
    regions = namer.name_regions(assigned, {0: 10, 1: 10, 3: 10, 2: 2}, leaves)
    assert regions.names[10] == "uncertainty", regions.names
    # nor by either phrase of a topic's name: "uncertainty" is the second of "regression & uncertainty"
    leaves[0] = "regression & uncertainty"
    regions = namer.name_regions(assigned, {0: 10, 1: 10, 3: 10, 2: 2}, leaves)
    assert "uncertainty" not in regions.names[10] and regions.names[10], regions.names


def test_a_region_may_take_the_head_of_a_topics_name():
    """arXiv's region of the LLM topics was "fine-tuning (FT)" and 75k's "natural language (NL) &
    jailbreaks": "language models" is nearly always "large language models", a piece
    (_fragments), and so no name, while it is the field of every topic in the region. The head
    of a topic's name may name the region that holds the topic."""
    prompts = ["hallucinate", "reason", "plan", "retrieve", "refuse", "code"]
    uses = ["triage", "billing", "discharge", "coding", "audits", "research"]
    bits = ["two", "three", "four", "five", "six", "eight"]
    texts = (
        [f"Large language models {v} when prompted with task {k}." for k, v in enumerate(prompts)]
        + [f"Clinical notes {k} are summarized by large language models for {w}." for k, w in enumerate(uses)]
        + [
            f"Quantization of large language models to {b} bits keeps accuracy {k}."
            for k, b in enumerate(bits)
        ]
    )
    index = NameIndex.build(with_filler(texts + SPEECH, 17))
    assert index._prior()[index.group_of("language models")] == 0  # a piece of "large language models"
    leaves = {0: "large language models", 1: "clinical notes", 3: "quantization", 2: "speech recognition"}
    regions = PhraseNames(index).name_regions(np.repeat([0, 1, 3, 2], 6), {0: 10, 1: 10, 3: 10, 2: 2}, leaves)
    assert regions.names[10] == "language models", regions.names


def test_a_one_word_name_takes_a_second_phrase_that_covers_more_of_its_topic(monkeypatch):
    """NeurIPS 2023's "speech", "brain", "proteins" were one bare word for topics whose other half
    the word misses (audio, spiking neural networks, molecules): a researcher writes "proteins &
    molecules". Not where the second phrase says the word again ("labels" / "labeling"), nor
    where it scores under half the word's, nor in a small topic, where five abstracts at least
    must use it. (The counts alone: arXiv titles, which say "molecular" more than "molecules",
    would weigh a topic this small too; see the test after this one.)"""
    monkeypatch.setattr(phrases, "title_use", dict)
    proteins = [
        "We fold proteins with a language model of sequences.",
        "Docking proteins into pockets is slow; we learn it.",
        "Designing proteins needs a structure prior.",
        "We predict how proteins bind to each other.",
        "A benchmark of proteins and their mutations is released.",
        "Generative models of proteins and molecules share one encoder.",
        "Both proteins and molecules are graphs of atoms.",
        "We pretrain on proteins, then on molecules.",
        "Our sampler draws molecules with given properties.",
        "Molecules are generated fragment by fragment.",
        "Retrosynthesis plans routes to molecules.",
        "A diffusion prior over molecules respects symmetry.",
    ]
    assert name_beside_speech(proteins, 21) == "proteins & molecules"
    # seven abstracts, four of them with "molecules" (two alone): one name
    assert name_beside_speech(proteins[:3] + proteins[6:10], 21) == "proteins"
    # "molecules" in five of twelve, "proteins" in ten: under half the word's score, one name
    more = ["Proteins fold in milliseconds.", "We align proteins across species."]
    assert name_beside_speech(proteins[:5] + more + proteins[5:10], 21) == "proteins"
    labels = [s.replace("proteins", "labels").replace("molecules", "labeling") for s in proteins]
    assert name_beside_speech(labels, 21) == "labels"


def test_a_name_few_of_its_abstracts_use_takes_a_second_phrase():
    """arXiv cs.CL named a multilingual topic of 261 abstracts "machine translation (MT)", a phrase
    16% of them use: a name of two words or more took no second phrase. One that under three in
    ten of its topic's abstracts use takes one as a one-word name does ("machine translation (MT)
    & low-resource languages"); one that more use stays as it is."""
    texts = [f"Machine translation (MT) of corpus {k} is hard." for k in range(3)]
    texts += [f"Low-resource languages of region {k} lack text." for k in range(6)]
    texts += [f"Tokenizers of script {k} split words." for k in range(3)]
    namer = PhraseNames(NameIndex.build(with_filler(texts + SPEECH, 29)))
    mt, low = namer.index.group_of("machine translation"), namer.index.group_of("low-resource languages")
    ranked = [(mt, 1.0), (low, 0.6)]
    assert namer._second(np.arange(12), mt, ranked, set()) == low  # 3 of 12 say "machine translation"
    assert namer._second(np.arange(9), mt, ranked, set()) is None  # 3 of 9: enough
    assert namer._second(np.arange(12), mt, [(mt, 1.0), (low, 0.4)], set()) is None  # under half the score


def test_a_word_mostly_said_before_another_gives_way_to_the_phrase_it_starts():
    """A 45-abstract listing named a topic of seven abstracts "diffusion": five say "diffusion",
    in "diffusion sampler", "diffusion priors", "diffusion process" and twice "diffusion models".
    A word ending in -sion counted as a field's name, which gives way to a longer phrase only at
    1.5 times its documents, and never to "... models". One the corpus mostly puts before another
    word is no name of itself: "diffusion models". Where the corpus ends phrases with it ("drawn
    by diffusion"), it stays."""
    before = [
        "A diffusion sampler draws molecules in few steps.",
        "Diffusion priors regularise inverse problems in imaging.",
        "We analyse the diffusion process of score matching.",
        "Samplers for physics obey conservation laws.",
        "Diffusion models generate dynamical systems trajectories.",
        "Diffusion models learn turbulent flows from data.",
        "Flow matching is trained on optimal transport paths.",
    ]
    sorting = [f"Sorting networks of width {k} are verified by solvers." for k in range(24)]
    assigned = np.repeat([0, 1, 2], [7, 6, 24])

    def name(texts: list[str]) -> str:
        index = NameIndex.build(with_filler(texts + SPEECH + sorting, 30))
        return PhraseNames(index).name_topics(assigned).names[0]

    assert name(before) == "diffusion models"
    ending = [
        "Molecules are drawn by diffusion in few steps.",
        "Inverse problems in imaging are regularised by diffusion.",
        "We analyse score matching as diffusion.",
        *before[3:],
    ]
    assert name(ending) == "diffusion"


def test_a_small_topic_is_named_by_the_phrase_titles_use(monkeypatch):
    """On 45-abstract listings a topic of seven abstracts was "policy", "ImageNet", "team" or
    "action spaces": in so few abstracts a word four of them use outscores the field's name that
    three use. Titles name fields ("reinforcement learning" is in a third of the arXiv titles
    whose abstracts use it, "policy" in a sixth, "efficiency" in one of 38): a small topic's
    candidates weigh by how often titles use them (title_use.tsv.gz)."""
    rl = [
        "The policy improves with every episode in the simulator.",
        "We learn a policy from logged interactions of users.",
        "A policy that hedges against model errors is safer.",
        "Each policy update is clipped to keep training stable.",
        "Reinforcement learning agents must explore when rewards are sparse.",
        "Offline reinforcement learning reuses data that other agents gathered.",
        "Reinforcement learning from human feedback aligns chat assistants.",
    ]
    assert name_beside_speech(rl, 21) == "reinforcement learning"
    use = phrases.title_use()
    assert use[("reinforcement", "learning")] > phrases._TITLE_NEUTRAL > use[("policy",)]
    assert use[("policy",)] > use[("efficiency",)]
    index = NameIndex.build(beside_speech(rl, 21)[0])
    weight = index._title_weight()
    assert weight[index.group_of("reinforcement learning")] > 1 > weight[index.group_of("policy")]
    assert all(w == 1 for key, w in zip(index.keys, weight) if key not in use)
    monkeypatch.setattr(phrases, "title_use", dict)  # without the table, the counts alone
    assert name_beside_speech(rl, 21) == "policy"


def test_a_region_may_take_a_topics_name_that_its_other_topics_use():
    """NeurIPS 2023 as a text listing had the regions "policy" (reinforcement learning, bandits,
    combinatorial optimization) and "graphs & forecasting" (graph neural networks, molecules,
    brain...): the phrase the region's topics share was a topic's name, which no region could
    take. A topic's name that another topic of the region uses names the region, with a second
    phrase that covers a topic the first does not, so the region's name is still its own. A name
    only its own topic uses does not: the region does not take its largest topic's name."""
    gnn = [f"Graph transformers pass messages on family {k}." for k in range(6)]
    molecules = [
        f"Molecules of screening campaign {k} are embedded"
        + (" by graph transformers." if k < 3 else " by fingerprints.")
        for k in range(6)
    ]
    proteins = [f"Proteins of kind {k} are docked in drug discovery." for k in range(6)]
    leaves = {0: "graph transformers", 1: "molecules", 3: "proteins", 2: "speech recognition"}
    named = region_of_three(with_filler(gnn + molecules + proteins + SPEECH, 18), leaves)
    assert named.startswith("graph transformers & ") and named != leaves[0], named  # and a phrase of proteins
    # the molecules topic no longer says "graph transformers": only its own topic uses it
    texts = with_filler(gnn + [m.replace("graph transformers", "fingerprints") for m in molecules], 18)
    named = region_of_three(texts + with_filler(proteins + SPEECH, 19), leaves)
    assert "graph transformers" not in named and named, named


def region_of_three(texts: list[str], leaves: dict[int, str]) -> str:
    """The name of the region of topics 0, 1 and 3 (six texts each, in that order), the six SPEECH
    texts after them being topic 2, a region of its own."""
    assigned = np.repeat([0, 1, 3, 2], 6)
    namer = PhraseNames(NameIndex.build(texts))
    return namer.name_regions(assigned, {0: 10, 1: 10, 3: 10, 2: 2}, leaves).names[10]


def test_a_region_whose_topics_all_use_a_topics_name_takes_it_with_a_second_phrase():
    """arXiv cs.CL's region of reasoning, agents, vision-language models and knowledge graphs was
    "complex": every topic's abstracts say "reasoning", the name of one of them, and no second
    phrase covered a topic that "reasoning" does not, which that rule asked of it. Where every
    topic uses the name, the second phrase only tells the region apart from the topic; and
    "complex", an adjective, names nothing."""
    reasoning = [
        f"Chains of reasoning solve complex math problem {k} with new capabilities." for k in range(6)
    ]
    agents = [f"Agents plan by reasoning over complex tool {k} with new capabilities." for k in range(6)]
    graphs = [
        f"Knowledge graphs support reasoning about complex entity {k} and capabilities." for k in range(6)
    ]
    leaves = {0: "reasoning", 1: "agents", 3: "knowledge graphs", 2: "speech recognition"}
    named = region_of_three(with_filler(reasoning + agents + graphs + SPEECH, 24), leaves)
    assert named.startswith("reasoning & ") and named != "reasoning", named
    assert "complex" not in named and "new" not in named, named


def test_a_topics_name_takes_a_weaker_second_phrase_than_a_regions_own_phrase():
    """NeurIPS 2023 as a text listing: "graph neural networks (GNNs)", a topic's name that two of the
    region's topics use, lost to "graphs & forecasting" because "forecasting" scored 0.299 of it
    (0.3 needed). A topic's name scores mostly by its own topic, so its second phrase needs a fifth."""
    texts = [f"Graph neural networks (GNNs) forecast traffic of city {k}." for k in range(6)]
    namer = PhraseNames(NameIndex.build(with_filler(texts + SPEECH, 28)))
    gnn, forecasting = namer.index.group_of("graph neural networks"), namer.index.group_of("forecast")
    speech = namer.index.group_of("speech recognition")
    first, new = np.array([True, True, False]), np.array([False, False, True])
    ranked = [(1.0, gnn, first), (0.25, speech, new), (0.2, forecasting, new)]
    assert namer._region_second(ranked, 1.0, gnn, first, set(), shared=True) == speech
    assert namer._region_second(ranked, 1.0, gnn, first, set()) is None  # a region's own phrase: 0.3
    assert namer._region_second(ranked[:1] + ranked[2:], 1.0, gnn, first, set(), shared=True) == forecasting


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


def test_an_abbreviated_adjective_is_still_no_name():
    """A 45-abstract listing named a topic "Mixed: differentially private (DP)": a phrase the
    corpus abbreviates counted as a name whatever its last word. An adjective or an adverb ends no
    name even so ("differential privacy"); a hyphenated compound the corpus abbreviates does
    ("chain-of-thought (CoT)")."""
    verbs = ["bounds", "costs", "limits", "guards", "hides", "masks"]
    texts = [
        f"A differentially private (DP) mechanism {k} is trained; differential privacy {verb} its leakage."
        for k, verb in enumerate(verbs)
    ]
    texts += [f"Chain-of-thought (CoT) {verb} puzzle {k}." for k, verb in enumerate(verbs)]
    namer = PhraseNames(NameIndex.build(with_filler(texts + SPEECH, 27)))
    names = namer.name_topics(np.repeat([0, 1, 2], 6)).names
    assert names[0] == "differential privacy", names
    assert names[1].lower() == "chain-of-thought (cot)", names


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
    assert namer._pair_name(gnn, de) == "graph neural networks & differential equations"
    assert namer._pair_name(de, mesh) == "differential equations (DEs) & mesh"  # short enough: as named


def test_a_word_written_before_an_object_is_a_verb_and_no_name():
    """A 45-abstract listing named a two-abstract topic "exploring" ("exploring an image",
    "exploring different hardware"). A word the corpus writes before "the", "a", "its" ... is a
    verb, and so starts no name: the listing's own uses say so ("charting the"), and for a word it
    uses twice, arXiv's abstracts do ("exploring" 40%). A field word said before a noun keeps its
    name ("sampling"), and a noun spelt like a verb still starts one ("limit theorems")."""
    charting = [f"Charting the maze {k} and charting its walls." for k in range(6)]
    assert name_beside_speech(charting, 31) == "maze"  # was "charting the maze"
    exploring = [
        "Exploring hardware for tree search in maze 1.",
        "Tree search and exploring images in maze 2.",
        "Tree search in maze 3.",
        "Tree search in maze 4.",
    ]
    index = NameIndex.build(with_filler(exploring + SPEECH, 32))
    exploring_group, tree = index.group_of("exploring"), index.group_of("tree search")
    assert index.objects[exploring_group] == 0  # no object in this listing: arXiv's share decides
    assert index._prior()[exploring_group] == 0 and index._prior()[tree] > 0
    sampling = [f"Sampling methods for posterior {k}; sampling helps." for k in range(6)]
    sampling[0] += " We start by sampling the prior."  # a chance object is one use of thirteen
    index = NameIndex.build(with_filler(sampling + SPEECH, 33))
    assert index._prior()[index.group_of("sampling")] > 0
    # a noun spelt as a verb still starts a name: "limit" is no name here, "limit theorems" is
    limits = [f"Limit theorems for chain {k}; we limit the drift." for k in range(6)]
    index = NameIndex.build(with_filler(limits + SPEECH, 37))
    assert index._prior()[index.group_of("limit")] == 0
    assert index._prior()[index.group_of("limit theorems")] > 0


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


def test_in_a_small_topic_a_thing_gives_way_to_the_fields_name():
    """45-abstract listings named topics "images", "labels", "objects": a thing six of six
    abstracts mention outscores the field's name that three use, and a topic of six cannot tell
    the two apart by its counts. Below 20 abstracts, a one-word thing gives way to a field name
    scoring half as well that arXiv titles use more than the thing ("object detection" over
    "images"); a thing titles name fields by keeps its place ("videos"), as does a thing the field
    name trails too far (one abstract in six)."""

    def named(word: str, detecting: int) -> str:
        texts = [
            f"We study {word}, like {e}. And {word}, again."
            for e in ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"]
        ]
        texts = [t + (" Object detection helps." if k < detecting else "") for k, t in enumerate(texts)]
        return name_beside_speech(texts, 38)

    assert named("images", 3) == "object detection"  # was "images"
    assert named("videos", 3) == "videos"
    assert named("images", 1) == "images"
