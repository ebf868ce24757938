"""Turn an abstract as listed (LaTeX, markdown, HTML, odd Unicode) into plain text.

The cleaned text feeds the embedding model and the keyword (c-TF-IDF) vocabulary; the raw
text is kept separately for display. Math is kept in a readable form ($\\mathcal{O}(n
\\log n)$ -> "O(n log n)", Greek letters as Unicode) rather than dropped, because symbols
such as "k-means" or "ℓ1" carry meaning; LaTeX command names never survive, so keywords do
not become "mathcal". URLs are removed (they only add "https"/"github" to the vocabulary).
Rules are listed in docs/listings.md.
"""

from __future__ import annotations

import html
import re
import unicodedata

# The CJK scripts, as character-class ranges (one owner: listing checks and topic names read these).
HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"  # ideographs: extension A, unified, compatibility
KANA = "\u3040-\u30ff"  # hiragana, katakana
HANGUL = "\uac00-\ud7af"  # hangul syllables
CJK_LETTERS = KANA + HAN + HANGUL
CJK_PUNCTUATION = "\u3000-\u303f\uff00-\uffef"  # CJK symbols and punctuation, full-width forms

__all__ = ["clean_text", "decode_latex", "display_text", "split_abstract", "unescape_entities"]

# --- character-level tables -------------------------------------------------------------

_CHAR_MAP: dict[int, str] = {}
for _c in "\u2010\u2011\u2012\u2013\u2043\u2212\ufe63\uff0d":  # hyphens, en dash, minus
    _CHAR_MAP[ord(_c)] = "-"
for _c in "\u2014\u2015\u2e3a\u2e3b":  # em dashes: a pause, not a hyphen
    _CHAR_MAP[ord(_c)] = " - "
for _c in "\u2018\u2019\u201a\u201b\u2032":
    _CHAR_MAP[ord(_c)] = "'"
for _c in "\u201c\u201d\u201e\u201f\u2033":
    _CHAR_MAP[ord(_c)] = '"'
# zero-width and bidi format characters: invisible, they only split or glue words wrongly
for _c in (
    "\u00ad\u200b\u200c\u200d\u200e\u200f\u2060\u2061\u2062\u2063\u2064\ufeff"
    "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
):
    _CHAR_MAP[ord(_c)] = ""
# control characters (tab and newline are handled as whitespace later)
for _i in list(range(0x00, 0x09)) + list(range(0x0B, 0x20)) + list(range(0x7F, 0xA0)):
    _CHAR_MAP[_i] = " "
# What strip_invisible removes from text kept as written (raw abstracts, titles, metadata):
# NUL and other control characters (tab, newline, carriage return kept) and the invisible
# zero-width/bidi characters above. Such text reaches CSV files and the report verbatim.
_INVISIBLE = {k: None for k, v in _CHAR_MAP.items() if v == ""}
_INVISIBLE.update({i: None for i in [*range(0x00, 0x09), 0x0B, 0x0C, *range(0x0E, 0x20), *range(0x7F, 0xA0)]})
_INVISIBLE[0x85] = " "  # NEL: a line break
for _c in "\u2028\u2029\u0085":
    _CHAR_MAP[ord(_c)] = "\n"
# private-use code points reserved for our placeholders
for _i in range(0xE000, 0xE010):
    _CHAR_MAP[_i] = ""


def _finder(table: dict[int, str | None]) -> re.Pattern:
    """A regex finding any character of a translate table: a text without one is left as it
    is, since str.translate with a dict looks up every character (twice a regex scan's time)."""
    return re.compile("[" + "".join(re.escape(chr(k)) for k in sorted(table)) + "]")


_RE_CHAR_MAP = _finder(_CHAR_MAP)
_RE_INVISIBLE = _finder(_INVISIBLE)

# JSON strings written without escaping the backslash turn "\textbf" into TAB + "extbf",
# "\beta" into BACKSPACE + "eta", "\footnote" into FORM FEED + "ootnote" (seen in real
# listings). Repaired only when the result is a LaTeX command we know.
_CTRL_LETTER = {"\t": "t", "\x08": "b", "\x0c": "f", "\x0b": "v", "\x07": "a", "\r": "r"}
_RE_CTRL_CMD = re.compile(r"([\t\x08\x0c\x0b\x07\r])([a-zA-Z]+)")

