"""The "Thematic map" page: a strategic diagram after Callon and Cobo et al. (2011) with the topics
as themes (thematic_map.csv, analyses.thematic), the bubbles by papers (hollow: a theme of fewer
than 3 keywords), every label placed where it overlaps no other label and no bubble
(place_labels), the quadrants split as bibliometrix splits them (analyses.thematic.split_at); a
table of the themes with their keyword counts and notes, the topics without keywords of their
own named with the reason, and what differs from bibliometrix's thematicMap.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from papertopics.analyses.thematic import ASSOCIATION, AUTHOR_KEYWORDS, MIN_KEYWORDS, split_at
from papertopics.report.colors import topic_color
from papertopics.report.html import page_data, page_footer, render_page
from papertopics.report.inputs import ReportInputs
from papertopics.report.text import plotly_text, short_label

# the figure's size and plot area in pixels: fixed, so that the labels' places hold on the page
WIDTH, HEIGHT = 1100, 680
MARGIN = {"l": 60, "r": 20, "t": 20, "b": 60}
LABEL_FONT = 11  # px; a character is about 0.6 of it wide, a line 1.35 of it high
LABEL_CHARS = 30
CORNER_FONT = 13  # px, the quadrants' names
HOLLOW = "rgba(255,255,255,0.6)"  # the fill of a theme of too few keywords


def _table(inputs: ReportInputs) -> pd.DataFrame:
    table = inputs.described.get("thematic")
    return table if table is not None else pd.DataFrame()


def _placed(table: pd.DataFrame) -> pd.DataFrame:
    """The themes with figures (a topic without keywords of its own has none), numbers typed."""
    table = table.copy()
    for column in ("topic", "size", "centrality", "density", "n_keywords"):
        if column in table.columns:
            table[column] = pd.to_numeric(table[column], errors="coerce")
    return table.dropna(subset=["centrality", "density"]).reset_index(drop=True)


def has_thematic_map(inputs: ReportInputs) -> bool:
    return len(_table(inputs)) > 0


def label_box(text: str) -> tuple[float, float]:
    """A label's estimated width and height in pixels."""
    return 0.6 * LABEL_FONT * len(text) + 4, 1.35 * LABEL_FONT + 2


def _overlap(a: tuple, b: tuple) -> float:
    """The overlapping area of two boxes (x0, y0, x1, y1)."""
    return max(0.0, min(a[2], b[2]) - max(a[0], b[0])) * max(0.0, min(a[3], b[3]) - max(a[1], b[1]))


def _hits_circle(box: tuple, cx: float, cy: float, r: float) -> bool:
    nx, ny = min(max(cx, box[0]), box[2]), min(max(cy, box[1]), box[3])
    return (nx - cx) ** 2 + (ny - cy) ** 2 < r * r


def place_labels(px, py, radius, boxes: list, area: tuple, blocked: tuple = ()) -> list[tuple]:
    """Each label's centre (x, y) in pixels (y down), the biggest bubble's first: the first of
    the places around its bubble, nearest first, whose box overlaps no label placed before, no
    `blocked` box (x0, y0, x1, y1), no bubble and stays in `area` (width, height); where none
    does, the one overlapping no label and the fewest bubbles (a label over another label costs
    more than one over any bubble)."""
    placed: list[tuple] = [()] * len(px)
    taken: list[tuple] = list(blocked)
    # above, below, right, left, then the diagonals and between
    angles = np.deg2rad([90, 270, 0, 180, 45, 135, 315, 225, *np.arange(22.5, 360, 45)])
    for i in np.argsort(-radius, kind="stable"):
        w, h = boxes[i]
        best, best_cost = None, np.inf
        for step in range(24):
            for a in angles:
                gap = radius[i] + 3 + 9 * step
                # the box's edge, not its centre, at `gap` from the bubble's centre
                cx = px[i] + np.cos(a) * (gap + w / 2 * abs(np.cos(a)))
                cy = py[i] - np.sin(a) * (gap + h / 2 * abs(np.sin(a)))
                box = (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)
                outside = box[0] < 0 or box[1] < 0 or box[2] > area[0] or box[3] > area[1]
                cost = 1e3 * sum(_overlap(box, other) for other in taken) + 1e9 * outside
                cost += sum(_hits_circle(box, px[j], py[j], radius[j]) for j in range(len(px)))
                if cost < best_cost:
                    best, best_cost = (cx, cy, box), cost
                if cost == 0:
                    break
            if best_cost == 0:
                break
        placed[i] = best[:2]
        taken.append(best[2])
    return placed


