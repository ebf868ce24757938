"""Figures for a paper (results/report/figures/): the document map, the thematic map and the
topics over time, each as SVG (text as text, points rasterised) and as PNG at 300 dpi, drawn
with matplotlib from the tables the pages read (map2d.parquet, topics.csv, document_topics.csv,
thematic_map.csv, over_time.csv, topic_trends.csv), in the pages' topic colours.

Names are placed greedily, regions and the largest topics first (place_names: the first of a
few places near the point where the name's box overlaps no name placed before it; a name with
none is left out, so no two names ever overlap). Fonts: DejaVu Sans, which
matplotlib ships, so nothing is fetched. datamapplot's create_plot would draw the same map but
cannot be installed beside pandas 3 (docs/report.md, "Figures for a paper").
"""

from __future__ import annotations

import logging
import textwrap
from functools import cache
from pathlib import Path

import numpy as np
import pandas as pd

from papertopics.analyses.thematic import MIN_KEYWORDS, split_at
from papertopics.analyses.trends import TREND_Q
from papertopics.constants import OUTLIER_COLOR
from papertopics.report.colors import topic_color
from papertopics.report.over_time_rows import TREND_MARKS, over_time_rows
from papertopics.report.text import truncate

__all__ = [
    "FIGURES",
    "FIGURE_DPI",
    "draw_figures",
    "figure_names",
    "document_map",
    "over_time_figure",
    "thematic_figure",
]

_LOG = logging.getLogger(__name__)
FIGURE_DPI = 300
# a figure's size in inches: a two-column journal page is about 7 in wide
SIZE = (7.2, 6.0)
# topic names written on the document map (the largest topics)
MAP_TOPIC_NAMES = 60
_WRAP = 24  # characters per line of a topic name on the maps
# fonts matplotlib tries glyph by glyph after DejaVu Sans (which ships with matplotlib), where the
# machine has them: CJK on Linux desktops, macOS and Windows. None is fetched; a character none of
# them draws is left out of the figure (drawable), never drawn as a box.
_FALLBACKS = (
    "Noto Sans CJK SC", "Noto Sans CJK JP", "Source Han Sans SC", "WenQuanYi Zen Hei",
    "Droid Sans Fallback", "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Arial Unicode MS",
)  # fmt: skip
_STYLE = {
    "font.family": "DejaVu Sans",  # with the _FALLBACKS this machine has (_fonts)
    "svg.fonttype": "none",  # names stay text in the SVG: searchable, editable
    "svg.hashsalt": "papertopics",  # the same figure gives the same file
    "axes.spines.top": False,
    "axes.spines.right": False,
}


@cache
def _fonts() -> tuple[str, ...]:
    from matplotlib import font_manager

    installed = {font.name for font in font_manager.fontManager.ttflist}
    return ("DejaVu Sans", *(name for name in _FALLBACKS if name in installed))


@cache
def _glyphs() -> tuple[frozenset, ...]:
    """The code points each of _fonts() draws."""
    from matplotlib import font_manager, ft2font

    paths = [font_manager.findfont(font_manager.FontProperties(family=name)) for name in _fonts()]
    return tuple(frozenset(ft2font.FT2Font(path).get_charmap()) for path in paths)


def drawable(text) -> str:
    """`text` without the characters no font of this machine draws (the seeds' "论文列表" where
    no CJK font is installed), white space folded."""
    glyphs = _glyphs()
    kept = "".join(c for c in str(text) if c.isspace() or any(ord(c) in g for g in glyphs))
    return " ".join(kept.split())


def _figure(size=SIZE, layout=None):
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=size, layout=layout)
    FigureCanvasAgg(figure)  # place_names measures the names with its renderer
    return figure


def _freeze(ax) -> None:
    """Fix the axes' limits where autoscaling puts them, so names placed in display units stay."""
    ax.autoscale_view()
    ax.set_xlim(ax.get_xlim())
    ax.set_ylim(ax.get_ylim())


def _halo() -> dict:
    """A pale box behind a name, legible over the points; not a path effect, which would turn
    the SVG's text into outlines."""
    return {"boxstyle": "round,pad=0.15", "facecolor": "white", "alpha": 0.7, "edgecolor": "none"}


