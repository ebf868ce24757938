"""Authors as the export names them: one person per key.

Exports write one person several ways: "Bench-Capon, Trevor J. M." (WoS AF, PubMed FAU,
Scopus "Author full names", RIS), "Bench-Capon, TJM" (WoS AU), "Bench-Capon T.J.M." (Scopus
Authors, PubMed AU), "Trevor Bench‐Capon" (IEEE, BibTeX, given-first RIS). A name is read into
its surname and given names by nameparser (particles and hyphenated names kept whole: "van der
Berg", "Bench-Capon", "Del Fiol"; "Jr.", "III" dropped, never a surname or an initial; the plain
two-part forms without a particle split directly, as nameparser splits them), after folding
Unicode hyphens and dashes to "-", dropping Scopus's author ids ("(57255281800)"), maiden names
in brackets and nicknames in quotes, and turning the surname-first forms without a comma
("Smith J.", "Wójcik AM") into "Smith, J.".

Its key is the surname and the first given name written out, then the other given names'
initials ("bench-capon trevor jm") where the export gives the name, else the surname and all
initials, bibliometrix's form ("bench-capon tjm"); accents and capitals folded. Within a
listing (author_keys), a form that says less (fewer initials, or initials only) is one person
with the only fuller form it agrees with ("Trevor Bench-Capon", "Bench-Capon, T." and
"Bench-Capon, TJM" with "Bench-Capon, Trevor J. M."), and stays apart where two fuller forms
agree with it ("Wang, Y." beside "Wang, Yan" and "Wang, Yu").

An author cell is a list split on ";" (every export's separator); a column without ";" whose
commas separate names of two words or more ("J Smith, A Jones": Publish or Perish, older Scopus
"Smith J., Jones A.") is split on its commas.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import lru_cache

_HYPHENS = re.compile("[\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d]")
# Scopus's author id "(57255281800)", a maiden name "(Turkoglu)", a nickname "“Rik”"
_ASIDE = re.compile(r"\s*(?:\([^()]*\)|“[^”]*”|\"[^\"]*\")")
# a token of initials: dotted ("J.", "J.-N.", "T.J.M."), or up to 3 capitals ("JH", "TJM")
_CAPITALS = re.compile(r"^-?(?:[A-Z]-?){1,3}$")
_DOTTED = re.compile(r"^(?:[A-Z]\.-?)+$")
# generational suffixes: "Jr.", "III" (never a surname or an initial); "JR" undotted is initials
_SUFFIX = re.compile(r"(?<![^\s,])(?:[JS]r\.?|[JS]R\.|II|III|IV|2nd|3rd)(?![^\s,])")
_NOT_A_NAME = re.compile(r"^(?:et al\.?|others|\[?anonymous\]?|\.\.\.|…)$", re.I)


@dataclass(frozen=True)
class Person:
    """One written name in its parts: surname, the first given name written out (or ""), and
    the initials of every given name (hyphenated ones give an initial per part)."""

    surname: str
    first: str
    initials: str

    @property
    def key(self) -> str:
        if self.first:
            rest = self.initials[len(_initials(self.first)) :]
            return " ".join(p for p in (self.surname, self.first, rest) if p)
        return " ".join(p for p in (self.surname, self.initials) if p)

    def agrees(self, fuller: Person) -> bool:
        """Whether this form may name the person `fuller` writes out more fully."""
        if self.surname != fuller.surname or not fuller.initials.startswith(self.initials):
            return False
        return not self.first or self.first == fuller.first


def _fold(text: str) -> str:
    """Lower case without accents: "Wójcik" -> "wojcik"."""
    text = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in text if not unicodedata.combining(c))


def _initials(given: str) -> str:
    """Initials of given names: "Jan-Niklas" -> "jn", "T.J.M." -> "tjm", "HQ" -> "hq"."""
    out = []
    for token in re.split(r"[\s.]+", given.strip()):
        if _CAPITALS.match(token):
            out += [c for c in token if c.isalpha()]
        elif token.strip("-"):
            out += [part[0] for part in token.split("-") if part]
    return _fold("".join(out))


def _is_initials(token: str) -> bool:
    return bool(_DOTTED.match(token) or _CAPITALS.match(token))


def clean_name(name: str) -> str:
    """A written name with its hyphens folded, asides (Scopus id, nickname) and format
    characters (bidirectional marks) dropped, spaces squashed."""
    name = _HYPHENS.sub("-", unicodedata.normalize("NFKC", str(name)))
    name = "".join(c for c in name if unicodedata.category(c) != "Cf")
    return " ".join(_ASIDE.sub("", name).split()).strip(" ,;")


def _surname_first(name: str) -> str:
    """ "Smith J." -> "Smith, J."; given-first forms ("J. Smith", "John Smith") unchanged."""
    if "," in name:
        return name
    tokens = name.split()
    if len(tokens) < 2:
        return name
    last, first = tokens[-1], tokens[0]
    if _is_initials(last) and not (_is_initials(first) and len(first.strip(".")) <= len(last.strip("."))):
        k = len(tokens) - 1
        while k > 1 and _is_initials(tokens[k - 1]):  # "Bench-Capon T. J. M."
            k -= 1
        return " ".join(tokens[:k]) + ", " + " ".join(tokens[k:])
    return name


@lru_cache(maxsize=65536)
def parse_name(name: str) -> Person | None:
    """One written name as a Person; None for no name ("et al.", empty)."""
    name = clean_name(name)
    if not name or _NOT_A_NAME.match(name):
        return None
    bare = re.sub(r"\s*(?:,\s*)+", ", ", " ".join(_SUFFIX.sub(" ", name).split())).strip(" ,")
    if "," in name and "," not in _surname_first(bare):  # "van Driel, II": initials, no suffix
        bare = name
    surname, given = _parts(_surname_first(bare))
    if not surname:
        return None
    tokens = [t for t in re.split(r"[\s.]+", given) if t]
    written = tokens[0] if tokens and not _is_initials(tokens[0]) and len(tokens[0].strip("-")) > 1 else ""
    return Person(_fold(surname), _fold(written), _initials(given))


def _parts(name: str, fast: bool = True) -> tuple[str, str]:
    """(surname, given names) of a name: "Surname, Given" and "Given Surname" without a
    lower-case word (a particle: "van", "de") split where they are written (what nameparser
    gives them, measured on every form of the shared exports and NeurIPS 2023, in a tenth of
    its time: ~0.5 ms a name); the others by nameparser."""
    head, comma, tail = name.partition(",")
    words = name.replace(",", " ").split()
    particle = any(w[:1].islower() or w.casefold() in _particles() for w in words)
    if fast and not particle and "," not in tail:
        if comma and head.strip() and tail.strip():
            return " ".join(head.split()), " ".join(tail.split())
        if not comma and len(words) == 2:
            return words[1], words[0]
    from nameparser import HumanName

    parsed = HumanName(name, constants=_constants())
    if not parsed.last.strip():  # one word: "Aristotle"
        return " ".join(parsed.first.split()), " ".join(parsed.middle.split())
    # a third part is a given name here ("Erdmann, Mark, V": WoS's middle initial), as
    # nameparser knows no suffix under _constants
    given = " ".join(p for p in (parsed.first, parsed.middle, parsed.suffix) if p)
    return " ".join(parsed.last.split()), " ".join(given.split())


@lru_cache(maxsize=1)
def _particles() -> frozenset[str]:
    """nameparser's surname particles ("van", "de", "del", "te"), which it joins to the surname."""
    return frozenset(p.casefold() for p in _constants().prefixes)


