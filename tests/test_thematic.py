"""The thematic map (analyses.thematic, report.thematic): centrality and density of each topic's
keyword network as Cobo et al. (2011) define them, checked on a network worked by hand; the
quadrants split as bibliometrix's axes split them; topics without keywords of their own and themes
of too few keywords said (bibliometrix's own figures: test_bibliometrix_reference.py)."""

from __future__ import annotations

import json
import re
from html import unescape

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from papertopics.analyses.thematic import (
    ASSOCIATION,
    AUTHOR_KEYWORDS,
    TOP_TERMS,
    sides,
    split_at,
    thematic_map,
)
from papertopics.report.thematic import label_box, place_labels, thematic_page, visualize_thematic_map

# 13 papers of 4 topics; keywords a, b, c (topic 0), d, e, f (topic 1), g, h (topic 2), x, y
# (topic 3, linked to nothing). "Topic Models"/"topic model" is one keyword (a), as the names fold it.
PAPERS = [
    (0, "Topic Models; b"),
    (0, "topic model; b; c"),
    (1, "b; d"),
    (1, "d; e"),
    (1, "d; e; f"),
    (1, "e; f"),
    (1, "f; g"),
    (2, "g; h"),
    (2, "c; g; h"),
    (2, "g; h"),
    (3, "x; y"),
    (3, "x; y"),
]
# By hand. Papers giving each keyword: a 2, b 3, c 2, d 3, e 3, f 3, g 4, h 3 (x 2, y 2).
# Pairs (papers giving both -> e = c_ij^2 / (c_i c_j)):
#   inside topic 0: a-b 2 -> 4/6, a-c 1 -> 1/4, b-c 1 -> 1/6      sum 13/12
#   inside topic 1: d-e 2 -> 4/9, d-f 1 -> 1/9, e-f 2 -> 4/9      sum 1
#   inside topic 2: g-h 3 -> 9/12                                 sum 3/4
#   inside topic 3: x-y 2 -> 4/4                                  sum 1
#   between topics: b-d 1 -> 1/9 (0-1), c-g 1 -> 1/8, c-h 1 -> 1/6 (0-2), f-g 1 -> 1/12 (1-2)
# centrality = 10 x external links; density = 100 x internal links / keywords
HAND = {
    0: (10 * (1 / 9 + 1 / 8 + 1 / 6), 100 * (13 / 12) / 3),  # 4.0278, 36.1111
    1: (10 * (1 / 9 + 1 / 12), 100 * 1 / 3),  # 1.9444, 33.3333
    2: (10 * (1 / 8 + 1 / 6 + 1 / 12), 100 * (3 / 4) / 2),  # 3.75, 37.5
    3: (0.0, 100 * 1 / 2),  # 0, 50
}


def _documents(keywords: bool = True) -> pd.DataFrame:
    table = pd.DataFrame({"topic": [str(t) for t, _ in PAPERS], "text": ["."] * len(PAPERS)})
    if keywords:
        table["keywords"] = [k for _, k in PAPERS]
    return table


def _topics() -> pd.DataFrame:
    sizes = pd.Series([t for t, _ in PAPERS]).value_counts()
    return pd.DataFrame(
        {
            "topic": ["0", "1", "2", "3"],
            "label": ["alpha", "delta", "gamma", "xray"],
            "size": [str(sizes[t]) for t in range(4)],
            "top_terms": ["a; b; c", "d; e; f", "g; h", "x; y"],
        }
    )


def test_centrality_and_density_are_cobo_et_al_s_on_a_network_worked_by_hand():
    table = thematic_map(_documents(), _topics()).set_index("topic")
    assert table.index.tolist() == [0, 1, 2, 3]
    for topic, (centrality, density) in HAND.items():
        assert table.loc[topic, "centrality"] == pytest.approx(centrality, abs=1e-4)
        assert table.loc[topic, "density"] == pytest.approx(density, abs=1e-4)
    # medians: centrality 2.85, density 36.81
    assert table["quadrant"].to_dict() == {
        0: "basic themes",
        1: "emerging or declining themes",
        2: "motor themes",
        3: "niche themes",
    }
    assert table.loc[0, "keywords"].split("; ") == ["b", "topic model", "c"]  # commonest in the topic first
    assert table["n_keywords"].tolist() == [3, 3, 2, 2]
    assert set(table["keywords_from"]) == {AUTHOR_KEYWORDS}