def _name(ax, at, text, **style):
    """A region's or topic's name centred on `at` (x, y), wrapped, on a halo."""
    x, y = at
    return ax.text(
        x, y, textwrap.fill(drawable(text), _WRAP), ha="center", va="center", bbox=_halo(), **style
    )


def _numbers(table: pd.DataFrame, *columns: str) -> pd.DataFrame:
    table = table.copy()
    for column in columns:
        table[column] = pd.to_numeric(table[column], errors="coerce")
    return table


def _offsets(width: float, height: float) -> list[tuple[float, float]]:
    """Where a name may go, in display units from its point, nearest first: on it, above,
    below, beside, then the diagonals, at one, two and three of its own sizes."""
    out = [(0.0, 0.0)]
    for k in (1, 2, 3):
        dx, dy = k * (width / 2 + 2), k * (height + 1)
        out += [(0, dy), (0, -dy), (dx, 0), (-dx, 0), (dx, dy), (-dx, dy), (dx, -dy), (-dx, -dy)]
    return out


def place_names(ax, texts: list, fixed: tuple = ()) -> list:
    """Place each name (`texts` in order of importance) at the first of `_offsets` where its
    box lies inside the axes and overlaps neither a name placed before it nor a `fixed` text;
    a name with no such place is left out, and a name moved off its point gets a thin line to it.
    Returns the names kept, so no two ever overlap.
    (adjustText, tried first, took 26 s for 60 names and still left overlaps.)"""
    figure = ax.figure
    renderer = figure.canvas.get_renderer()
    frame = ax.get_window_extent(renderer)
    boxes = [t.get_window_extent(renderer) for t in fixed]
    to_data = ax.transData.inverted()
    kept = []
    for text in texts:
        box = text.get_window_extent(renderer).expanded(1.04, 1.1)
        anchor = ax.transData.transform(text.get_position())
        for dx, dy in _offsets(box.width, box.height):
            moved = box.translated(dx, dy)
            inside = frame.contains(moved.x0, moved.y0) and frame.contains(moved.x1, moved.y1)
            if inside and not any(moved.overlaps(other) for other in boxes):
                point = text.get_position()
                text.set_position(to_data.transform(anchor + (dx, dy)))
                if dx or dy:  # a thin line from the name back to its point
                    ax.plot(*zip(point, text.get_position()), color="#999999", linewidth=0.4, zorder=1.5)
                boxes.append(moved)
                kept.append(text)
                break
        else:
            text.set_visible(False)
    return kept


def document_map(map2d: pd.DataFrame, documents: pd.DataFrame, topics: pd.DataFrame, title: str):
    """Every document at its map position in its topic's colour (outliers grey, beneath), the
    regions' names in bold and the largest topics' names; -> (figure, names drawn)."""
    topic_of = dict(zip(documents["doc_id"], pd.to_numeric(documents["topic"]).astype(int)))
    points = map2d.assign(topic=map2d["doc_id"].map(topic_of).fillna(-1).astype(int))
    topics = _numbers(topics, "topic", "size")
    figure = _figure()
    ax = figure.add_axes((0.01, 0.01, 0.98, 0.92))
    ax.set_axis_off()
    size = float(np.clip(15_000 / max(len(points), 1), 0.4, 12))  # points², smaller as they crowd
    outliers = points["topic"] < 0
    ax.scatter(
        *points.loc[outliers, ["x", "y"]].to_numpy().T,
        s=size,
        c=OUTLIER_COLOR,
        alpha=0.4,
        linewidths=0,
        rasterized=True,
    )
    inside = points[~outliers]
    ax.scatter(
        inside["x"],
        inside["y"],
        s=size,
        c=[topic_color(t) for t in inside["topic"]],
        alpha=0.7,
        linewidths=0,
        rasterized=True,
    )
    _freeze(ax)
    centres = inside.groupby("topic")[["x", "y"]].median()
    texts = []
    if "region_label" in topics.columns:
        regions = topics[(topics["topic"] >= 0) & topics["region_label"].astype(str).str.strip().ne("")]
        # a region of one topic is named as that topic: only regions of several are written
        regions = regions[regions.groupby("region_label")["topic"].transform("size") > 1]
        if regions["region_label"].nunique() > 0:
            region_of = dict(zip(regions["topic"].astype(int), regions["region_label"]))
            weight = inside.assign(region=inside["topic"].map(region_of)).dropna(subset=["region"])
            by_size = weight["region"].value_counts().index
            middle = weight.groupby("region")[["x", "y"]].median()
            for name in by_size:
                texts.append(
                    _name(ax, middle.loc[name], name, fontsize=9.5, fontweight="bold", color="#444444")
                )
    named = topics[topics["topic"].isin(centres.index)].sort_values("size", ascending=False, kind="stable")
    for topic, label in zip(named["topic"].astype(int)[:MAP_TOPIC_NAMES], named["label"][:MAP_TOPIC_NAMES]):
        texts.append(_name(ax, centres.loc[topic], label, fontsize=6.5, color="#222222"))
    ax.set_title(title, fontsize=11, loc="left")
    kept = place_names(ax, texts)
    return figure, [t.get_text().replace("\n", " ") for t in kept]


