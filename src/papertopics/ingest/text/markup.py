"""Markup around words: HTML tags and entities, markdown emphasis, links and code, URLs; and
`strip_markup`, which drops math, commands and URLs for counting words (the name index)."""

from __future__ import annotations

import html
import re

from papertopics.ingest.text.chars import strip_invisible
from papertopics.ingest.text.latex import RE_MATH

__all__ = [
    "RE_URL",
    "display_text",
    "drop_urls",
    "strip_html",
    "strip_markdown",
    "strip_markup",
    "unescape_entities",
]

# attributes must look like attributes, so "$1<p \leq 2$ ... >" is not taken for a tag
_ATTRS = r"""(?:\s+[a-zA-Z_:][-\w:.]*(?:\s*=\s*(?:"[^"<>]*"|'[^'<>]*'|[^\s"'=<>`]+))?)*\s*/?>"""
_RE_HTML_INLINE = re.compile(
    r"</?(?:a|abbr|b|big|cite|code|del|dfn|em|font|i|ins|kbd|mark|q|s|samp|small|span|"
    r"strike|strong|sub|sup|inf|tt|u|var)" + _ATTRS,  # `<inf>`: Scopus's and IEEE's subscript
    re.I,
)
_RE_HTML_BLOCK = re.compile(
    r"</?(?:blockquote|br|dd|div|dl|dt|h[1-6]|hr|img|li|ol|p|pre|table|tbody|td|th|"
    r"thead|tr|ul)" + _ATTRS,
    re.I,
)
# JATS (Crossref and Lens write `<jats:p>`, `<jats:italic>`) and MathML (`<mml:math>`): tags
# gone, words kept; a formula given twice (`<alternatives>` of `<tex-math>` and MathML) keeps
# the MathML's characters (`IL-1β`), one alone its TeX as math (`$1\beta$`)
_RE_TEX_MATH = re.compile(r"<(?:[\w-]+:)?tex-math\b[^>]*>(.*?)</(?:[\w-]+:)?tex-math\s*>", re.S | re.I)
_RE_XML_BLOCK = re.compile(r"</?(?:jats:)?(?:p|sec|title|list|list-item|disp-formula)" + _ATTRS, re.I)
_RE_XML_INLINE = re.compile(
    r"</?(?:(?:jats|mml):[\w-]+|italic|bold|sc|monospace|inline-formula|alternatives|math|mi|mn|mo|"
    r"mtext|mrow|msub|msup|msubsup|mfrac|msqrt|mroot|mover|munder|munderover|mspace|mstyle|"
    r"semantics|annotation)" + _ATTRS,
    re.I,
)
_RE_ABSTRACT_TITLE = re.compile(r"<(jats:)?title\b[^>]*>\s*Abstract\s*</\1title\s*>", re.I)
_RE_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});")
# The one URL regex: a trailing full stop, comma or bracket is the sentence's, not the URL's.
RE_URL = re.compile(r"(?:https?: ?//|ftp://|www\.)[^\s<>\"'{}\[\]]*[^\s<>\"'{}\[\].,;:!?)]", re.I)
_RE_MD_LINK = re.compile(r"\[([^\[\]\n]+)\]\((?:[^()\s]+)\)")
_RE_MD_BOLD = re.compile(r"\*\*(?=[^\s*])(.+?)(?<=[^\s*])\*\*")
_RE_MD_ITAL = re.compile(r"\*(?<!\*\*)(?=[^\s*])([^*]+?)(?<=[^\s*])\*(?!\*)")
_RE_MD_UBOLD = re.compile(r"__(?<![\w_]__)(?=[^\s_])(.+?)(?<=[^\s_])__(?![\w_])")
_RE_MD_UITAL = re.compile(r"_(?<![\w_]_)(?=[^\s_])([^_]+?)(?<=[^\s_])_(?![\w_])")
_RE_MD_CODE = re.compile(r"`([^`\n]+)`")
_RE_STARS = re.compile(r"\*{2,}")


def _entity(m: re.Match) -> str:
    return html.unescape(m.group(0))