def _term_counts():
    """Each paper's keywords as the words of its abstract (one count each)."""
    from scipy import sparse

    terms = np.array(["a", "b", "c", "d", "e", "f", "g", "h", "x", "y"], dtype=object)
    at = {t: i for i, t in enumerate(terms)}
    counts = np.zeros((len(PAPERS), len(terms)))
    for row, (_, kws) in enumerate(PAPERS):
        for kw in kws.split(";"):
            counts[row, at[{"topic models": "a", "topic model": "a"}.get(kw.strip().lower(), kw.strip())]] = 1
    return sparse.csr_matrix(counts), terms


def test_without_authors_keywords_the_topics_terms_make_the_network():
    documents = _documents(keywords=False)
    table = thematic_map(documents, _topics(), *_term_counts()).set_index("topic")
    assert set(table["keywords_from"]) == {TOP_TERMS}
    for topic, (centrality, density) in HAND.items():
        assert table.loc[topic, "centrality"] == pytest.approx(centrality, abs=1e-4)
        assert table.loc[topic, "density"] == pytest.approx(density, abs=1e-4)


def test_fewer_than_four_themes_is_no_map():
    documents = _documents()
    documents = documents[documents["topic"] != "3"]
    assert thematic_map(documents, _topics()[lambda t: t["topic"] != "3"]).empty
    assert thematic_map(_documents(keywords=False), _topics()).empty  # no keywords, no terms


def _crowded(n: int = 14, seed: int = 3) -> pd.DataFrame:
    """14 themes, most of them in one corner (as a WoS phage export's map)."""
    rng = np.random.RandomState(seed)
    words = ["phage therapy", "biofilm", "CRISPR", "lysin", "prophage", "receptor", "host range"]
    return pd.DataFrame(
        {
            "topic": range(n),
            "label": [f"{words[i % 7]} and {words[(i + 3) % 7]}" for i in range(n)],
            "size": rng.randint(5, 60, n),
            "centrality": np.r_[rng.uniform(0.5, 1.5, n - 3), [4.0, 6.0, 9.0]],
            "density": np.r_[rng.uniform(10, 14, n - 3), [30.0, 12.0, 50.0]],
            "quadrant": "motor themes",
            "keywords": "phage; lysin; biofilm",
            "n_keywords": 3,
            "note": "",
        }
    )


def _boxes(figure) -> list[tuple]:
    """The labels' boxes in pixels, where the figure draws them (its axes' ranges, fixed size)."""
    layout = figure.layout
    (x0, x1), (y0, y1) = layout.xaxis.range, layout.yaxis.range
    w = layout.width - layout.margin.l - layout.margin.r
    h = layout.height - layout.margin.t - layout.margin.b
    out = []
    for note in figure.layout.annotations:
        if note.xref == "paper":
            continue
        cx = (note.x - x0) / (x1 - x0) * w + note.ax
        cy = (y1 - note.y) / (y1 - y0) * h + note.ay
        bw, bh = label_box(note.text)
        out.append((cx - bw / 2, cy - bh / 2, cx + bw / 2, cy + bh / 2))
    return out


def test_labels_of_a_crowded_map_do_not_overlap():
    boxes = _boxes(visualize_thematic_map(_crowded()))
    assert len(boxes) == 14
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert min(a[2], b[2]) <= max(a[0], b[0]) or min(a[3], b[3]) <= max(a[1], b[1]), (a, b)


def test_place_labels_keeps_labels_off_the_bubbles():
    px, py, r = np.array([100.0, 110.0, 300.0]), np.array([100.0, 105.0, 300.0]), np.array([20.0, 20.0, 30.0])
    boxes = [label_box("0 · one"), label_box("1 · two"), label_box("2 · three")]
    centres = place_labels(px, py, r, boxes, (600, 400))
    for (cx, cy), (w, h) in zip(centres, boxes):
        box = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
        for j in range(3):
            nx, ny = min(max(px[j], box[0]), box[2]), min(max(py[j], box[1]), box[3])
            assert (nx - px[j]) ** 2 + (ny - py[j]) ** 2 >= r[j] ** 2