def thematic_figure(thematic: pd.DataFrame, title: str):
    """The strategic diagram as the Thematic map page draws it: centrality across, density up,
    bubbles by size (hollow: fewer than MIN_KEYWORDS keywords), quadrants split at the middle
    rank (analyses.thematic.split_at); -> (figure, names drawn)."""
    table = _numbers(thematic, "topic", "size", "centrality", "density").dropna(
        subset=["centrality", "density"]
    )
    figure = _figure()
    ax = figure.add_axes((0.1, 0.08, 0.87, 0.85))
    sizes = 20 + 600 * np.sqrt(table["size"] / max(table["size"].max(), 1))
    colours = [topic_color(int(t)) for t in table["topic"]]
    keywords = pd.to_numeric(
        table.get("n_keywords", pd.Series(MIN_KEYWORDS, index=table.index)), errors="coerce"
    )
    hollow = (keywords.fillna(MIN_KEYWORDS) < MIN_KEYWORDS).to_numpy()  # too few keywords: drawn apart
    ax.scatter(
        table["centrality"],
        table["density"],
        s=sizes,
        c=["white" if h else c for h, c in zip(hollow, colours)],
        alpha=0.75,
        edgecolors=[c if h else "white" for h, c in zip(hollow, colours)],
        linewidths=[1.8 if h else 0.8 for h in hollow],
    )
    # the lines where bibliometrix splits the quadrants (the middle rank)
    ax.axvline(split_at(table["centrality"]), color="#999999", linestyle=":", linewidth=1)
    ax.axhline(split_at(table["density"]), color="#999999", linestyle=":", linewidth=1)
    corners = [
        (0.99, 0.99, "right", "top", "Motor themes"),
        (0.01, 0.99, "left", "top", "Niche themes"),
        (0.01, 0.01, "left", "bottom", "Emerging or declining themes"),
        (0.99, 0.01, "right", "bottom", "Basic themes"),
    ]
    quadrants = [
        ax.text(
            x, y, text, transform=ax.transAxes, ha=ha, va=va, fontsize=9, fontweight="bold", color="#666666"
        )
        for x, y, ha, va, text in corners
    ]
    ax.margins(0.18)  # room for the quadrants' names in the corners
    _freeze(ax)
    ax.set_xlabel("centrality: links to the other topics", fontsize=9)
    ax.set_ylabel("density: links among the topic's own keywords", fontsize=9)
    ax.tick_params(labelsize=8)
    ax.set_title(title, fontsize=11, loc="left")
    order = table.sort_values("size", ascending=False, kind="stable")
    texts = [
        ax.text(
            x,
            y,
            textwrap.fill(drawable(label), _WRAP),
            fontsize=6.5,
            ha="center",
            va="center",
            bbox=_halo(),
        )
        for x, y, label in zip(order["centrality"], order["density"], order["label"])
    ]
    kept = place_names(ax, texts, fixed=quadrants)
    return figure, [t.get_text().replace("\n", " ") for t in kept]


