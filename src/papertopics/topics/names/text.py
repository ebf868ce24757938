"""Words and phrases of abstracts: markup stripped, tokens, casing, acronyms spelled out.

What the name index (topics.names.index) reads a text with: math and LaTeX removed before
anything is counted (so "log" or "tγ" cannot become a name), words that may not start or end a
phrase, acronyms defined in the corpus ("long form (ACRONYM)", the Schwartz-Hearst alignment,
the capitals spelling the long form's word starts) and their expansion, words cased as the
abstracts write them mid-sentence (GNN, ReLU, Pokémon, but "language models").
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict

from papertopics.ingest.text import CJK_LETTERS
from papertopics.topics.stopwords import DOMAIN_STOP_WORDS, ENGLISH_STOP_WORDS, plural, singular

# Words that may not start or end a name; "models" etc. may end a multi-word one
# ("diffusion models") but never be a name alone or start one.
EDGE_STOP = (
    frozenset(ENGLISH_STOP_WORDS)
    | (DOMAIN_STOP_WORDS - {"large", "small", "high", "low"})
    | frozenset(
        """state-of-the-art real-world large-scale high-quality well-known fine-grained end-to-end
    i.e e.g etc given due based-on new novel existing many several various multiple
    log exp sin cos max min sup inf lim argmax argmin sqrt det tr mod iff resp wrt
    first-order second-order findings insights prove proves proved proving
    """.split()
    )
)
END_OK = frozenset(
    "model models framework frameworks method methods algorithm algorithms "
    "approach approaches analysis problem problems".split()
)
# Words too generic to be a name on their own.
# Function characters that may not start or end a CJK name.
_CJK_STOP = frozenset("的了和与及或是在对中为以将把被等其这那我们你他她它之而并且也就都所从到由于因")

_CJK = CJK_LETTERS
RE_WORD = re.compile(rf"[^\W\d_{_CJK}][\w\-]*[^\W_]|[^\W\d_{_CJK}]|[{_CJK}]+")
RE_CJK = re.compile(rf"[{_CJK}]")
# Words, or one separator: a punctuation mark or a number (a phrase never crosses either).
RE_TOKEN = re.compile(rf"{RE_WORD.pattern}|\d[\w.]*|[^\w\s]|_+")
RE_INITIAL = re.compile(rf"(?:^|[.!?:。]\s+)({RE_WORD.pattern})")
# Two or more capitalised words in a row: a name defined in Title Case ("Neural Tangent Kernel").
# (No leading \b: it costs twice the time, and a run starting inside a word only adds a piece.)
RE_TITLED = re.compile(r"[A-Z][a-z]+(?:[ -][A-Z][a-z]+)+\b")
_RE_ACRONYM = re.compile(r"\(\s*([A-Za-z][\w\-]{0,11})\s*[);,]")
_RE_CLAUSE_END = re.compile(r"[()\[\].;:!?,]")
_RE_PLAIN_WORD = re.compile(r"[^\W\d_][\w\-]*")


def fold(words) -> tuple[str, ...]:
    """A phrase's identity for counting: each (lower-case) word singular, hyphens dropped
    ("k-means" = "kmeans", "graphs" = "graph"); the one fold of the names and of bench/."""
    return tuple(singular(w.replace("-", "")) for w in words)


def fold_text(text: str) -> tuple[str, ...]:
    """`fold` of a text's words, lower case ("Graph-Neural Networks" -> ("graphneural", "network"))."""
    return fold(re.findall(r"[\w\-]+", text.lower()))


def is_acronym(word: str) -> bool:
    return sum(c.isupper() for c in word) >= 2 and len(word) <= 12


def acronym_key(word: str) -> str:
    """ "LLMs" -> "LLM", "GNN" -> "GNN"."""
    return word[:-1] if len(word) > 2 and word.endswith("s") and word[-2].isupper() else word


def _long_form(short: str, words: list[str]) -> list[str] | None:
    """Schwartz & Hearst (2003): the shortest tail of `words` whose letters spell `short`."""
    letters = [c.lower() for c in short if c.isalnum()]
    if len(letters) < 2 or not letters[0].isalpha():
        return None
    text = " ".join(words[-min(len(letters) + 5, 2 * len(letters)) :])
    s, i = len(letters) - 1, len(text) - 1
    while s >= 0:
        c = letters[s]
        while i >= 0 and (text[i].lower() != c or (s == 0 and i > 0 and text[i - 1].isalnum())):
            i -= 1
        if i < 0:
            return None
        i -= 1
        s -= 1
    start = text.rfind(" ", 0, i + 1) + 1
    tail = text[start:].split()
    if not tail or tail[0].lower() in ENGLISH_STOP_WORDS or tail[-1].lower() in ENGLISH_STOP_WORDS:
        return None
    parts = sum(len([p for p in w.split("-") if p]) for w in tail)
    if len(tail) > len(letters) + 1 or parts < min(2, len(letters)) or 2 * parts < len(letters):
        return None  # "attacks (AA)" is not a definition
    if any(RE_CJK.search(w) for w in tail):
        return None
    return tail if letters_fit(short, tail) else None


def letters_fit(short: str, words: list[str] | tuple[str, ...]) -> bool:
    """Do the acronym's capitals spell the long form's word starts, in order, each content word
    giving one? "SGD" fits "stochastic gradient descent", "SSGD" does not; "ViT" fits "vision
    transformer" and "CoT" "chain-of-thought" (lower-case letters may come from inside a word)."""
    capitals = [c.lower() for c in short if c.isupper()] or [short[0].lower()]
    parts = [(k, p.lower()) for k, w in enumerate(words) for p in w.split("-") if p]
    content = frozenset(k for k, w in enumerate(words) if w.lower() not in ENGLISH_STOP_WORDS)

    def fits(c: int, at: int, used: frozenset) -> bool:  # a few letters and words: a tiny search
        if c == len(capitals):
            return content <= used
        return any(
            parts[j][1][0] == capitals[c] and fits(c + 1, j + 1, used | {parts[j][0]})
            for j in range(at, len(parts))
        )

    return fits(0, 0, frozenset())


