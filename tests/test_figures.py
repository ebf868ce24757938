"""Figures for a paper (issue 59): results/report/figures/ holds the document map, the thematic map
and the topics over time as SVG and 300-dpi PNG, names as text, none overlapping another."""

from __future__ import annotations

import itertools
import xml.etree.ElementTree as ET

import numpy as np
import pandas as pd
import pytest

from papertopics.report.figures import document_map, draw_figures, figure_names

_SVG_TEXT = "{http://www.w3.org/2000/svg}text"
NAMES = [
    "graph neural networks", "diffusion models", "federated learning", "reinforcement learning",
    "large language models", "causal inference", "optimal transport", "speech recognition",
]  # fmt: skip


def _tables(n_topics=8, per_topic=40, seed=0, thematic=True, periods=("2021", "2022", "2023")):
    rng = np.random.default_rng(seed)
    topic = np.repeat(np.arange(-1, n_topics), per_topic)
    centres = rng.normal(0, 6, size=(n_topics + 1, 2))
    xy = centres[topic + 1] + rng.normal(0, 0.6, size=(len(topic), 2))
    doc_id = [f"d{k}" for k in range(len(topic))]
    names = [NAMES[t % len(NAMES)] + ("" if t < len(NAMES) else f" {t}") for t in range(n_topics)]
    topics = pd.DataFrame(
        {
            "topic": [str(t) for t in range(-1, n_topics)],
            "label": ["Outliers (no topic)", *names],
            "size": [str(per_topic)] * (n_topics + 1),
            "region_label": ["", *[("vision" if t % 2 else "learning") for t in range(n_topics)]],
        }
    )
    tables = {
        "map2d": pd.DataFrame({"doc_id": doc_id, "x": xy[:, 0], "y": xy[:, 1]}),
        "documents": pd.DataFrame({"doc_id": doc_id, "topic": topic.astype(str)}),
        "topics": topics,
        "thematic": pd.DataFrame(columns=["topic", "label", "size", "centrality", "density", "quadrant"]),
        "over_time": pd.DataFrame(columns=["topic", "period", "count", "total", "share", "terms"]),
        "trends": pd.DataFrame(columns=["topic", "status", "p_value"]),
    }
    if thematic:
        tables["thematic"] = pd.DataFrame(
            {
                "topic": range(n_topics),
                "label": names,
                "size": [per_topic] * n_topics,
                "centrality": rng.uniform(0.1, 0.4, n_topics),
                "density": rng.uniform(0.05, 0.3, n_topics),
                "quadrant": "Motor themes",
                "extra_column_of_a_later_version": 1,
            }
        )
    if periods:
        rows = [
            {"topic": t, "period": p, "count": 5, "total": 40, "share": rng.uniform(0, 0.3), "terms": "a"}
            for t in range(n_topics)
            for p in periods
        ]
        tables["over_time"] = pd.DataFrame(rows)
    return tables


def _svg_texts(path) -> str:
    return " ".join(e.text or "" for e in ET.parse(path).iter(_SVG_TEXT))


def test_every_figure_is_an_svg_with_the_topics_names_and_a_300_dpi_png(tmp_path):
    from PIL import Image

    tables = _tables()
    drawn = draw_figures(tmp_path, tables, "Test listing")
    assert sorted(drawn) == ["document_map", "over_time", "thematic_map"]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        f"{name}.{suffix}" for name in drawn for suffix in ("png", "svg")
    )
    names = set(NAMES)
    for name, labels in drawn.items():
        # every topic named, and only by its name (the map adds its regions' names)
        assert names <= set(labels) <= names | {"vision", "learning"}, name
        text = _svg_texts(tmp_path / f"{name}.svg")
        assert all(label in text for label in NAMES), name
        assert "Test listing" in text
        with Image.open(tmp_path / f"{name}.png") as image:
            image.load()
            assert round(image.info["dpi"][0]) == 300 and image.width >= 2000


def test_no_two_names_on_the_document_map_overlap():
    tables = _tables(n_topics=40, per_topic=25, seed=3)
    figure, labels = document_map(tables["map2d"], tables["documents"], tables["topics"], "Crowded")
    renderer = figure.canvas.get_renderer()
    ax = figure.axes[0]
    boxes = [t.get_window_extent(renderer) for t in ax.texts if t.get_visible()]
    assert len(boxes) == len(labels) >= 20
    assert not [pair for pair in itertools.combinations(boxes, 2) if pair[0].overlaps(pair[1])]


