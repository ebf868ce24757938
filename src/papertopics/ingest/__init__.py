"""Ingest stage (rules parse_listing, build_corpus): listing files -> one table of clean abstracts.

`listings` reads a listing (text, csv, tsv, json, jsonl; gzipped or not) into a table, `text`
cleans each abstract, `corpus` merges the listings into one corpus with one row per distinct
abstract.
"""

from papertopics import lazy_exports

__getattr__, __dir__ = lazy_exports(
    __name__,
    {
        "ListingSpec": "listings",
        "build_corpus": "corpus",
        "clean_text": "text",
        "read_listing": "listings",
        "resolve_listings": "listings",
    },
)
__all__ = ["ListingSpec", "build_corpus", "clean_text", "read_listing", "resolve_listings"]
