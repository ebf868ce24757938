"""Colours: one per topic, the same on every page; outliers always grey."""

from __future__ import annotations

import colorsys

from papertopics.constants import OUTLIER_COLOR

# Tableau 10 and its light half, then D3's darker tones; no greys (grey means "outlier").
_TOPIC_PALETTE = [
    "#4e79a7",
    "#f28e2b",
    "#e15759",
    "#76b7b2",
    "#59a14f",
    "#edc948",
    "#b07aa1",
    "#ff9da7",
    "#9c755f",
    "#1f77b4",
    "#d62728",
    "#2ca02c",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#17becf",
    "#bcbd22",
    "#a0cbe8",
    "#ffbe7d",
    "#ff9d9a",
    "#86bcb6",
    "#8cd17d",
    "#f1ce63",
    "#d4a6c8",
]

_LISTING_PALETTE = [
    "#1b9e77",
    "#d95f02",
    "#7570b3",
    "#e7298a",
    "#66a61e",
    "#e6ab02",
    "#a6761d",
    "#1f78b4",
    "#b2df8a",
    "#fb9a99",
]


def _golden_hue(index: int, lightness: float = 0.5, saturation: float = 0.6) -> str:
    hue = (index * 0.618033988749895) % 1.0
    red, green, blue = colorsys.hls_to_rgb(hue, lightness, saturation)
    return f"#{round(red * 255):02x}{round(green * 255):02x}{round(blue * 255):02x}"


def topic_color(topic: int) -> str:
    """A stable colour for a topic id: the palette first, then golden-angle hues."""
    if topic < 0:
        return OUTLIER_COLOR
    if topic < len(_TOPIC_PALETTE):
        return _TOPIC_PALETTE[topic]
    return _golden_hue(topic, lightness=0.45 + 0.1 * (topic % 3), saturation=0.55)


def topic_colors(topics) -> dict[int, str]:
    return {int(topic): topic_color(int(topic)) for topic in topics}


def listing_colors(listings: list[str]) -> dict[str, str]:
    return {
        name: (_LISTING_PALETTE[i] if i < len(_LISTING_PALETTE) else _golden_hue(i + 3))
        for i, name in enumerate(listings)
    }