def over_time_figure(shares: pd.DataFrame, trends: pd.DataFrame, topics: pd.DataFrame, title: str):
    """Topics x periods, the heatmap the Over time page draws (report.described.over_time_rows):
    every topic a row named by its name, the rising (▲) and falling (▼, topic_trends.csv's
    status) first, then the others by size; the periods as columns, as over_time.csv writes
    them (joined ones such as "1991-2001" included); each cell the topic's share of the period's
    papers. -> (figure, the rows' labels, top to bottom)."""
    shares = _numbers(shares, "topic", "share").assign(period=lambda t: t["period"].astype(str))
    drawn, status, periods = over_time_rows(shares, trends, topics)
    labels = dict(zip(_numbers(topics, "topic")["topic"].astype(int), topics["label"].astype(str)))
    names = [
        TREND_MARKS.get(status.get(t, ""), "") + drawable(truncate(labels.get(t, str(t)), 60)) for t in drawn
    ]
    grid = shares.pivot_table(index="topic", columns="period", values="share", aggfunc="sum")
    percent = 100 * grid.reindex(index=drawn, columns=periods).fillna(0).to_numpy()
    figure = _figure((7.2, max(2.8, 1.4 + 0.15 * len(drawn))), layout="constrained")  # 0.15 in a row
    ax = figure.add_subplot()
    image = ax.imshow(percent, aspect="auto", cmap="Blues", vmin=0, interpolation="nearest")
    ax.set_yticks(np.arange(len(drawn)), names, fontsize=6.5)
    every = max(-(-len(periods) // 30), 1)  # 30 period labels at most, the last always
    ticks = sorted({*range(0, len(periods), every), len(periods) - 1})
    level = len(periods) * max(len(p) for p in periods) <= 60  # labels that fit stay level
    turn = {} if level else {"rotation": 45, "ha": "right", "rotation_mode": "anchor"}
    ax.set_xticks(ticks, [periods[k] for k in ticks], fontsize=7, **turn)
    ax.tick_params(length=0)
    ax.spines[["left", "bottom"]].set_visible(False)
    marks = f"  (▲ rising, ▼ falling: its trend's q < {TREND_Q})" if set(status.values()) - {"steady"} else ""
    ax.set_xlabel(f"period{marks}", fontsize=8)
    colorbar = figure.colorbar(image, ax=ax, shrink=0.8, aspect=30, pad=0.01)
    colorbar.set_label("% of the period's papers", fontsize=8)
    colorbar.ax.tick_params(labelsize=7)
    ax.set_title(title, fontsize=11, loc="left")
    return figure, names


def save_figure(figure, folder: Path, name: str) -> list[Path]:
    """name.svg and name.png (300 dpi), without dates in their metadata (same figure, same bytes)."""
    written = []
    for suffix, metadata in (("svg", {"Date": None}), ("png", {"Software": None})):
        path = folder / f"{name}.{suffix}"
        figure.savefig(path, format=suffix, dpi=FIGURE_DPI, metadata=metadata)
        written.append(path)
    return written


# figure file names and how the overview names them
FIGURES = {"document_map": "document map", "thematic_map": "thematic map", "over_time": "topics over time"}


def figure_names(tables: dict[str, pd.DataFrame | None]) -> list[str]:
    """The figures drawn for these tables: the document map always, the thematic map where
    thematic_map.csv has rows, over time where over_time.csv spans two periods at least."""
    names = ["document_map"]
    thematic, shares = tables.get("thematic"), tables.get("over_time")
    if thematic is not None and len(thematic):
        names.append("thematic_map")
    if shares is not None and len(shares) and shares["period"].nunique() >= 2:
        names.append("over_time")
    return names


def draw_figures(folder, tables: dict[str, pd.DataFrame], title: str) -> dict[str, list[str]]:
    """Write the figures the tables allow into `folder`: the document map always, the thematic
    map and over time where their tables hold rows (two periods at least). Returns {figure:
    names drawn}. tables: map2d, documents, topics, thematic, over_time, trends."""
    import matplotlib

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    drawn: dict[str, list[str]] = {}
    title = drawable(title).rstrip(" :;,-") or "papertopics"
    with matplotlib.rc_context({**_STYLE, "font.family": list(_fonts())}):
        figure, drawn["document_map"] = document_map(
            tables["map2d"], tables["documents"], tables["topics"], f"{title}: document map"
        )
        save_figure(figure, folder, "document_map")
        shown = figure_names(tables)
        if "thematic_map" in shown:
            figure, drawn["thematic_map"] = thematic_figure(tables["thematic"], f"{title}: thematic map")
            save_figure(figure, folder, "thematic_map")
        if "over_time" in shown:
            figure, drawn["over_time"] = over_time_figure(
                tables["over_time"],
                tables.get("trends", pd.DataFrame()),
                tables["topics"],
                f"{title}: topics over time",
            )
            save_figure(figure, folder, "over_time")
    return drawn