# --- LaTeX tables ---------------------------------------------------------------------------

_GREEK = {
    "alpha": "α",
    "beta": "β",
    "gamma": "γ",
    "delta": "δ",
    "epsilon": "ε",
    "varepsilon": "ε",
    "zeta": "ζ",
    "eta": "η",
    "theta": "θ",
    "vartheta": "θ",
    "iota": "ι",
    "kappa": "κ",
    "lambda": "λ",
    "mu": "μ",
    "nu": "ν",
    "xi": "ξ",
    "pi": "π",
    "varpi": "π",
    "rho": "ρ",
    "varrho": "ρ",
    "sigma": "σ",
    "varsigma": "σ",
    "tau": "τ",
    "upsilon": "υ",
    "phi": "φ",
    "varphi": "φ",
    "chi": "χ",
    "psi": "ψ",
    "omega": "ω",
    "Gamma": "Γ",
    "Delta": "Δ",
    "Theta": "Θ",
    "Lambda": "Λ",
    "Xi": "Ξ",
    "Pi": "Π",
    "Sigma": "Σ",
    "Upsilon": "Υ",
    "Phi": "Φ",
    "Psi": "Ψ",
    "Omega": "Ω",
}
_SYMBOLS = {
    "leq": "≤",
    "le": "≤",
    "geq": "≥",
    "ge": "≥",
    "neq": "≠",
    "ne": "≠",
    "approx": "≈",
    "sim": "~",
    "simeq": "≃",
    "cong": "≅",
    "equiv": "≡",
    "propto": "∝",
    "times": "×",
    "cdot": "·",
    "div": "÷",
    "pm": "±",
    "mp": "∓",
    "ast": "*",
    "star": "*",
    "circ": "∘",
    "bullet": "•",
    "oplus": "⊕",
    "otimes": "⊗",
    "in": "∈",
    "notin": "∉",
    "ni": "∋",
    "subset": "⊂",
    "subseteq": "⊆",
    "subsetneq": "⊊",
    "supset": "⊃",
    "supseteq": "⊇",
    "cup": "∪",
    "cap": "∩",
    "setminus": "∖",
    "emptyset": "∅",
    "varnothing": "∅",
    "forall": "∀",
    "exists": "∃",
    "neg": "¬",
    "lnot": "¬",
    "land": "∧",
    "wedge": "∧",
    "lor": "∨",
    "vee": "∨",
    "to": "→",
    "rightarrow": "→",
    "Rightarrow": "⇒",
    "leftarrow": "←",
    "gets": "←",
    "Leftarrow": "⇐",
    "leftrightarrow": "↔",
    "Leftrightarrow": "⇔",
    "iff": "⇔",
    "implies": "⇒",
    "mapsto": "↦",
    "uparrow": "↑",
    "downarrow": "↓",
    "infty": "∞",
    "partial": "∂",
    "nabla": "∇",
    "sum": "Σ",
    "prod": "Π",
    "int": "∫",
    "oint": "∮",
    "ell": "ℓ",
    "hbar": "ℏ",
    "Re": "ℜ",
    "Im": "ℑ",
    "aleph": "ℵ",
    "top": "⊤",
    "bot": "⊥",
    "perp": "⊥",
    "parallel": "∥",
    "mid": "|",
    "vert": "|",
    "Vert": "‖",
    "lvert": "|",
    "rvert": "|",
    "lVert": "‖",
    "rVert": "‖",
    "langle": "⟨",
    "rangle": "⟩",
    "lceil": "⌈",
    "rceil": "⌉",
    "lfloor": "⌊",
    "rfloor": "⌋",
    "ll": "≪",
    "gg": "≫",
    "prec": "≺",
    "succ": "≻",
    "preceq": "⪯",
    "succeq": "⪰",
    "dagger": "†",
    "dag": "†",
    "ddagger": "‡",
    "prime": "'",
    "ldots": "...",
    "cdots": "...",
    "dots": "...",
    "vdots": "...",
    "ddots": "...",
    "triangleq": "≜",
    "coloneqq": ":=",
    "degree": "°",
    "checkmark": "✓",
    "surd": "√",
    "angle": "∠",
    "cdotp": "·",
    "colon": ":",
    "lbrace": "{",
    "rbrace": "}",
    "backslash": "\\",
    "S": "§",
    "P": "¶",
    "copyright": "©",
    "textdegree": "°",
    "textasciitilde": "~",
    "textbackslash": "\\",
    "textendash": "-",
    "textemdash": " - ",
    "textbar": "|",
    "textless": "<",
    "textgreater": ">",
    "ss": "ß",
    "o": "ø",
    "O": "Ø",
    "ae": "æ",
    "AE": "Æ",
    "oe": "œ",
    "OE": "Œ",
    "l": "ł",
    "L": "Ł",
    "aa": "å",
    "AA": "Å",
    "i": "ı",
    "j": "ȷ",
    "eg": "e.g.",
    "ie": "i.e.",
    "etal": "et al.",
    "etc": "etc.",
    "vs": "vs.",
    "wrt": "w.r.t.",
    "LaTeX": "LaTeX",
    "TeX": "TeX",
}
_FUNCS = frozenset(
    "log ln lg exp max min sup inf lim liminf limsup sin cos tan sinh cosh tanh arcsin "
    "arccos arctan arg argmax argmin det deg dim ker gcd lcm mod bmod Pr tr rank diag sgn "
    "softmax poly polylog".split()
)
# commands whose single argument is kept (fonts, accents on math letters, text styles)
_UNWRAP = frozenset(
    "mathcal mathbb mathrm mathbf mathsf mathit mathtt mathscr mathfrak mathnormal "
    "boldsymbol bm pmb text textrm textbf textit texttt textsc textsf textup textmd "
    "textnormal textsl emph underline uline mbox hbox fbox operatorname mathop mathbin "
    "mathrel ensuremath tilde hat bar vec dot ddot widetilde widehat overline check breve "
    "acute grave mathring overrightarrow overleftarrow underbrace overbrace boxed "
    "textsuperscript textsubscript textup emph mathds mathbbm bf it sl".split()
)
# commands dropped together with their argument (references, notes, layout)
_DROP_ARG = frozenset(
    "cite citep citet citealp citeauthor citeyear nocite ref eqref autoref cref Cref "
    "pageref label footnote footnotetext footnotemark url thanks vspace hspace "
    "includegraphics begin end color bibliography bibliographystyle input include "
    "phantom hphantom vphantom".split()
)
# commands with two arguments: (which to keep, how to join)
_TWO_ARGS = {
    "href": 1,
    "textcolor": 1,
    "colorbox": 1,
    "frac": -1,
    "dfrac": -1,
    "tfrac": -1,
    "cfrac": -1,
    "binom": -2,
    "tbinom": -2,
    "dbinom": -2,
    "overset": 1,
    "underset": 1,
    "stackrel": 1,
}
# commands dropped without argument: sizes, spacing, delimiters' size hints, old font switches
_DROP = frozenset(
    "left right big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr middle quad "
    "qquad displaystyle textstyle scriptstyle limits nolimits nonumber notag noindent "
    "centering par newline linebreak smallskip medskip bigskip em rm sf tt sc itshape "
    "bfseries normalfont small large Large LARGE footnotesize scriptsize tiny huge Huge "
    "normalsize mathstrut strut relax protect xspace hfill vfill clearpage newpage "
    "maketitle item".split()
)
_ACCENTS = {  # combining marks for \'e, \"o, \c{c}, ...
    "'": "\u0301",
    "`": "\u0300",
    "^": "\u0302",
    '"': "\u0308",
    "~": "\u0303",
    "=": "\u0304",
    ".": "\u0307",
    "u": "\u0306",
    "v": "\u030c",
    "H": "\u030b",
    "c": "\u0327",
    "k": "\u0328",
    "r": "\u030a",
    "d": "\u0323",
    "b": "\u0331",
}
_ESCAPES = {
    "%": "%",
    "&": "&",
    "#": "#",
    "_": "\ue003",
    "$": "\ue002",
    "{": "{",
    "}": "}",
    "|": "‖",
    "\\": " ",
    ",": " ",
    ";": " ",
    ":": " ",
    "!": "",
    " ": " ",
    "/": "",
    "-": "",
    "@": "",
    "*": "\ue004",
    "(": "(",
    ")": ")",
    "[": "[",
    "]": "]",
    "<": "<",
    ">": ">",
    "+": "+",
}
_OPTARG = frozenset(
    {"sqrt", "footnote", "footnotetext", "cite", "citep", "citet", "item", "includegraphics", "href"}
)