def test_the_page_names_its_method_and_where_its_keywords_come_from():
    from report_sample import sample_inputs

    inputs = sample_inputs(60, n_topics=4)
    cases = ((_documents(), "the authors' keywords"), (_documents(False), "no authors' keywords"))
    for documents, source in cases:
        inputs.described["thematic"] = thematic_map(documents, _topics(), *_term_counts()).astype(str)
        html = unescape(thematic_page(inputs))
        assert "after Callon" in html and "Cobo et al. (2011), with the topics as the themes" in html
        assert "equivalence index" in html and "as bibliometrix's thematic map draws it" not in html
        assert "How it differs from bibliometrix's thematic map" in html and "Louvain" in html
        assert source in html
        data = json.loads(unescape(re.search(r'id="report-data">(.*?)</script>', html, re.S).group(1)))
        assert len(data["figure"]["data"][0]["x"]) == 4


def test_the_workbook_gives_centrality_density_quadrant_and_keywords(tmp_path):
    from papertopics.report.workbook import described_sheets

    path = tmp_path / "thematic_map.csv"
    thematic_map(_documents(), _topics()).to_csv(path, index=False)
    sheet = described_sheets({"thematic": path})["thematic map"].set_index("topic")
    assert sheet.loc[2, "centrality"] == pytest.approx(3.75)
    assert sheet.loc[2, "density"] == pytest.approx(37.5)
    assert sheet.loc[2, "quadrant"] == "motor themes" and sheet.loc[2, "keywords"] == "g; h"
    assert sheet["n_keywords"].dtype.kind in "iuf"


def test_keywords_too_sparse_for_a_map_give_way_to_the_topics_terms():
    documents = _documents()
    documents.loc[documents["topic"].isin(["2", "3"]), "keywords"] = ""  # two topics without keywords
    table = thematic_map(documents, _topics(), *_term_counts())
    assert set(table["keywords_from"]) == {TOP_TERMS} and len(table) == 4


def test_a_theme_at_the_middle_rank_is_on_the_line_and_density_0_is_never_motor():
    """bibliometrix's axes cross at the mean rank (R rank(), ties averaged): a theme whose rank is
    the mean rank is on the line; tied zeros rank below it."""
    assert sides(np.array([1.0, 2.0, 3.0])) == [False, None, True]  # the middle of three: on it
    assert sides(np.array([0.0, 0.0, 0.0, 5.0])) == [False, False, False, True]  # median 0, yet below
    assert sides(np.array([0.0, 0.0, 3.0, 5.0])) == [False, False, True, True]
    assert sides(np.array([2.0, 2.0, 2.0, 2.0])) == [None] * 4
    assert split_at([0.0, 0.0, 0.0, 5.0]) == 2.5 and split_at([1.0, 2.0, 3.0]) == 2.0
    assert split_at([1.0, 2.0, 4.0, 9.0]) == 3.0  # the median, for distinct values
    # the hand network and a fifth theme of one keyword z (density 0, centrality 0): densities 0,
    # 33.3, 36.1, 37.5, 50 put topic 0 (36.1) on the line; centralities 0, 0, 1.94, 3.75, 4.03
    # (ranks 1.5, 1.5, 3, 4, 5; mean 3) put topic 1 (1.94) on the other
    documents = pd.concat(
        [_documents(), pd.DataFrame({"topic": ["4", "4"], "text": ".", "keywords": ["z", "z"]})],
        ignore_index=True,
    )
    topics = pd.concat(
        [_topics(), pd.DataFrame({"topic": ["4"], "label": ["zulu"], "size": ["2"], "top_terms": ["z"]})]
    )
    table = thematic_map(documents, topics).set_index("topic")
    assert table.loc[4, "density"] == 0 and table.loc[4, "n_keywords"] == 1
    assert table["quadrant"].to_dict() == {
        0: "between motor and basic themes",
        1: "between emerging or declining and basic themes",
        2: "motor themes",
        3: "niche themes",
        4: "emerging or declining themes",  # density 0: never motor
    }


