"""LaTeX: a small renderer (the tables are latex_tables.py), the one math regex, and the two
ways text is read: `decode_latex` (what a BibTeX field shows, math kept as written) and
`render_latex` (what clean_text embeds, math rendered: $\\mathcal{O}(n \\log n)$ -> "O(n log n)")."""

from __future__ import annotations

import re
import unicodedata

from papertopics.ingest.text.chars import CHAR_MAP
from papertopics.ingest.text.latex_tables import (
    ACCENTS,
    DROP,
    DROP_ARG,
    ESCAPES,
    FUNCS,
    GREEK,
    OPTARG,
    SYMBOLS,
    TWO_ARGS,
    UNWRAP,
    TwoArgs,
)

__all__ = ["RE_MATH", "decode_latex", "render_latex"]

_RE_TOKEN = re.compile(r"\\[a-zA-Z]+\*?|\\.|\\$|[{}]|[^\\{}]+", re.S)
# The one math regex: $$...$$, \[...\], \(...\), $...$, and the math environments.
RE_MATH = re.compile(
    r"\$\$(.*?)\$\$|\\\[(.*?)\\\]|\\\((.*?)\\\)|\$(.+?)\$"
    r"|\\begin\{(equation|align|gather|displaymath|math|eqnarray)(\*?)\}(.*?)\\end\{\5\6\}",
    re.S,
)
_MATH_BODIES = (1, 2, 3, 4, 7)  # RE_MATH's groups holding the formula
_RE_MATH_PH = re.compile("\ue000([0-9]+)\ue001")
_RE_TILDE = re.compile(r"(?<!\\)~")  # a tie (`Fig.~3`), not `\~{n}`
_RE_UNICODE_ARG = re.compile(r"\s*\{\s*(?:[xX]([0-9a-fA-F]{1,6})|([0-9]{1,7}))\s*\}")
_RE_WS = re.compile(r"\s+")
_RE_SPACE_BEFORE_PUNCT = re.compile(r" ([.,;:!?)\]])")
_MAX_DEPTH = 60


class _Tokens:
    """Token stream with one-token push-back, enough for TeX-style argument grabbing."""

    __slots__ = ("i", "toks")

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
        if ch in ACCENTS:
            return _accent(ch, _arg(ts, math, depth))
        return ESCAPES.get(ch, "")
    if tok == "\\":
        return ""
    name = tok[1:].rstrip("*")
    if name in ACCENTS and not math:  # \c{c}, \v{s}, \u{g}, \H{o}
        return _accent(name, _arg(ts, math, depth))
    if name in GREEK:
        return GREEK[name]
    if name in SYMBOLS:
        return SYMBOLS[name]
    if name in FUNCS:
        return " " + name + " "
    if name in UNWRAP:
        if name in ("bf", "it", "sl") and not _next_is_group(ts):
            return ""
        return _arg(ts, math or name.startswith("math"), depth)
    if name in DROP_ARG:
        if name in OPTARG:
            _skip_optarg(ts)
        if name in ("begin", "end") or name in OPTARG or _next_is_group(ts):
            _arg(ts, math, depth)
        return " " if name.startswith("foot") else ""
    if name in TWO_ARGS:
        return _two_args(name, ts, math, depth)
    if name == "sqrt":
        _skip_optarg(ts)
        return "√" + _paren(_arg(ts, math, depth))
    if name == "unicode":
        return _unicode(ts, math, depth)
    if name in DROP:
        return " "
    return _unknown(name, ts, math)


def _two_args(name: str, ts: _Tokens, math: bool, depth: int) -> str:
    if name in OPTARG:
        _skip_optarg(ts)
    a, b = _arg(ts, math, depth), _arg(ts, math, depth)
    how = TWO_ARGS[name]
    if how is TwoArgs.SECOND:
        return b
    if how is TwoArgs.BINOMIAL:
        return f"C({a.strip()},{b.strip()})"
    return f"{_paren(a)}/{_paren(b)}"


def _unicode(ts: _Tokens, math: bool, depth: int) -> str:
    """\\unicode{x2014} (MathJax): the character, folded as text is."""
    m = _RE_UNICODE_ARG.match("".join(ts.toks[ts.i : ts.i + 4]))
    if not m:
        return ""
    _arg(ts, math, depth)
    code = int(m.group(1), 16) if m.group(1) else int(m.group(2))
    try:
        return chr(code).translate(CHAR_MAP) if code < 0x110000 else ""
    except ValueError:
        return ""


def _unknown(name: str, ts: _Tokens, math: bool) -> str:
    """An unknown command: inside math a formatting macro (drop the name, keep its argument as it
    is rendered next); in text a user macro such as \\CoT, \\method or \\ours{} whose name is a
    word (an empty group after it only ends the name); \\mymacro{arg} keeps its argument."""
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
    return unicodedata.normalize("NFC", base[0] + ACCENTS[mark]) + base[1:]


def _latex(text: str, math: bool) -> str:
    return _render(_Tokens(text), math)


def _math_to_text(body: str) -> str:
    out = _RE_WS.sub(" ", _latex(body, math=True))
    # an em dash written as $\unicode{x2014}$ keeps its spaces; anything else is trimmed
    return (" " if out.startswith(" - ") else "") + out.strip() + (" " if out.endswith(" - ") else "")


def _has_math(s: str) -> bool:
    return "$" in s or "\\(" in s or "\\[" in s or "\\begin" in s


def _stash_math(s: str, render: bool) -> tuple[str, list[str]]:
    """`s` with each formula replaced by a placeholder, and the formulas (rendered or as written)."""
    maths: list[str] = []

    def _stash(m: re.Match) -> str:
        if render:
            body = next((m.group(g) for g in _MATH_BODIES if m.group(g) is not None), "")
            maths.append(_math_to_text(body))
        else:
            maths.append(m.group(0))
        return f"\ue000{len(maths) - 1}\ue001"

    return (RE_MATH.sub(_stash, s), maths) if _has_math(s) else (s, maths)


def _unstash(s: str, maths: list[str]) -> str:
    return _RE_MATH_PH.sub(lambda m: maths[int(m.group(1))], s) if maths else s


def decode_latex(text: str) -> str:
    """LaTeX in text rendered as clean_text renders it (accents composed, `\\texttt{LLaMA}` ->
    `LLaMA`, `\\href{url}{text}` -> `text`, `\\ours{}` -> `ours`, braces gone), math kept as
    written for clean_text: what a BibTeX field shows."""
    if "\\" not in text and "{" not in text and "}" not in text and "~" not in text:
        return text
    s, maths = _stash_math(text.replace("\\$", "\ue002").replace("\\_", "\ue003"), render=False)
    s = _RE_TILDE.sub(" ", s.replace("``", '"').replace("''", '"'))
    s = _RE_SPACE_BEFORE_PUNCT.sub(r"\1", _latex(s, math=False))  # "baselines \citep{x}, and"
    s = _unstash(s, maths)
    return s.replace("\ue002", "\\$").replace("\ue003", "_").replace("\ue004", "*")


def render_latex(s: str) -> str:
    """Text with its math rendered and its commands resolved; `\\$`, `\\_`, `\\*` stay as the
    placeholders \\ue002-\\ue004 (clean_text puts the characters back after markdown)."""
    s = s.replace("\\$", "\ue002").replace("\\_", "\ue003").replace("\\*", "\ue004")
    s, maths = _stash_math(s, render=True)
    if "\\" in s or "{" in s or "}" in s:
        s = _latex(s.replace("``", '"').replace("''", '"'), math=False)
    return _unstash(s, maths)
