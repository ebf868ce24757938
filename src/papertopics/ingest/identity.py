"""What identifies a document: its cleaned text without case, spacing or punctuation, hashed.

A listing's rows and the corpus merge on this id: the same abstract listed twice, or in two
listings, is one document, when the records are one paper (`Duplicates`): the same abstract
under two unrelated titles (Publish or Perish's Google Scholar snippets, a database's stand-in
text) is two documents.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

__all__ = [
    "RE_LONE_SURROGATE_ESCAPE",
    "Duplicates",
    "doc_id_for",
    "fix_surrogates",
    "hash_key",
    "identity_key",
]


_RE_NON_ALNUM = re.compile(r"[\W_]+")
_RE_WORD = re.compile(r"[^\W_]+")
SAME_TITLE = 0.8  # share of the shorter title's words the other has: the same paper retitled
_ASCII_NON_ALNUM = {i: None for i in range(128) if not chr(i).isalnum()}


def identity_key(clean: str) -> str:
    """What identifies a document: letters and digits only, case-folded."""
    if clean.isascii():
        return clean.lower().translate(_ASCII_NON_ALNUM)
    return _RE_NON_ALNUM.sub("", unicodedata.normalize("NFKC", clean).casefold())


def doc_id_for(clean: str) -> str:
    """16 hex chars of a hash of the text without case, whitespace or punctuation."""
    return hash_key(identity_key(clean))


def hash_key(key: str) -> str:
    return hashlib.blake2b(key.encode("utf-8"), digest_size=8).hexdigest()


RE_LONE_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def fix_surrogates(rec: dict) -> dict:
    """JSON may escape half a UTF-16 pair ("\\ud800"); such text cannot be stored."""
    return {
        k.encode("utf-8", "replace").decode("utf-8") if isinstance(k, str) else k: v.encode(
            "utf-8", "replace"
        ).decode("utf-8")
        if isinstance(v, str)
        else [x.encode("utf-8", "replace").decode("utf-8") if isinstance(x, str) else x for x in v]
        if isinstance(v, list)
        else v
        for k, v in rec.items()
    }


def _title_words(title: str) -> frozenset[str]:
    return frozenset(_RE_WORD.findall(unicodedata.normalize("NFKC", title).casefold()))


class Duplicates:
    """Which records of a listing are one document. Records with the same abstract (its
    identity_key) are one paper only on an identifier (DOI, else id) or a matching title: one has no
    title, or most words of the shorter title are in the other (SAME_TITLE; a retitled
    version: "Zeroth-Order Methods for Nonsmooth ..." / "... for Nondifferentiable ...").
    Systematic-review tools deduplicate on the DOI, else on a fuzzy title match (revtools'
    `find_duplicates`, synthesisr's `deduplicate`); here the abstracts are equal already, so the
    title only has to rule out different papers, and a looser test (shared words) keeps a
    retitled version one document. Text alone never merges: a snippet or a stand-in shared by
    different papers keeps them apart."""

    def __init__(self) -> None:
        self._seen: dict[str, list[tuple[str, frozenset[str], str, str]]] = {}

    def place(self, key: str, title: str, ident: str, where: str) -> tuple[str, str | None]:
        """(the document's key to hash, `where` of the record this one duplicates or None)."""
        words, doi = _title_words(title), ident.strip().casefold()
        papers = self._seen.setdefault(key, [])
        for doc_key, other, other_doi, first in papers:
            if doi and other_doi:
                if doi == other_doi:
                    return doc_key, first
            if not words or not other:
                if not (doi and other_doi):
                    return doc_key, first
                continue
            if len(words & other) >= SAME_TITLE * min(len(words), len(other)):
                return doc_key, first
        doc_key = key if not papers else f"{key}\x1f{identity_key(title)}\x1f{doi}"
        papers.append((doc_key, words, doi, where))
        return doc_key, None