def _axis(values: np.ndarray, pad: float = 0.08) -> list[float]:
    low, high = float(values.min()), float(values.max())
    span = high - low or max(abs(high), 1.0)
    return [low - pad * span, high + pad * span]


def _bubbles(table: pd.DataFrame, x, y, diameter, labels: list[str]) -> go.Scatter:
    """The themes' bubbles: filled in the topic's colour, or hollow (its colour on the rim) for a
    theme of fewer than MIN_KEYWORDS keywords; the hover gives the quadrant, papers, figures and
    the keywords with their count."""
    n_keywords = (
        table["n_keywords"].fillna(0).astype(int) if "n_keywords" in table else pd.Series(0, table.index)
    )
    hollow = (n_keywords < MIN_KEYWORDS).to_numpy()
    colours = [topic_color(int(t)) for t in table["topic"]]
    keywords = table["keywords"].fillna("") if "keywords" in table else pd.Series("", table.index)
    return go.Scatter(
        x=x.tolist(),
        y=y.tolist(),
        mode="markers",
        marker={
            "size": diameter.tolist(),
            "color": [HOLLOW if h else c for h, c in zip(hollow, colours)],
            "opacity": 0.75,
            "line": {
                "width": [2.5 if h else 1 for h in hollow],
                "color": [c if h else "#ffffff" for h, c in zip(hollow, colours)],
            },
        },
        text=[plotly_text(t) for t in labels],
        customdata=[
            [
                plotly_text(q),
                int(s),
                int(n),
                "" if n >= MIN_KEYWORDS else " (too few: drawn hollow)",
                plotly_text(k),
            ]
            for q, s, n, k in zip(table["quadrant"], table["size"], n_keywords, keywords)
        ],  # fmt: skip
        hovertemplate="%{text}<br>%{customdata[0]}, %{customdata[1]} papers<br>"
        "centrality %{x:.2f}, density %{y:.2f}<br>%{customdata[2]} keywords%{customdata[3]}: "
        "%{customdata[4]}<extra></extra>",
    )