def test_topics_without_keywords_of_their_own_are_named_with_the_reason(tmp_path):
    """A topic whose papers give no keyword, or only keywords other topics' papers give more
    often, is a row without figures whose note says why, and the page names it."""
    documents = pd.concat(
        [
            _documents(),
            pd.DataFrame({"topic": ["4", "4", "5"], "text": ".", "keywords": ["", "", "g; d"]}),
        ],
        ignore_index=True,
    )
    topics = pd.concat(
        [
            _topics(),
            pd.DataFrame(
                {"topic": ["4", "5"], "label": ["quiet", "borrower"], "size": ["2", "1"], "top_terms": "q"}
            ),
        ]
    )
    table = thematic_map(documents, topics).set_index("topic")
    assert table.loc[[0, 1, 2, 3], "centrality"].notna().all()
    assert table.loc[[4, 5], ["centrality", "density"]].isna().all().all()
    assert table.loc[4, "note"] == "no keyword of its own: none of its papers gives keywords"
    assert table.loc[5, "note"].startswith("no keyword of its own: the papers of other topics (")
    assert "1 delta" in table.loc[5, "note"] and "2 gamma" in table.loc[5, "note"]
    path = tmp_path / "thematic_map.csv"
    table.reset_index().to_csv(path, index=False)
    written = pd.read_csv(path).set_index("topic")
    assert written.loc[4, "note"].startswith("no keyword of its own")

    from report_sample import sample_inputs

    inputs = sample_inputs(60, n_topics=6)
    inputs.described["thematic"] = table.reset_index().astype(str).replace("nan", "")
    html = unescape(thematic_page(inputs))
    assert "2 topics have no keyword of their own and are not on the map" in html
    assert "4 · quiet" in html and "none of its papers gives keywords" in html
    data = json.loads(unescape(re.search(r'id="report-data">(.*?)</script>', html, re.S).group(1)))
    assert len(data["figure"]["data"][0]["x"]) == 4  # the four themes only


def test_each_themes_keyword_count_is_on_hover_and_in_the_table_and_few_keywords_are_hollow():
    from report_sample import sample_inputs

    table = thematic_map(_documents(), _topics())
    assert table.set_index("topic")["n_keywords"].to_dict() == {0: 3, 1: 3, 2: 2, 3: 2}
    notes = table.set_index("topic")["note"]
    assert notes[2] == notes[3] == "2 keywords: too few for its density to mean much (drawn hollow)"
    assert notes[0] == notes[1] == ""
    inputs = sample_inputs(60, n_topics=4)
    inputs.described["thematic"] = table.astype(str)
    html = unescape(thematic_page(inputs))
    data = json.loads(unescape(re.search(r'id="report-data">(.*?)</script>', html, re.S).group(1)))
    trace = data["figure"]["data"][0]
    assert "keywords" in trace["hovertemplate"] and [row[2] for row in trace["customdata"]] == [3, 3, 2, 2]
    rims = trace["marker"]["line"]["color"]
    fills = trace["marker"]["color"]
    assert (
        fills[2] == fills[3] == "rgba(255,255,255,0.6)" and rims[2] != "#ffffff"
    )  # hollow, its colour on the rim
    assert fills[0] != "rgba(255,255,255,0.6)" and rims[0] == "#ffffff"
    table_html = html[html.index('class="data thematic-table"') :]
    assert (
        table_html.count('class="hollow"') == 2
        and "<td>2</td>" in table_html
        and "drawn hollow" in table_html
    )


def test_association_gives_bibliometrix_figures_on_the_hand_network():
    """thematic.normalise: association. By hand on the same network, keywords in bibliometrix's
    order (commonest first, ties alphabetical): g 4; b, d, e, f, h 3; a (topic model), c, x, y 2.
    e_ij = c_ij / (c_i c_j), e_ii = 1 / c_i; a link between themes counts for the commoner keyword's."""
    table = thematic_map(_documents(), _topics(), normalise=ASSOCIATION).set_index("topic")
    # topic 2 (g, h): inside 1/4 + 1/3 + g-h 3/12; out g-f 1/12, g-c 1/8 (g first), h-c 1/6 (h before c)
    assert table.loc[2, "density"] == pytest.approx(100 * (1 / 4 + 1 / 3 + 3 / 12) / 2)
    assert table.loc[2, "centrality"] == pytest.approx(1 / 12 + 1 / 8 + 1 / 6)
    # topic 0 (b, topic model, c): b-d 1/9 counts for b (b before d); c's links count for g's and h's
    assert table.loc[0, "centrality"] == pytest.approx(1 / 9)
    assert table.loc[0, "density"] == pytest.approx(100 * (1 / 3 + 1 / 2 + 1 / 2 + 2 / 6 + 1 / 6 + 1 / 4) / 3)
    # topic 1 (d, e, f): f-g 1/12 counts for g (topic 2), b-d for topic 0
    assert table.loc[1, "centrality"] == 0
    assert set(table["links"]) == {ASSOCIATION}
    inputs_html = unescape(_page(table.reset_index()))
    assert "association strength" in inputs_html and "Its themes are clusters" in inputs_html
    assert "equivalence index c_ij² / (c_i c_j); here" not in inputs_html