_KNOWN = (
    set(_GREEK) | set(_SYMBOLS) | _FUNCS | _UNWRAP | _DROP_ARG | set(_TWO_ARGS) | _DROP | {"sqrt", "unicode"}
)

# --- regexes --------------------------------------------------------------------------------

_RE_TOKEN = re.compile(r"\\[a-zA-Z]+\*?|\\.|\\$|[{}]|[^\\{}]+", re.S)
_RE_MATH = re.compile(
    r"\$\$(.*?)\$\$|\\\[(.*?)\\\]|\\\((.*?)\\\)|\$(.+?)\$"
    r"|\\begin\{(equation|align|gather|displaymath|math|eqnarray)(\*?)\}(.*?)\\end\{\5\6\}",
    re.S,
)
# attributes must look like attributes, so "$1<p \leq 2$ ... >" is not taken for a tag
_ATTRS = r"""(?:\s+[a-zA-Z_:][-\w:.]*(?:\s*=\s*(?:"[^"<>]*"|'[^'<>]*'|[^\s"'=<>`]+))?)*\s*/?>"""
_RE_HTML_INLINE = re.compile(
    r"</?(?:a|abbr|b|big|cite|code|del|dfn|em|font|i|ins|kbd|mark|q|s|samp|small|span|"
    r"strike|strong|sub|sup|tt|u|var)" + _ATTRS,
    re.I,
)
_RE_HTML_BLOCK = re.compile(
    r"</?(?:blockquote|br|dd|div|dl|dt|h[1-6]|hr|img|li|ol|p|pre|table|tbody|td|th|"
    r"thead|tr|ul)" + _ATTRS,
    re.I,
)
_RE_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});")
_RE_HYPHEN_BREAK = re.compile(r"(\w)-[ \t]*\n[ \t]*(?=\w)")
_RE_WS = re.compile(r"\s+")
_RE_SPACE_BEFORE_PUNCT = re.compile(r" ([.,;:!?)\]])")
_RE_SPACE_AFTER_OPEN = re.compile(r"([(\[]) ")
_RE_URL = re.compile(r"(?:https?: ?//|ftp://|www\.)[^\s<>\"'{}\[\]]*[^\s<>\"'{}\[\].,;:!?)]", re.I)
_RE_MD_LINK = re.compile(r"\[([^\[\]\n]+)\]\((?:[^()\s]+)\)")
_RE_MD_BOLD = re.compile(r"\*\*(?=[^\s*])(.+?)(?<=[^\s*])\*\*")
_RE_MD_ITAL = re.compile(r"\*(?<!\*\*)(?=[^\s*])([^*]+?)(?<=[^\s*])\*(?!\*)")
_RE_MD_UBOLD = re.compile(r"__(?<![\w_]__)(?=[^\s_])(.+?)(?<=[^\s_])__(?![\w_])")
_RE_MD_UITAL = re.compile(r"_(?<![\w_]_)(?=[^\s_])([^_]+?)(?<=[^\s_])_(?![\w_])")
_RE_MD_CODE = re.compile(r"`([^`\n]+)`")
_RE_STARS = re.compile(r"\*{2,}")
_RE_MATH_PH = re.compile("\ue000([0-9]+)\ue001")
_RE_TILDE = re.compile(r"(?<!\\)~")  # a tie (`Fig.~3`), not `\~{n}`
_RE_UNICODE_ARG = re.compile(r"\s*\{\s*(?:[xX]([0-9a-fA-F]{1,6})|([0-9]{1,7}))\s*\}")