def collect_acronyms(texts: list[str]) -> dict[str, tuple[tuple[str, ...], str]]:
    """Acronym key -> (long form words, lower case; acronym key) from the corpus's definitions.

    The most frequent definition wins ("RL" -> reinforcement learning); an acronym defined once
    is enough, since the corpus is the authority on what its authors mean.
    """
    found: dict[str, Counter] = defaultdict(Counter)
    for text in texts:
        if "(" not in text:
            continue
        for m in _RE_ACRONYM.finditer(text):
            short = m.group(1)
            if not is_acronym(short):
                continue
            before = _RE_CLAUSE_END.split(text[max(0, m.start() - 160) : m.start()])[-1]
            words = [w for w in before.split() if _RE_PLAIN_WORD.fullmatch(w)]
            key = acronym_key(short)
            tail = _long_form(key, words)
            if tail is not None:
                found[key][tuple(w.lower() for w in tail)] += 1
    out = {}
    for key, forms in found.items():
        merged: Counter = Counter()
        for form, count in forms.items():
            merged[fold(form)] += count
        ranked = merged.most_common(2)
        if len(ranked) > 1 and ranked[1][1] >= 0.25 * ranked[0][1]:
            continue  # "SSL": self- or semi-supervised; a bare acronym is truer than a guess
        best = max(
            (f for f in forms if fold(f) == ranked[0][0]),
            key=lambda f: forms[f],
        )
        out[key] = (best, key, ranked[0][1])
    # one long form, two acronyms ("SGD" and "SSGD" for stochastic gradient descent): the
    # corpus's usual one names it, the other is not spelled out
    by_form: dict[tuple[str, ...], str] = {}
    for key, (best, _, _count) in sorted(out.items(), key=lambda kv: (-kv[1][2], kv[0])):
        by_form.setdefault(fold(best), key)
    return {key: (best, key) for key, (best, _, _) in out.items() if key in by_form.values()}


def is_plural(text: str) -> bool:
    """Does a phrase end in a plural noun? "aspect-based sentiment analysis" does not, nor does
    "Mixture-of-Experts", whose head is "Mixture"."""
    head = re.split(r"-of-", text.split()[-1], flags=re.IGNORECASE)[0].lower()
    return singular(head) != head


def akin(one: tuple[str, ...], other: tuple[str, ...]) -> bool:
    """Do two phrases share a word, or a word's stem ("labels" / "unlabeled", "visualization" /
    "visualizing", "images" / "imaging")? Then the second says the first again."""
    for a in one:
        for b in other:
            short, long = sorted((a, b), key=len)
            if (
                a == b
                or (len(short) >= 4 and short in long)
                or (len(short) >= 6 and long[:6] == short[:6])
                or (len(short) >= 5 and long.startswith(short[:-1]))
            ):
                return True
    return False


def inside(short: tuple[str, ...], long: tuple[str, ...]) -> bool:
    if len(short) >= len(long):
        return False
    n = len(short)
    return any(long[i : i + n] == short for i in range(len(long) - n + 1))


def lower_words(words: list[str], expand: dict[str, tuple[str, ...]]) -> list[str]:
    """Lower-case words of a segment, acronyms defined in the corpus spelled out, CJK split."""
    lower: list[str] = []
    for w in words:
        if w[0] >= "\u3040" and RE_CJK.match(w):
            lower.extend(w)  # CJK has no spaces: characters are its words, a run is split
            continue
        if w[0].isupper() and len(w) > 1:
            key = acronym_key(w)
            if key in expand and is_acronym(w):
                form = expand[key]
                last = form[-1]
                if "-" not in last and "of" not in form:
                    # "LLM unlearning": large language model ...; "LLMs": large language models
                    form = (*form[:-1], singular(last) if w == key else plural(singular(last)))
                lower.extend(form)
                continue
        lower.append(w.lower())
    return lower


class TokenIds(dict):
    """Memo: surface token -> word ids of its lower-case words; [-1] for anything not a word."""

    def __init__(self, words: dict[str, int], expand: dict[str, tuple[str, ...]]):
        super().__init__()
        self.words, self.expand = words, expand

    def __missing__(self, token: str) -> list[int]:
        if not RE_WORD.fullmatch(token):
            ids = [-1]
        else:
            ids = [self.words.setdefault(w, len(self.words)) for w in lower_words([token], self.expand)]
        self[token] = ids
        return ids


def word_flags(w: str) -> tuple[bool, bool, bool, bool]:
    """(may start a phrase, may end one, is a stop word, is CJK) for one lower-case word."""
    if w[0] >= "\u3040" and RE_CJK.match(w):
        return (w not in _CJK_STOP, w not in _CJK_STOP, False, True)
    start = w not in EDGE_STOP and len(w) > 1 and w[0] != "-" and w[-1] != "-"
    return (start, start or w in END_OK, w in ENGLISH_STOP_WORDS, False)


def join_words(words: list[str]) -> str:
    return "".join(words) if RE_CJK.match(words[0]) else " ".join(words)


def display_form(phrase: str, word_case: dict[str, str]) -> str:
    if RE_CJK.search(phrase):
        return phrase
    out = []
    for w in phrase.split(" "):
        cased = word_case.get(w)
        out.append(cased if cased else w)
    return " ".join(out)