def _page(table: pd.DataFrame) -> str:
    from report_sample import sample_inputs

    inputs = sample_inputs(60, n_topics=4)
    inputs.described["thematic"] = table.astype(str)
    return thematic_page(inputs)


def test_thematic_normalise_is_a_checked_setting():
    from papertopics.config import check_config
    from papertopics.errors import ConfigError

    check_config({"listings": ["seeds/*.txt"], "thematic": {"normalise": "association"}})
    with pytest.raises(ConfigError, match="thematic.normalise: expected one of 'equivalence', 'association'"):
        check_config({"listings": ["seeds/*.txt"], "thematic": {"normalise": "cosine"}})
    with pytest.raises(ValueError, match="thematic.normalise is 'cosine'"):
        thematic_map(_documents(), _topics(), normalise="cosine")


def _naive(incidence: np.ndarray, theme_of: list, normalise: str) -> tuple[dict, dict]:
    """Centrality and density pair by pair, as the definitions read (verify_thematic_formulas.py
    for association: each pair i <= j in matrix order, credited to row i's theme)."""
    k = incidence.shape[1]
    c = [int(incidence[:, i].sum()) for i in range(k)]
    both = [[int((incidence[:, i] * incidence[:, j]).sum()) for j in range(k)] for i in range(k)]
    centrality = {t: 0.0 for t in theme_of}
    inside = {t: 0.0 for t in theme_of}
    for i in range(k):
        for j in range(i, k):
            if not both[i][j] or (i == j and normalise != ASSOCIATION):
                continue
            e = both[i][j] / (c[i] * c[j]) if normalise == ASSOCIATION else both[i][j] ** 2 / (c[i] * c[j])
            if theme_of[i] == theme_of[j]:
                inside[theme_of[i]] += e
            elif normalise == ASSOCIATION:
                centrality[theme_of[i]] += e
            else:
                centrality[theme_of[i]] += 10 * e
                centrality[theme_of[j]] += 10 * e
    size = {t: theme_of.count(t) for t in theme_of}
    return centrality, {t: 100 * inside[t] / size[t] for t in inside}


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_centrality_and_density_equal_the_definitions_pair_by_pair(data):
    from papertopics.analyses.thematic import centrality_density, cooccurrence

    papers = data.draw(st.integers(3, 12))
    k = data.draw(st.integers(2, 9))
    cells = data.draw(st.lists(st.booleans(), min_size=papers * k, max_size=papers * k))
    incidence = np.array(cells, dtype=float).reshape(papers, k)
    incidence[0, :] = 1  # every keyword given by one paper at least
    order = np.argsort(-incidence.sum(axis=0), kind="stable")  # commonest first, as bibliometrix
    incidence = incidence[:, order]
    theme_of = data.draw(st.lists(st.integers(0, 3), min_size=k, max_size=k))
    for normalise in ("equivalence", ASSOCIATION):
        centrality, density = centrality_density(cooccurrence(incidence), np.array(theme_of), normalise)
        want_c, want_d = _naive(incidence, theme_of, normalise)
        for theme in set(theme_of):
            assert centrality[theme] == pytest.approx(want_c[theme], abs=1e-9)
            assert density[theme] == pytest.approx(want_d[theme], abs=1e-9)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 5), min_size=1, max_size=12))
def test_sides_are_rs_ranks_against_their_mean(values):
    """R's rank() with ties averaged, counted by hand: #smaller + (#equal + 1) / 2."""
    ranks = [sum(w < v for w in values) + (sum(w == v for w in values) + 1) / 2 for v in values]
    middle = sum(ranks) / len(ranks)
    assert sides(np.array(values, dtype=float)) == [None if r == middle else r > middle for r in ranks]