def _repair_ctrl(m: re.Match) -> str:
    name = _CTRL_LETTER[m.group(1)] + m.group(2)
    # longest known command that is a prefix of the glued word ("\timesn" is rare; "\times")
    if name in _KNOWN:
        return "\\" + name
    return m.group(0)


def _entity(m: re.Match) -> str:
    return html.unescape(m.group(0))


# --- a small LaTeX renderer -----------------------------------------------------------------


_MAX_DEPTH = 60


class _Tokens:
    """Token stream with one-token push-back, enough for TeX-style argument grabbing."""

    __slots__ = ("toks", "i")

    def __init__(self, text: str):
        self.toks = _RE_TOKEN.findall(text)
        self.i = 0

    def peek(self):
        return self.toks[self.i] if self.i < len(self.toks) else None

    def next(self):
        tok = self.peek()
        self.i += 1
        return tok

    def skip_spaces(self):
        tok = self.peek()
        if tok is not None and tok[0] not in "\\{}" and tok.isspace():
            self.i += 1
        elif tok is not None and tok[0] not in "\\{}" and tok[0].isspace():
            self.toks[self.i] = tok.lstrip()


def _render(ts: _Tokens, math: bool, depth: int = 0) -> str:
    """Render tokens up to the matching '}' (or the end); consumes that '}'."""
    out: list[str] = []
    while True:
        tok = ts.next()
        if tok is None or tok == "}":
            if tok == "}" and depth == 0:
                continue  # stray closing brace at top level
            break
        if tok == "{":
            if depth < _MAX_DEPTH:
                out.append(_render(ts, math, depth + 1))
        elif tok[0] == "\\":
            out.append(_command(tok, ts, math, depth))
        elif math:
            out.append(tok.replace("_", "").replace("~", " "))
            if tok[-1] == "^" and ts.peek() == "{":  # x^{1+e} -> x^(1+e)
                ts.i += 1
                out.append(_paren(_render(ts, math, depth + 1)))
        else:
            out.append(tok)
    return "".join(out)


