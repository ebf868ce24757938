"""The "Thematic map" page: Callon's strategic diagram of the topics (thematic_map.csv,
topics.thematic), the bubbles by papers, every label placed where it overlaps no other label
and no bubble (place_labels), the quadrants split at the medians.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from papertopics.report.colors import topic_color
from papertopics.report.html import page_data, page_footer, render_page
from papertopics.report.inputs import ReportInputs
from papertopics.report.text import plotly_text, short_label
from papertopics.topics.thematic import AUTHOR_KEYWORDS

# the figure's size and plot area in pixels: fixed, so that the labels' places hold on the page
WIDTH, HEIGHT = 1100, 680
MARGIN = {"l": 60, "r": 20, "t": 20, "b": 60}
LABEL_FONT = 11  # px; a character is about 0.6 of it wide, a line 1.35 of it high
LABEL_CHARS = 30
CORNER_FONT = 13  # px, the quadrants' names


def _table(inputs: ReportInputs) -> pd.DataFrame:
    table = inputs.described.get("thematic")
    return table if table is not None else pd.DataFrame()


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


def visualize_thematic_map(thematic: pd.DataFrame) -> go.Figure:
    """Topics by centrality (x) and density (y), bubbles by papers, labels apart, the quadrants
    split at the medians."""
    table = thematic.copy()
    for column in ("topic", "size", "centrality", "density"):
        table[column] = pd.to_numeric(table[column], errors="coerce")
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
    figure = go.Figure(
        go.Scatter(
            x=x.tolist(),
            y=y.tolist(),
            mode="markers",
            marker={
                "size": diameter.tolist(),
                "color": [topic_color(int(t)) for t in table["topic"]],
                "opacity": 0.75,
                "line": {"width": 1, "color": "#ffffff"},
            },
            text=[plotly_text(t) for t in labels],
            customdata=[
                [plotly_text(q), int(s), plotly_text(k)]
                for q, s, k in zip(table["quadrant"], table["size"], table.get("keywords", [""] * len(table)))
            ],
            hovertemplate="%{text}<br>%{customdata[0]}, %{customdata[1]} papers<br>"
            "centrality %{x:.2f}, density %{y:.2f}<br>%{customdata[2]}<extra></extra>",
        )
    )
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
    figure.add_vline(x=float(np.median(x)), line={"color": "#999999", "dash": "dot"})
    figure.add_hline(y=float(np.median(y)), line={"color": "#999999", "dash": "dot"})
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
        xaxis={"title": "centrality: links to the other themes (10 × Σ equivalence index)", "range": x_range},
        yaxis={"title": "density: links inside the theme (100 × Σ / keywords)", "range": y_range},
        showlegend=False,
    )
    return figure


def thematic_page(inputs: ReportInputs) -> str:
    table = _table(inputs)
    shown = has_thematic_map(inputs)
    source = str(table["keywords_from"].iloc[0]) if shown and "keywords_from" in table else ""
    most = int(pd.to_numeric(table["n_keywords"]).max()) if shown and "n_keywords" in table else 0
    what = (
        "the authors' keywords of its papers (folded as the topic names fold them)"
        if source == AUTHOR_KEYWORDS
        else "its own top terms (this listing has no authors' keywords), counted in the abstracts"
    )
    intro = (
        "Callon's strategic diagram (Callon et al. 1991), computed as Cobo et al. (2011) define it and "
        f"as bibliometrix's thematic map draws it, with the topics as the themes. Each topic's keywords are "
        f"{what}: its {most} commonest (config thematic.keywords) given by several papers "
        "(thematic.min_papers), each keyword belonging to the topic whose papers give it most. Two "
        "keywords are linked by their equivalence index e = c_ij² / (c_i c_j), c_i the papers giving "
        "one and c_ij those giving both. Across, centrality: "
        "10 × the sum of the topic's links to the other topics' keywords; up, density: 100 × the sum of "
        "the links among its own keywords / their number. Split at the medians: motor themes are central "
        "and dense, niche themes dense but apart, basic themes central but loose, and the rest emerging "
        "or declining. Bubbles by papers; hover one for its keywords."
    )
    untold = "This listing has fewer than four topics with keywords of their own: no thematic map."
    return render_page(
        "figure.html",
        page="thematic",
        page_title="Thematic map",
        report_title=inputs.title,
        footer=page_footer(inputs),
        data_json=page_data(visualize_thematic_map(table)) if shown else None,
        uses_plotly=shown,
        heading="Thematic map",
        intro=intro if shown else untold,
        note=None,
    )