def unescape_entities(text: str) -> str:
    """HTML entities decoded (`&amp;` -> `&`, `&#x2019;` -> `'`), as IEEE and PubMed write them."""
    return _RE_ENTITY.sub(_entity, text)


def strip_html(s: str) -> str:
    """Inline tags (`<i>`, `<jats:italic>`, MathML) gone, block tags (`<p>`, `<br>`, `<jats:p>`)
    a space."""
    if ":" in s or "math" in s or "formula" in s or "italic" in s or "bold" in s:
        s = _strip_xml(s)
    return _RE_HTML_BLOCK.sub(" ", _RE_HTML_INLINE.sub("", s))


def _strip_xml(s: str) -> str:
    if "tex-math" in s:
        s = _RE_FORMULA_SPACE.sub("", s)  # ACM: `<inline-formula> <tex-math>...` keeps no space
        twice = "math" in _RE_TEX_MATH.sub("", s)
        s = _RE_TEX_MATH.sub("" if twice else _tex, s)
    s = _RE_ABSTRACT_TITLE.sub(" ", s)  # Crossref's `<jats:title>Abstract</jats:title>` heading
    return _RE_XML_INLINE.sub("", _RE_XML_BLOCK.sub(" ", s))


_RE_FORMULA_SPACE = re.compile(r"(?<=<inline-formula>)\s+|\s+(?=</inline-formula>)", re.I)
_RE_DELIMITED = re.compile(r"\s*(?:\$\$?|\\\(|\\\[)(.*?)(?:\$\$?|\\\)|\\\])\s*", re.S)


def _tex(m: re.Match) -> str:
    """A `<tex-math>` body as inline math: `$k$`, `\\(k\\)` or `k` alike become `$k$`."""
    body = m.group(1)
    inner = _RE_DELIMITED.fullmatch(body)
    return f"${(inner.group(1) if inner else body).strip()}$"


def display_text(text: str) -> str:
    """A title or author list as shown: one line, HTML entities decoded (`&amp;` -> `&`),
    inline HTML tags (`<i>E. coli</i>`) and invisible characters gone."""
    s = strip_invisible(text)
    if "&" in s:  # first: Mendeley's RIS escapes its italics (`&lt;I&gt;E. coli&lt;/I&gt;`)
        s = _RE_ENTITY.sub(_entity, s)
    if "<" in s:
        s = strip_html(s)
    return " ".join(s.split())


def strip_markdown(s: str) -> str:
    """Markdown links, code, bold and italics (`*`, `_`) reduced to their words."""
    if "](" in s:
        s = _RE_MD_LINK.sub(r"\1", s)
    if "`" in s:
        s = s.replace("``", '"').replace("''", '"')
        s = _RE_MD_CODE.sub(r"\1", s)
    if "**" in s:
        s = _RE_MD_BOLD.sub(r"\1", s)
    if "*" in s:
        s = _RE_MD_ITAL.sub(r"\1", s)
        s = _RE_STARS.sub("", s)
    if "_" in s:
        s = _RE_MD_UBOLD.sub(r"\1", s)
        s = _RE_MD_UITAL.sub(r"\1", s)
    return s


def drop_urls(s: str) -> str:
    return RE_URL.sub("", s)


# clean_text renders math and keeps a command's argument, for reading and embedding; here the
# words of math, commands and URLs are dropped, so "log" or "mathcal" never become a name.
_RE_DROP_CMD = re.compile(r"\\(?:cite\w*|ref|eqref|label|url|footnote)\*?(?:\[[^\]]*\])?\{[^}]*\}")
_RE_ANY_CMD = re.compile(r"\\[A-Za-z]+\*?|\\.")


def strip_markup(text: str) -> str:
    """Text without inline math, LaTeX commands and URLs (their words are not the topic's)."""
    text = RE_URL.sub(" ", text or "")
    if "$" in text or "\\" in text:
        text = RE_MATH.sub(" . ", text)
        text = _RE_DROP_CMD.sub(" ", text)
        text = _RE_ANY_CMD.sub(" ", text).replace("{", "").replace("}", "")
    return text
