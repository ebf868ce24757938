"""Characters: the CJK script ranges, the character folding table (dashes, quotes, invisible
and control characters), and the repair of a LaTeX command whose backslash became a control
character."""

from __future__ import annotations

import re

# The CJK scripts, as character-class ranges (one owner: listing checks and topic names read these).
HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # ideographs: extension A, unified, compatibility
KANA = "\u3040-\u30ff"  # hiragana, katakana
HANGUL = "\uac00-\ud7af"  # hangul syllables
CJK_LETTERS = KANA + HAN + HANGUL
CJK_PUNCTUATION = "\u3000-\u303f\uff00-\uffef"  # CJK symbols and punctuation, full-width forms

__all__ = [
    "CHAR_MAP",
    "CJK_LETTERS",
    "CJK_PUNCTUATION",
    "HAN",
    "fold_chars",
    "repair_ctrl",
    "strip_invisible",
]

CHAR_MAP: dict[int, str] = {}
for _c in "\u2010\u2011\u2012\u2013\u2043\u2212\ufe63\uff0d":  # hyphens, en dash, minus
    CHAR_MAP[ord(_c)] = "-"
for _c in "\u2014\u2015\u2e3a\u2e3b":  # em dashes: a pause, not a hyphen
    CHAR_MAP[ord(_c)] = " - "
for _c in "\u2018\u2019\u201a\u201b\u2032":
    CHAR_MAP[ord(_c)] = "'"
for _c in "\u201c\u201d\u201e\u201f\u2033":
    CHAR_MAP[ord(_c)] = '"'
# zero-width and bidi format characters: invisible, they only split or glue words wrongly
for _c in (
    "\u00ad\u200b\u200c\u200d\u200e\u200f\u2060\u2061\u2062\u2063\u2064\ufeff"
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
):
    CHAR_MAP[ord(_c)] = ""
# control characters (tab and newline are handled as whitespace later)
for _i in list(range(0x00, 0x09)) + list(range(0x0B, 0x20)) + list(range(0x7F, 0xA0)):
    CHAR_MAP[_i] = " "
# What strip_invisible removes from text kept as written (raw abstracts, titles, metadata):
# NUL and other control characters (tab, newline, carriage return kept) and the invisible
# zero-width/bidi characters above. Such text reaches CSV files and the report verbatim.
_INVISIBLE = {k: None for k, v in CHAR_MAP.items() if v == ""}
_INVISIBLE.update({i: None for i in [*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), *range(0x7F, 0xA0)]})
_INVISIBLE[0x85] = " "  # NEL: a line break
for _c in "\u2028\u2029\u0085":
    CHAR_MAP[ord(_c)] = "\n"
# private-use code points reserved for our placeholders
for _i in range(0xE000, 0xE010):
    CHAR_MAP[_i] = ""


def _finder(table: dict[int, str | None]) -> re.Pattern:
    """A regex finding any character of a translate table: a text without one is left as it
    is, since str.translate with a dict looks up every character (twice a regex scan's time)."""
    return re.compile("[" + "".join(re.escape(chr(k)) for k in sorted(table)) + "]")


_RE_CHAR_MAP = _finder(CHAR_MAP)
_RE_INVISIBLE = _finder(_INVISIBLE)

# JSON strings written without escaping the backslash turn "\textbf" into TAB + "extbf",
# "\beta" into BACKSPACE + "eta", "\footnote" into FORM FEED + "ootnote" (seen in real
# listings). Repaired only when the result is a LaTeX command we know.
_CTRL_LETTER = {"\t": "t", "\x08": "b", "\x0c": "f", "\x0b": "v", "\x07": "a", "\r": "r"}
_RE_CTRL_CMD = re.compile(r"([\t\x08\x0c\x0b\x07\r])([a-zA-Z]+)")


def repair_ctrl(s: str, known: frozenset[str] | set[str]) -> str:
    """`s` with a control character glued to a word that makes a `known` command repaired."""

    def _one(m: re.Match) -> str:
        name = _CTRL_LETTER[m.group(1)] + m.group(2)
        return "\\" + name if name in known else m.group(0)

    return _RE_CTRL_CMD.sub(_one, s)


def fold_chars(s: str) -> str:
    """Dashes, quotes, invisible and control characters folded (CHAR_MAP), when there is one."""
    if not (s.isascii() and s.isprintable()) and _RE_CHAR_MAP.search(s):
        return s.translate(CHAR_MAP)
    return s


def strip_invisible(text: str) -> str:
    """`text` without NUL, other control characters (tab and line breaks kept) and zero-width
    or bidi format characters: what a listing's raw abstract, title or metadata keeps."""
    if text.isascii() and text.isprintable():  # no control character: most titles and ids
        return text
    return text.translate(_INVISIBLE) if _RE_INVISIBLE.search(text) else text