def _arg(ts: _Tokens, math: bool, depth: int) -> str:
    """One TeX argument: a braced group, a command, or a single character."""
    ts.skip_spaces()
    tok = ts.peek()
    if tok is None or tok == "}":
        return ""
    ts.i += 1
    if tok == "{":
        return _render(ts, math, depth + 1) if depth < _MAX_DEPTH else ""
    if tok[0] == "\\":
        return _command(tok, ts, math, depth + 1)
    if len(tok) > 1:
        ts.i -= 1
        ts.toks[ts.i] = tok[1:]
    return tok[0]


def _skip_optarg(ts: _Tokens) -> None:
    tok = ts.peek()
    if tok is not None and tok.startswith("["):
        end = tok.find("]")
        if end >= 0:
            rest = tok[end + 1 :]
            if rest:
                ts.toks[ts.i] = rest
            else:
                ts.i += 1


def _next_is_group(ts: _Tokens) -> bool:
    tok = ts.peek()
    if tok == "{":
        return True
    if tok is not None and tok.isspace() and ts.i + 1 < len(ts.toks):
        return ts.toks[ts.i + 1] == "{"
    return False


def _command(tok: str, ts: _Tokens, math: bool, depth: int) -> str:
    if depth >= _MAX_DEPTH:  # \sqrt\sqrt\sqrt... or {{{{...: stop recursing, drop it
        return ""
    if len(tok) == 2 and not tok[1].isalpha():  # \% \& \' ...
        ch = tok[1]
        if ch in _ACCENTS:
            return _accent(ch, _arg(ts, math, depth))
        return _ESCAPES.get(ch, "")
    if tok == "\\":
        return ""
    name = tok[1:].rstrip("*")
    if name in _ACCENTS and not math:  # \c{c}, \v{s}, \u{g}, \H{o}
        return _accent(name, _arg(ts, math, depth))
    if name in _GREEK:
        return _GREEK[name]
    if name in _SYMBOLS:
        return _SYMBOLS[name]
    if name in _FUNCS:
        return " " + name + " "
    if name in _UNWRAP:
        if name in ("bf", "it", "sl") and not _next_is_group(ts):
            return ""
        return _arg(ts, math or name.startswith("math"), depth)
    if name in _DROP_ARG:
        if name in _OPTARG:
            _skip_optarg(ts)
        if name in ("begin", "end") or name in _OPTARG or _next_is_group(ts):
            _arg(ts, math, depth)
        return " " if name.startswith("foot") else ""
    if name in _TWO_ARGS:
        if name in _OPTARG:
            _skip_optarg(ts)
        a, b = _arg(ts, math, depth), _arg(ts, math, depth)
        how = _TWO_ARGS[name]
        if how == 1:
            return b
        if how == -2:
            return f"C({a.strip()},{b.strip()})"
        return f"{_paren(a)}/{_paren(b)}"
    if name == "sqrt":
        _skip_optarg(ts)
        return "√" + _paren(_arg(ts, math, depth))
    if name == "unicode":
        m = _RE_UNICODE_ARG.match("".join(ts.toks[ts.i : ts.i + 4]))
        if m:
            _arg(ts, math, depth)
            code = int(m.group(1), 16) if m.group(1) else int(m.group(2))
            try:
                return chr(code).translate(_CHAR_MAP) if code < 0x110000 else ""
            except ValueError:
                return ""
        return ""
    if name in _DROP:
        return " "
    # unknown: inside math a formatting macro (drop the name, keep its argument as it is
    # rendered next); in text a user macro such as \CoT, \method or \ours{} whose name is a
    # word (an empty group after it only ends the name); \mymacro{arg} keeps its argument
    if math:
        return ""
    if _next_is_group(ts):
        ts.skip_spaces()
        if ts.i + 1 < len(ts.toks) and ts.toks[ts.i + 1] == "}":
            ts.i += 2
            return name
        return ""
    return name