@lru_cache(maxsize=1)
def _constants():
    """nameparser's rules without titles ("Dean", "Judge" and "Major" are given names here) and
    suffixes (_SUFFIX drops the generational ones first; its degrees "MA", "AM", "DO" are initials
    here)."""
    from nameparser.config import Constants

    return Constants(
        titles=[],
        first_name_titles=[],
        suffix_acronyms=[],
        suffix_acronyms_ambiguous=[],
        suffix_not_acronyms=[],
    )


def author_key(name: str) -> str:
    """The key of one written name, alone ("smith john", "smith j"); "" for no name."""
    person = parse_name(name)
    return person.key if person else ""


def author_keys(names) -> dict[str, str]:
    """{written name: its person's key} over a listing's names: each form joins the only fullest
    form with a given name written out that it agrees with (Person.agrees); where two such do,
    or none, it keeps its own key (two forms of initials alone stay apart, as in bibliometrix)."""
    people = {n: p for n in dict.fromkeys(names) if (p := parse_name(n)) is not None}
    by_block: dict[tuple[str, str], set[Person]] = {}
    for person in set(people.values()):
        by_block.setdefault((person.surname, person.initials[:1]), set()).add(person)
    joined: dict[Person, Person] = {}
    for block in by_block.values():
        written = [p for p in block if p.first]
        fullest = [p for p in written if not any(p != q and p.agrees(q) for q in written)]
        for person in block:
            anchors = [q for q in fullest if person.agrees(q)]
            joined[person] = anchors[0] if len(anchors) == 1 else person
    return {name: joined[person].key for name, person in people.items()}


def comma_lists(cells) -> bool:
    """Whether an author column writes its lists with commas: no cell has ";" and most cells
    with a comma separate names of two words or more ("J Smith, A Jones")."""
    cells = [str(c) for c in cells if str(c).strip()]
    if any(";" in c for c in cells):
        return False
    with_commas = [c for c in cells if "," in c]
    if not with_commas:
        return False
    lists = sum(all(len(part.split()) >= 2 for part in c.split(",") if part.strip()) for c in with_commas)
    return lists >= len(with_commas) / 2


def split_authors(cell: str, commas: bool = False) -> list[str]:
    """One cell's names, split on ";" (or on "," and " and " for a comma-list column)."""
    parts = re.split(r",|\band\b" if commas else ";", str(cell))
    return [clean_name(p) for p in parts if clean_name(p) and not _NOT_A_NAME.match(clean_name(p))]
