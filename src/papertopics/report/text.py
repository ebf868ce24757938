"""Short display strings from titles and abstracts, and escaping for Plotly's text.

Plotly reads `<b>`, `<br>`, `<a href>` ... in every text it draws (titles, tick labels,
hover), so listing text passed to a figure goes through `plotly_text`, which escapes it; the
pages escape everything else through Jinja's autoescape or set it with `textContent`.
"""

from __future__ import annotations

import html
import re
import textwrap

_ABBREVIATIONS = (
    "e.g.",
    "i.e.",
    "et al.",
    "etc.",
    "vs.",
    "cf.",
    "Fig.",
    "fig.",
    "Eq.",
    "eq.",
    "Sec.",
    "approx.",
    "resp.",
    "w.r.t.",
    "a.k.a.",
    "No.",
)
_SENTENCE_END = re.compile(r"(?<=[.!?])[\"')\]]?\s+(?=[\"'(\[]?[A-Z0-9\\$])")
_SPACES = re.compile(r"\s+")


def squash(text: str) -> str:
    """Whitespace (hard line breaks, tabs, non-breaking spaces) folded to single spaces."""
    return _SPACES.sub(" ", str(text or "").replace("\u00a0", " ")).strip()


def truncate(text: str, max_chars: int) -> str:
    """At most max_chars characters, cut at a word boundary when one is near, with an ellipsis."""
    text = squash(text)
    if len(text) <= max_chars:
        return text
    cut = text[: max_chars - 1]
    space = cut.rfind(" ")
    if space > max_chars * 0.6:
        cut = cut[:space]
    return cut.rstrip(" ,;:") + "\u2026"


def first_sentence(text: str) -> str:
    """The first sentence of an abstract (abbreviations like "e.g." do not end it)."""
    text = squash(text)
    start = 0
    for match in _SENTENCE_END.finditer(text):
        candidate = text[: match.start()].rstrip("\"')]")
        if any(candidate.endswith(abbreviation) for abbreviation in _ABBREVIATIONS):
            continue
        if match.start() - start < 10:  # "1. Intro", initials: too short for a sentence
            continue
        return text[: match.start()].strip()
    return text


# A headline (title or first sentence) is kept to this many characters in data/headlines.js; the
# tooltip shortens it further to report.max_hover_chars, so that setting never repacks the data.
HEADLINE_CHARS = 150


def headline(title: str, text: str, max_chars: int = HEADLINE_CHARS) -> str:
    """What names a document on screen: its title, else its first sentence; never empty."""
    title = squash(title)
    if title:
        return truncate(title, max_chars)
    sentence = first_sentence(text)
    return truncate(sentence, max_chars) if sentence else "(empty abstract)"


def plotly_text(text: str) -> str:
    """Text Plotly draws literally: &, < and > as entities, so no tag or link is ever built."""
    return html.escape(str(text), quote=False)


def plotly_lines(text: str, width: int = 72, max_chars: int | None = None) -> str:
    """Escaped text wrapped with `<br>` (Plotly's only line break) at about `width` characters."""
    text = squash(text)
    if max_chars is not None:
        text = truncate(text, max_chars)
    lines = textwrap.wrap(text, width=width, break_long_words=True, break_on_hyphens=False) or [""]
    return "<br>".join(plotly_text(line) for line in lines)


def short_label(topic: int, label: str, max_chars: int = 48) -> str:
    """ "3 · label" for legends and axes; the outlier group keeps its own label."""
    label = truncate(label, max_chars)
    return label if topic < 0 else f"{topic} \u00b7 {label}"