def test_a_listing_without_dates_or_thematic_map_gets_the_document_map_only(tmp_path):
    tables = _tables(thematic=False, periods=())
    assert figure_names(tables) == ["document_map"]
    assert sorted(draw_figures(tmp_path, tables, "x")) == ["document_map"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["document_map.png", "document_map.svg"]


def test_the_same_tables_give_the_same_svg(tmp_path):
    draw_figures(tmp_path / "a", _tables(), "x")
    draw_figures(tmp_path / "b", _tables(), "x")
    first, second = (tmp_path / k / "document_map.svg" for k in ("a", "b"))
    assert first.read_bytes() == second.read_bytes()


@pytest.mark.parametrize("missing", ["thematic", "over_time"])
def test_the_overview_links_the_figures_that_are_drawn(missing):
    from papertopics.report.figures import FIGURES

    tables = _tables()
    tables[missing] = tables[missing].iloc[0:0]
    shown = figure_names(tables)
    figure = {"thematic": "thematic_map", "over_time": "over_time"}[missing]
    assert "document_map" in shown and figure not in shown
    assert set(shown) <= set(FIGURES)


def _svg_ticks(path, axis: str) -> list[str]:
    """The tick labels of an SVG figure's `axis` ("x" or "y") on its first axes (not the
    colour bar's), in the order matplotlib drew them."""
    svg = "{http://www.w3.org/2000/svg}g"
    axes = next(g for g in ET.parse(path).iter(svg) if g.get("id") == "axes_1")
    return [
        "".join(e.itertext()).strip()
        for g in axes.iter(svg)
        if g.get("id", "").startswith(f"{axis}tick_")
        for e in g.iter(_SVG_TEXT)
    ]


def test_over_time_is_the_pages_heatmap_every_topic_a_row_named_and_marked_as_its_trend(tmp_path):
    """Issue 59b: the figure is the Over time page's heatmap, not 12 lines: every topic a row
    labelled with its name, the rising (▲) and falling (▼) first as topic_trends.csv says, then
    the others by size; the periods as over_time.csv writes them; the colour is the share."""
    tables = _tables(n_topics=15, periods=("1991-2001", "2002", "2003", "2004-2006"))
    sizes = [40, 90, 10, 70, 55, 20, 30, 80, 60, 35, 45, 15, 25, 50, 65]  # the others' order
    tables["topics"]["size"] = ["400", *map(str, sizes)]
    outliers = tables["over_time"].iloc[:4].assign(topic=-1)  # over_time.csv has the outliers' row
    tables["over_time"] = pd.concat([outliers, tables["over_time"]], ignore_index=True)
    tables["trends"] = pd.DataFrame(
        {
            "topic": ["3", "9", "12", "0", "5"],
            "status": ["falling", "rising", "rising", "steady", "falling"],
            "p_value": ["0.001", "0.02", "0.004", "0.6", "0.03"],
        }
    )
    draw_figures(tmp_path, tables, "Test listing")
    svg = tmp_path / "over_time.svg"
    name = dict(zip(tables["topics"]["topic"].astype(int), tables["topics"]["label"]))
    others = sorted((t for t in range(15) if t not in (12, 9, 3, 5)), key=lambda t: -sizes[t])
    expected = [f"▲ {name[12]}", f"▲ {name[9]}", f"▼ {name[3]}", f"▼ {name[5]}"]
    expected += [name[t] for t in others]
    assert _svg_ticks(svg, "y") == expected  # top to bottom, text in the SVG
    assert _svg_ticks(svg, "x") == ["1991-2001", "2002", "2003", "2004-2006"]
    with_marks = [label for label in expected if label[0] in "▲▼"]
    assert len(with_marks) == 4 and "Outliers (no topic)" not in _svg_texts(svg)

    from papertopics.report.figures import over_time_figure

    figure, labels = over_time_figure(tables["over_time"], tables["trends"], tables["topics"], "x")
    cells = figure.axes[0].images[0].get_array()
    shares = tables["over_time"].set_index(["topic", "period"])["share"]
    assert labels == expected and cells.shape == (15, 4)
    assert cells[0, 0] == pytest.approx(100 * shares[(12, "1991-2001")])  # ▲ first row, first period
    assert cells[14, 3] == pytest.approx(100 * shares[(others[-1], "2004-2006")])


def test_over_time_without_a_trends_table_has_every_topic_unmarked(tmp_path):
    tables = _tables()
    del tables["trends"]
    draw_figures(tmp_path, tables, "x")
    rows = _svg_ticks(tmp_path / "over_time.svg", "y")
    assert sorted(rows) == sorted(NAMES) and "▲" not in _svg_texts(tmp_path / "over_time.svg")


def test_a_title_in_a_script_no_font_here_draws_is_never_a_row_of_boxes(tmp_path):
    """The seeds' header "NeurIPS 2026 论文列表": with DejaVu Sans alone the PNG drew four boxes.
    Every character written in a figure is one a font of this machine draws (CJK where a CJK
    font is installed, as on most desktops); the others are left out."""
    from matplotlib import font_manager, ft2font

    from papertopics.report.figures import _fonts

    draw_figures(tmp_path, _tables(), "NeurIPS 2026 论文列表")
    glyphs = set()
    for name in _fonts():
        glyphs |= set(ft2font.FT2Font(font_manager.findfont(name)).get_charmap())
    for svg in tmp_path.glob("*.svg"):
        text = _svg_texts(svg)
        assert "NeurIPS 2026" in text, svg.name
        missing = {c for c in text if not c.isspace() and ord(c) not in glyphs}
        assert not missing, (svg.name, missing)
        has_cjk = all(ord(c) in glyphs for c in "论文列表")
        assert ("论文列表" in text) == has_cjk, svg.name