def _paren(s: str) -> str:
    s = s.strip()
    return s if len(s) <= 1 or s.isalnum() else f"({s})"


def _accent(mark: str, base: str) -> str:
    if not base:
        return ""
    return unicodedata.normalize("NFC", base[0] + _ACCENTS[mark]) + base[1:]


def _latex(text: str, math: bool) -> str:
    return _render(_Tokens(text), math)


def _math_to_text(body: str) -> str:
    out = _RE_WS.sub(" ", _latex(body, math=True))
    # an em dash written as $\unicode{x2014}$ keeps its spaces; anything else is trimmed
    return (" " if out.startswith(" - ") else "") + out.strip() + (" " if out.endswith(" - ") else "")


# --- what an export adds around an abstract --------------------------------------------------

# Databases' stand-ins for a missing abstract (Scopus's "[No abstract available]", ...): empty.
_RE_PLACEHOLDER = re.compile(
    r"[\s\[\](){}<>.*_-]*(?:no\s+abstract(?:\s+is)?(?:\s+available)?(?:\s+for\s+this\s+\w+)?"
    r"|abstract(?:\s+is)?\s+(?:not\s+available|unavailable|missing)|not\s+available|n/?a|none|null|nan"
    r"|abstract|tba|tbd|to\s+be\s+announced)[\s\[\](){}<>.*_-]*",
    re.I,
)
# A publisher's notice ending an abstract, from the sentence that opens it to the end:
# "© 2023 Elsevier Inc. All rights reserved.", "© The Author(s), 2023. Published by ...",
# "Copyright © 2022 ...", "(C) 2019 Elsevier B.V.". "(c)" needs a year or "The Author"
# after it, and "Copyright" a ©, (c) or year, so "(c) we show ..." and "Copyright law ..." stay.
_RE_NOTICE = re.compile(
    r"(?:^|(?<=[.!?\"')\]])\s+|\s*\n\s*)"
    r"((?:©|Copyright\s*(?:©|\([cC]\)|\d{4})|\([cC]\)\s*(?:\d{4}|The\s+Author))[^©]{0,600}?)\s*$",
)


def split_abstract(raw: str) -> tuple[str, str]:
    """(abstract, notice): a placeholder for a missing abstract gives ("", ""); a publisher's
    copyright notice at the end is split off (docs/listings.md, "Cleaning rules")."""
    if len(raw) < 48 and _RE_PLACEHOLDER.fullmatch(raw):
        return "", ""
    if "©" not in raw and "(c)" not in raw.lower() and "opyright" not in raw:
        return raw, ""
    m = _RE_NOTICE.search(raw)
    if not m:
        return raw, ""
    return raw[: m.start()].rstrip(), " ".join(m.group(1).split())


def unescape_entities(text: str) -> str:
    """HTML entities decoded (`&amp;` -> `&`, `&#x2019;` -> `'`), as IEEE and PubMed write them."""
    return _RE_ENTITY.sub(_entity, text)


