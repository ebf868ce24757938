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
initials, bibliometrix's form ("bench-capon tjm"); accents, capitals and apostrophes folded
("O’Brien" is "O'Brien", a BibTeX dotless "\\'{\\i}" an i). Within a listing (author_keys), a
form with a given name written out ("Trevor Bench-Capon") is one person with the only fuller
form it agrees with ("Trevor J. M. Bench-Capon"). A form of initials only ("Wang, Y") joins a
full name only where the export links them (the same record's short and full forms: Scopus
"Authors" and "Author full names", WoS AU and AF; one Scopus author id), or where it gives every
initial of the only full name its initials may stand for ("Bench-Capon, TJM" with
"Bench-Capon, Trevor J. M.", never "Wang, Y" with "Wang, Yan Li" nor beside "Wang, Yan" and
"Wang, Yu"): a WoS export gives full names from 2006 only, and an earlier "Wang, Y" is not
every later Wang Y. A Scopus author id ("Hahn, Waldemar (57255281800)") is the person where
the export gives it: one id's forms are one person, two ids are two people of one name.

An author cell is a list split on ";" (every export's separator), and on " and " inside a part
("John Smith and Alan Jones"); a column without ";" whose commas separate names of two words or
more ("J Smith, A Jones": Publish or Perish, older Scopus "Smith J., Jones A.") is split on its
commas, Google Scholar's truncation ", ..." and "et al." dropped. A given-first name whose last
words are a surname written first elsewhere in the listing ("Gabriel García Márquez" beside
"García Márquez, Gabriel") takes that compound surname.
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
# "Smith et al." (a truncated list: its first author), "J Smith ..." / "J Smith…" (Google Scholar)
_TRAILING = re.compile(r"(?:\s*,?\s+et\.?\s+al\.?|\s*(?:\.\.\.|…))$", re.I)
_APOSTROPHES = re.compile("[\u2018\u2019\u02bc\u02b9\u0060\u00b4\u2032]")
# a Scopus author id written beside the name: "Hahn, Waldemar (57255281800)"
_AUTHOR_ID = re.compile(r"\((\d{6,})\)")


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
    text = unicodedata.normalize("NFKD", text.casefold().replace("\u0131", "i"))  # dotless ı (BibTeX \\i)
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


@lru_cache(maxsize=1 << 17)  # a listing writes each name many times (2.7 s of NeurIPS 2023's tweak)
def clean_name(name: str) -> str:
    """A written name with its hyphens folded, asides (Scopus id, nickname) and format
    characters (bidirectional marks) dropped, spaces squashed."""
    name = _HYPHENS.sub("-", unicodedata.normalize("NFKC", str(name)))
    name = _APOSTROPHES.sub("'", "".join(c for c in name if unicodedata.category(c) != "Cf"))
    name = " ".join(_ASIDE.sub("", name).split()).strip(" ,;")
    return _TRAILING.sub("", name).strip(" ,;")


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


def author_id(name: str) -> str:
    """The Scopus author id written beside a name ("Hahn, Waldemar (57255281800)"), else ""."""
    found = _AUTHOR_ID.search(str(name))
    return found.group(1) if found else ""


def _compound_surnames(names) -> dict[str, str]:
    """{folded "Given Surname Words": "Surname Words, Given"} for given-first names without a
    comma whose last two words or more are a surname written first elsewhere in the listing."""
    surnames = set()
    for name in names:
        head, comma, _tail = clean_name(name).partition(",")
        if comma and len(head.split()) >= 2:
            surnames.add(_fold(head))
    out = {}
    for name in names:
        words = clean_name(name).split()
        if "," in name or len(words) < 3:
            continue
        for k in range(1, len(words) - 1):
            if _fold(" ".join(words[k:])) in surnames:
                out[name] = " ".join(words[k:]) + ", " + " ".join(words[:k])
                break
    return out


def author_keys(names, links=None) -> dict[str, str]:
    """{written name: its person's key} over a listing's names (module docstring).

    links: pairs (short form, full form) the export itself writes for one person (the same
    record's "Authors" and "Author full names", WoS AU and AF). A name with a Scopus author id
    (author_id) is one person with every form of that id; two ids of one key are two people
    ("wang yan (123)", "wang yan (456)")."""
    # the job asks twice for one listing (topic_sources, author_table): computed once
    return dict(_author_keys(tuple(dict.fromkeys(names)), tuple(links or ())))


@lru_cache(maxsize=2)
def _author_keys(names: tuple[str, ...], links: tuple) -> dict[str, str]:
    names = list(names)
    compound = _compound_surnames(names)
    people = {n: p for n in names if (p := parse_name(compound.get(n, n))) is not None}
    by_block: dict[tuple[str, str], set[Person]] = {}
    for person in set(people.values()):
        by_block.setdefault((person.surname, person.initials[:1]), set()).add(person)
    linked: dict[Person, set[Person]] = {}
    for short, full in links or ():
        a, b = parse_name(short), parse_name(full)
        if a is not None and b is not None and a != b and a.surname == b.surname:
            linked.setdefault(a, set()).add(b)
    joined: dict[Person, Person] = {}
    for block in by_block.values():
        written = [p for p in block if p.first]
        fullest = [p for p in written if not any(p != q and p.agrees(q) for q in written)]

        def top(person: Person, fullest: list[Person] = fullest) -> Person:
            anchors = [q for q in fullest if person.agrees(q)]
            return anchors[0] if len(anchors) == 1 else person

        for person in block:
            if person.first:
                joined[person] = top(person)
                continue
            targets = {top(q) for q in linked.get(person, ())}
            if len(targets) == 1:  # the export links this form to one full name
                joined[person] = targets.pop()
                continue
            anchors = {top(q) for q in written if person.agrees(q)}
            only = anchors.pop() if len(anchors) == 1 else None
            joined[person] = only if only is not None and only.initials == person.initials else person
    keys = {name: joined[person].key for name, person in people.items()}
    # Scopus author ids: one id's forms are one person, shown under its fullest key
    by_id: dict[str, list[str]] = {}
    for name in keys:
        if ident := author_id(name):
            by_id.setdefault(ident, []).append(name)
    id_key = {
        ident: max((keys[n] for n in forms), key=lambda k: (len(k), k)) for ident, forms in by_id.items()
    }
    ids_of_key: dict[str, set[str]] = {}
    for ident, key in id_key.items():
        ids_of_key.setdefault(key, set()).add(ident)
    for ident, forms in by_id.items():
        key = id_key[ident]
        shown = f"{key} ({ident})" if len(ids_of_key[key]) > 1 else key
        for name in forms:
            keys[name] = shown
    return keys


def linked_forms(short_cell: str, full_cell: str, commas: bool = False) -> list[tuple[str, str]]:
    """(short form, full form) pairs of one record whose two author cells list the same number of
    names in one order (Scopus "Authors" and "Author full names", WoS AU and AF)."""
    short, full = split_authors(short_cell, commas), split_authors(full_cell)
    if len(short) != len(full) or not short:
        return []
    return list(zip(short, full))


def comma_lists(cells) -> bool:
    """Whether an author column writes its lists with commas: no cell has ";" and most cells
    with a comma separate names of two words or more ("J Smith, A Jones"; Google Scholar's
    truncation ", ..." is no name)."""
    cells = [str(c) for c in cells if str(c).strip()]
    if any(";" in c for c in cells):
        return False
    with_commas = [c for c in cells if "," in c]
    if not with_commas:
        return False
    lists = sum(
        all(
            len(part.split()) >= 2
            for part in c.split(",")
            if part.strip() and not _NOT_A_NAME.match(part.strip())
        )
        for c in with_commas
    )
    return lists >= len(with_commas) / 2


def split_authors(cell: str, commas: bool = False) -> list[str]:
    """One cell's names, split on ";" (or on "," for a comma-list column), and on " and "."""
    parts = re.split(r",|\band\b" if commas else r";|\s+and\s+", str(cell))
    names = [clean_name(p) for p in parts]
    return [name for name in names if name and not _NOT_A_NAME.match(name)]