def visualize_thematic_map(thematic: pd.DataFrame) -> go.Figure:
    """Themes by centrality (x) and density (y), bubbles by papers (hollow: fewer than
    MIN_KEYWORDS keywords), labels apart, the lines where bibliometrix splits the quadrants."""
    table = _placed(thematic)
    x, y = table["centrality"].to_numpy(float), table["density"].to_numpy(float)
    x_range, y_range = _axis(x), _axis(y)
    plot_w, plot_h = WIDTH - MARGIN["l"] - MARGIN["r"], HEIGHT - MARGIN["t"] - MARGIN["b"]
    px = (x - x_range[0]) / (x_range[1] - x_range[0]) * plot_w
    py = (y_range[1] - y) / (y_range[1] - y_range[0]) * plot_h
    diameter = (10 + 50 * np.sqrt(table["size"] / max(table["size"].max(), 1))).round(1).to_numpy()
    labels = [short_label(int(t), label, LABEL_CHARS) for t, label in zip(table["topic"], table["label"])]
    corners = [
        (1, 1, "right", "top", "Motor themes"),
        (0, 1, "left", "top", "Niche themes"),
        (0, 0, "left", "bottom", "Emerging or declining themes"),
        (1, 0, "right", "bottom", "Basic themes"),
    ]
    names = []  # the quadrants' names, in the plot area's corners
    for cx, cy, _, _, text in corners:
        w, h = 0.62 * CORNER_FONT * len(text) + 6, 1.35 * CORNER_FONT + 4
        left, top = cx * (plot_w - w), (1 - cy) * (plot_h - h)
        names.append((left, top, left + w, top + h))
    boxes = [label_box(t) for t in labels]
    centres = place_labels(px, py, diameter / 2, boxes, (plot_w, plot_h), tuple(names))
    figure = go.Figure(_bubbles(table, x, y, diameter, labels))
    for k, (cx, cy) in enumerate(centres):
        w, h = label_box(labels[k])
        nx, ny = min(max(px[k], cx - w / 2), cx + w / 2), min(max(py[k], cy - h / 2), cy + h / 2)
        far = np.hypot(nx - px[k], ny - py[k]) > diameter[k] / 2 + 5  # not beside it: a line to it
        figure.add_annotation(
            x=x[k], y=y[k], ax=float(cx - px[k]), ay=float(cy - py[k]), text=plotly_text(labels[k]),
            showarrow=True, arrowwidth=0.7 if far else 0.1, arrowhead=0,
            arrowcolor="#888888" if far else "rgba(0,0,0,0)", standoff=diameter[k] / 2,
            font={"size": LABEL_FONT, "color": "#222222"}, xanchor="center", yanchor="middle",
        )  # fmt: skip
    figure.add_vline(x=split_at(x), line={"color": "#999999", "dash": "dot"})
    figure.add_hline(y=split_at(y), line={"color": "#999999", "dash": "dot"})
    for cx, cy, xanchor, yanchor, text in corners:
        figure.add_annotation(
            x=cx, y=cy, xref="paper", yref="paper", xanchor=xanchor, yanchor=yanchor, text=f"<b>{text}</b>",
            showarrow=False, font={"size": CORNER_FONT, "color": "#777777"}, opacity=0.8,
        )  # fmt: skip
    figure.update_layout(
        template="plotly_white",
        width=WIDTH,
        height=HEIGHT,
        margin=MARGIN,
        xaxis={"title": AXES[_links(table)][0], "range": x_range},
        yaxis={"title": AXES[_links(table)][1], "range": y_range},
        showlegend=False,
    )
    return figure


# the axes' titles by the links (config thematic.normalise)
AXES = {
    "equivalence": (
        "centrality: links to the other themes (10 × Σ equivalence index)",
        "density: links inside the theme (100 × Σ / keywords)",
    ),
    ASSOCIATION: (
        "centrality: links to the other themes (Σ association strength, bibliometrix's)",
        "density: links inside the theme (100 × (Σ 1/c_i + Σ links) / keywords, bibliometrix's)",
    ),
}


def _links(table: pd.DataFrame) -> str:
    links = str(table["links"].iloc[0]) if "links" in table and len(table) else "equivalence"
    return links if links in AXES else "equivalence"