def display_text(text: str) -> str:
    """A title or author list as shown: one line, HTML entities decoded (`&amp;` -> `&`),
    inline HTML tags (`<i>E. coli</i>`) and invisible characters gone."""
    s = strip_invisible(text)
    if "<" in s:
        s = _RE_HTML_BLOCK.sub(" ", _RE_HTML_INLINE.sub("", s))
    if "&" in s:
        s = _RE_ENTITY.sub(_entity, s)
    return " ".join(s.split())


# Headings of a structured abstract ("BACKGROUND: ... METHODS: ..."; Emerald's "Purpose -"):
# dropped from the text that is embedded and named, so they never become topic terms.
_HEADINGS = (
    "abstract|background|backgrounds|introduction|context|objective|objectives|aim|aims|purpose|"
    "goal|goals|motivation|problem|rationale|hypothesis|methods|method|methodology|"
    "materials and methods|methods and materials|patients and methods|study design|design|"
    "setting|settings|participants|patients|subjects|population|interventions|intervention|"
    "measurements|main outcome measures|main outcomes and measures|outcomes|approach|"
    "design/methodology/approach|results|result|findings|main results|conclusion|conclusions|"
    "conclusions and relevance|interpretation|discussion|significance|implications|"
    "practical implications|social implications|research limitations/implications|"
    "originality/value|originality|value|limitations|relevance|trial registration|"
    "clinical trial registration|evidence|importance|exposures|summary"
)
_HEADING_NAMES = frozenset(_HEADINGS.split("|"))
_HEADING_MARKS = (":", " - ")  # "METHODS:", "Purpose - " (dashes are "-" by now)


def _drop_headings(s: str) -> str:
    """`s` without the headings of a structured abstract: a known heading word or phrase
    between the text's (or a sentence's) start and a colon or spaced dash. The marks are found
    with str.find (a C scan, several times faster than a regex's scan of an abstract), a few
    per abstract, and only the 50 characters before each are looked at (bench/parse_time.py)."""
    marks = []
    for mark in _HEADING_MARKS:
        i = s.find(mark)
        while i >= 0:
            marks.append((i, i + len(mark)))
            i = s.find(mark, i + len(mark))
    marks.sort()
    out: list[str] = []
    last = 0
    for end, after in marks:
        window = max(0, end - 50)
        cut = max(s.rfind(". ", window, end), s.rfind("! ", window, end), s.rfind("? ", window, end))
        start = cut + 2 if cut >= 0 else (0 if window == 0 else -1)
        if start < last or s[start:end].strip().lower() not in _HEADING_NAMES:
            continue
        while after < len(s) and s[after] == " ":
            after += 1
        if after == len(s):
            continue
        out.append(s[last:start])
        last = after
    return "".join(out) + s[last:] if out else s


# --- public ---------------------------------------------------------------------------------


def strip_invisible(text: str) -> str:
    """`text` without NUL, other control characters (tab and line breaks kept) and zero-width
    or bidi format characters: what a listing's raw abstract, title or metadata keeps."""
    if text.isascii() and text.isprintable():  # no control character: most titles and ids
        return text
    return text.translate(_INVISIBLE) if _RE_INVISIBLE.search(text) else text


def decode_latex(text: str) -> str:
    """LaTeX in text rendered as clean_text renders it (accents composed, `\\texttt{LLaMA}` ->
    `LLaMA`, `\\href{url}{text}` -> `text`, `\\ours{}` -> `ours`, braces gone), math kept as
    written for clean_text: what a BibTeX field shows. pylatexenc (bibtexparser's
    LatexDecodingMiddleware) is not used: it drops `\\texttt{LLaMA}` and `\\ours{}`, writes
    `\\citep{x}` as `<cit.>` and fails on `\\href{url}{text}`."""
    if "\\" not in text and "{" not in text and "}" not in text and "~" not in text:
        return text
    s = text.replace("\\$", "\ue002").replace("\\_", "\ue003")
    maths: list[str] = []

    def _stash(m: re.Match) -> str:
        maths.append(m.group(0))
        return f"\ue000{len(maths) - 1}\ue001"

    if "$" in s or "\\(" in s or "\\[" in s or "\\begin" in s:
        s = _RE_MATH.sub(_stash, s)
    s = _RE_TILDE.sub(" ", s.replace("``", '"').replace("''", '"'))
    s = _RE_SPACE_BEFORE_PUNCT.sub(r"\1", _latex(s, math=False))  # "baselines \citep{x}, and"
    if maths:
        s = _RE_MATH_PH.sub(lambda m: maths[int(m.group(1))], s)
    return s.replace("\ue002", "\\$").replace("\ue003", "_").replace("\ue004", "*")


