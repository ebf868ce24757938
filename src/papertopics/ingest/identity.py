"""What identifies a document: its cleaned text without case, spacing or punctuation, hashed.

A listing's rows and the corpus merge on this id: the same abstract listed twice, or in two
listings, is one document.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

__all__ = ["RE_LONE_SURROGATE_ESCAPE", "doc_id_for", "fix_surrogates", "hash_key", "identity_key"]


_RE_NON_ALNUM = re.compile(r"[\W_]+")
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