def thematic_text(table: pd.DataFrame) -> tuple[str, list[str]]:
    """The page's account of the map (what it is, how it is computed and split) and the list of
    what differs from bibliometrix 5.2.1's thematicMap, for this table's settings."""
    source = str(table["keywords_from"].iloc[0]) if len(table) and "keywords_from" in table else ""
    numbers = pd.to_numeric(table["n_keywords"], errors="coerce") if "n_keywords" in table else pd.Series()
    most = int(numbers.max()) if numbers.notna().any() else 0
    association = _links(table) == ASSOCIATION
    what = (
        "the authors' keywords of its papers (folded as the topic names fold them)"
        if source == AUTHOR_KEYWORDS
        else "its own top terms (this listing has no authors' keywords), counted in the abstracts"
    )
    if association:
        how = (
            "Two keywords are linked by their association strength e = c_ij / (c_i c_j) (c_i the papers "
            "giving one, c_ij those giving both), and the sums are bibliometrix's: across, centrality, "
            "the sum of the theme's links to other themes' keywords, each link counted for the theme of "
            "its commoner keyword only; up, density, 100 × (the sum of 1 / c_i over its keywords + the "
            "links among them) / their number (thematic.normalise: association)."
        )
    else:
        how = (
            "Two keywords are linked by their equivalence index e = c_ij² / (c_i c_j), c_i the papers "
            "giving one and c_ij those giving both. Across, centrality: 10 × the sum of the theme's "
            "links to the other themes' keywords; up, density: 100 × the sum of the links among its "
            "own keywords / their number (thematic.normalise: equivalence; association gives "
            "bibliometrix's figures)."
        )
    intro = (
        "A strategic diagram after Callon (Callon, Courtial & Laville 1991) and Cobo et al. (2011), with "
        f"the topics as the themes. Each topic's keywords are {what}: its {most} commonest at most "
        "(config thematic.keywords) given by several papers (thematic.min_papers), each keyword "
        f"belonging to the topic whose papers give it most. {how} The dotted lines split the themes "
        "at the middle rank, as bibliometrix's axes do (the median, for distinct values): a theme "
        "exactly at it is on the line, in neither quadrant. Motor themes are central and dense, "
        "niche themes dense but apart, basic themes central but loose, and the rest emerging or "
        f"declining. Bubbles by papers; a hollow bubble is a theme of fewer than {MIN_KEYWORDS} "
        "keywords, whose density rests on one link or none. Hover a bubble for its keywords and "
        "their count."
    )
    differences = [
        "Its themes are clusters of the keyword network (Louvain, best of 10 seeds); here they are "
        "the topics, each keyword going to the topic whose papers give it most.",
        "It keeps every keyword of the 250 commonest that 5 papers in a thousand give (2 at least); "
        f"here each topic keeps its {most or 'few'} commonest given by thematic.min_papers papers.",
        "It plots the ranks of centrality and density; here the values, the lines at the middle rank "
        "as there.",
    ]
    if not association:
        differences += [
            "It links keywords by association strength c_ij / (c_i c_j); here by Cobo et al.'s "
            "equivalence index c_ij² / (c_i c_j) (thematic.normalise: association gives its figures).",
            "Its centrality counts each link between two themes for one of them only (its commoner "
            "keyword's) and has no factor 10; here a link counts for both themes, times 10.",
            "Its density adds 1 / c_i of each keyword (so a one-keyword theme has 100 / c_i); here only "
            "the links among the theme's keywords (a one-keyword theme has 0).",
        ]
    return intro, differences


def _rows(table: pd.DataFrame) -> list[dict]:
    """The table under the map: every topic, its themes first (by quadrant), then those without
    keywords of their own, each with its keyword count and note."""
    rows = []
    table = table.assign(**{c: "" for c in ("label", "quadrant", "keywords", "note") if c not in table})
    numbers = table.assign(
        **{
            c: pd.to_numeric(table[c], errors="coerce")
            for c in ("topic", "centrality", "density", "n_keywords")
        }
    )
    numbers = numbers.assign(unplaced=numbers["centrality"].isna()).sort_values(["unplaced", "topic"])
    for row in numbers.itertuples():
        n = 0 if pd.isna(row.n_keywords) else int(row.n_keywords)
        rows.append(
            {
                "label": short_label(int(row.topic), str(row.label), 60),
                "quadrant": "" if row.unplaced else str(row.quadrant),
                "n_keywords": n,
                "centrality": "" if row.unplaced else f"{row.centrality:.3f}",
                "density": "" if row.unplaced else f"{row.density:.2f}",
                "keywords": "" if pd.isna(row.keywords) else str(row.keywords),
                "note": "" if pd.isna(row.note) else str(row.note),
                "hollow": not row.unplaced and n < MIN_KEYWORDS,
            }
        )
    return rows


def thematic_page(inputs: ReportInputs) -> str:
    table = _table(inputs)
    shown = has_thematic_map(inputs)
    untold = "This listing has fewer than four topics with keywords of their own: no thematic map."
    intro, differences = thematic_text(table) if shown else (untold, [])
    missing = len(table) - len(_placed(table)) if shown else 0
    if missing:  # topics without keywords of their own: named in the table, with the reason
        one = missing == 1
        intro += (
            f" {missing} {'topic has' if one else 'topics have'} no keyword of {'its' if one else 'their'} "
            f"own and {'is' if one else 'are'} not on the map: the table under it names "
            f"{'it' if one else 'them'} and says why."
        )
    return render_page(
        "thematic.html",
        page="thematic",
        page_title="Thematic map",
        report_title=inputs.title,
        footer=page_footer(inputs),
        data_json=page_data(visualize_thematic_map(table)) if shown else None,
        uses_plotly=shown,
        heading="Thematic map",
        intro=intro,
        rows=_rows(table) if shown else [],
        differences=differences,
    )