def clean_text(raw: str) -> str:
    """Plain single-line text for embedding and keywords; see the module docstring."""
    if not isinstance(raw, str):
        return ""
    s = raw
    touched = False
    if "\t" in s or "\x0c" in s or "\x08" in s or "\r" in s or "\x0b" in s or "\x07" in s:
        s = _RE_CTRL_CMD.sub(_repair_ctrl, s)
    if "<" in s:
        touched = True
        s = _RE_HTML_INLINE.sub("", s)
        s = _RE_HTML_BLOCK.sub(" ", s)
    if "&" in s:
        s = _RE_ENTITY.sub(_entity, s)
    if not (s.isascii() and s.isprintable()) and _RE_CHAR_MAP.search(s):
        s = s.translate(_CHAR_MAP)
    if "-\n" in s or "- \n" in s:
        s = _RE_HYPHEN_BREAK.sub(r"\1-", s)
    if "\\" in s or "$" in s or "{" in s:
        touched = True
        s = s.replace("\\$", "\ue002").replace("\\_", "\ue003").replace("\\*", "\ue004")
        maths: list[str] = []
        if "$" in s or "\\(" in s or "\\[" in s or "\\begin" in s:

            def _stash(m: re.Match) -> str:
                body = next(
                    (
                        g
                        for g in (m.group(1), m.group(2), m.group(3), m.group(4), m.group(7))
                        if g is not None
                    ),
                    "",
                )
                maths.append(_math_to_text(body))
                return f"\ue000{len(maths) - 1}\ue001"

            s = _RE_MATH.sub(_stash, s)
        if "\\" in s or "{" in s or "}" in s:
            s = s.replace("``", '"').replace("''", '"')
            s = _latex(s, math=False)
        if maths:
            s = _RE_MATH_PH.sub(lambda m: maths[int(m.group(1))], s)
    if "*" in s or "_" in s or "`" in s or "](" in s:
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
    s = s.replace("\ue002", "$").replace("\ue003", "_").replace("\ue004", "*")
    if not s.isascii():
        # NFKC folds ligatures, full-width forms, super/subscript digits, odd spaces
        s = unicodedata.normalize("NFKC", s).translate(_CHAR_MAP)
    if "//" in s or "www." in s or "WWW." in s:
        touched = True
        s = _RE_URL.sub("", s)
    s = " ".join(s.split())
    if ":" in s or " - " in s:  # the cheap test: a heading needs one of these
        s = _drop_headings(s)
    if touched:  # removed markup can leave "word ." or "( x"
        s = _RE_SPACE_BEFORE_PUNCT.sub(r"\1", s)
        s = _RE_SPACE_AFTER_OPEN.sub(r"\1", s)
    return s


# --- markup dropped, for counting words (the name index reads texts through it) ----------
# clean_text renders math and keeps a command's argument, for reading and embedding; here the
# words of math, commands and URLs are dropped, so "log" or "mathcal" never become a name.
_RE_DROP_MATH = re.compile(
    r"\$\$.*?\$\$|\$[^$]*\$|\\\(.*?\\\)|\\\[.*?\\\]"
    r"|\\begin\{(\w+\*?)\}.*?\\end\{\1\}",
    re.S,
)
_RE_DROP_CMD = re.compile(r"\\(?:cite\w*|ref|eqref|label|url|footnote)\*?(?:\[[^\]]*\])?\{[^}]*\}")
_RE_ANY_CMD = re.compile(r"\\[A-Za-z]+\*?|\\.")
_RE_ANY_URL = re.compile(r"https?://\S+|www\.\S+")


def strip_markup(text: str) -> str:
    """Text without inline math, LaTeX commands and URLs (their words are not the topic's)."""
    text = _RE_ANY_URL.sub(" ", text or "")
    if "$" in text or "\\" in text:
        text = _RE_DROP_MATH.sub(" . ", text)
        text = _RE_DROP_CMD.sub(" ", text)
        text = _RE_ANY_CMD.sub(" ", text).replace("{", "").replace("}", "")
    return text
