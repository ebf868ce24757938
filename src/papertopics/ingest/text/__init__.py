"""Turn an abstract as listed (LaTeX, markdown, HTML, odd Unicode) into plain text.

The cleaned text feeds the embedding model and the keyword (c-TF-IDF) vocabulary; the raw
text is kept separately for display. Math is kept in a readable form ($\\mathcal{O}(n
\\log n)$ -> "O(n log n)", Greek letters as Unicode) rather than dropped, because symbols
such as "k-means" or "ℓ1" carry meaning; LaTeX command names never survive, so keywords do
not become "mathcal". URLs are removed (they only add "https"/"github" to the vocabulary).
One concern per module: chars (Unicode), latex (+ latex_tables), markup (HTML, markdown,
URLs), boilerplate (placeholders, copyright notices, headings). Rules in docs/listings.md.
"""

from __future__ import annotations

import re
import unicodedata

from papertopics.ingest.text.boilerplate import drop_headings, split_abstract
from papertopics.ingest.text.chars import (
    CHAR_MAP,
    CJK_LETTERS,
    CJK_PUNCTUATION,
    HAN,
    fold_chars,
    repair_ctrl,
    strip_invisible,
)
from papertopics.ingest.text.latex import decode_latex, render_latex
from papertopics.ingest.text.latex_tables import KNOWN
from papertopics.ingest.text.markup import (
    display_text,
    drop_urls,
    strip_html,
    strip_markdown,
    strip_markup,
    unescape_entities,
)

__all__ = [
    "CJK_LETTERS",
    "CJK_PUNCTUATION",
    "HAN",
    "clean_text",
    "decode_latex",
    "display_text",
    "split_abstract",
    "strip_invisible",
    "strip_markup",
    "unescape_entities",
]

_RE_HYPHEN_BREAK = re.compile(r"(\w)-[ \t]*\n[ \t]*(?=\w)")
_RE_SPACE_BEFORE_PUNCT = re.compile(r" ([.,;:!?)\]])")
_RE_SPACE_AFTER_OPEN = re.compile(r"([(\[]) ")


def clean_text(raw: str) -> str:
    """Plain single-line text for embedding and keywords; see the module docstring. Each step
    runs only when its mark is in the text (most abstracts need few)."""
    if not isinstance(raw, str):
        return ""
    s = raw
    touched = False  # removed markup can leave "word ." or "( x"
    if "\t" in s or "\x0c" in s or "\x08" in s or "\r" in s or "\x0b" in s or "\x07" in s:
        s = repair_ctrl(s, KNOWN)
    if "&lt;" in s:  # escaped tags (`&lt;I&gt;E. coli&lt;/I&gt;`) are tags
        s = unescape_entities(s)
    if "<" in s:
        touched = True
        s = strip_html(s)
    if "&" in s:
        s = unescape_entities(s)
    s = fold_chars(s)
    if "-\n" in s or "- \n" in s:
        s = _RE_HYPHEN_BREAK.sub(r"\1-", s)
    if "\\" in s or "$" in s or "{" in s:
        touched = True
        s = render_latex(s)
    if "*" in s or "_" in s or "`" in s or "](" in s:
        s = strip_markdown(s)
    s = s.replace("\ue002", "$").replace("\ue003", "_").replace("\ue004", "*")
    if not s.isascii():
        # NFKC folds ligatures, full-width forms, super/subscript digits, odd spaces
        s = unicodedata.normalize("NFKC", s).translate(CHAR_MAP)
    if "//" in s or "www." in s or "WWW." in s:
        touched = True
        s = drop_urls(s)
    s = drop_headings(" ".join(s.split()))
    if touched:
        s = _RE_SPACE_AFTER_OPEN.sub(r"\1", _RE_SPACE_BEFORE_PUNCT.sub(r"\1", s))
    return s
