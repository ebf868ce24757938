"""Ingest stage (rules parse_listing, build_corpus): listing files -> one table of clean abstracts.

`listings` reads a listing (text, csv, tsv, json, jsonl; gzipped or not) into a table, `clean`
cleans each abstract, `corpus` merges the listings into one corpus with one row per distinct
abstract.
"""

from papertopics.ingest.clean import clean_text
from papertopics.ingest.corpus import build_corpus
from papertopics.ingest.listings import ListingSpec, read_listing, resolve_listings

__all__ = ["ListingSpec", "build_corpus", "clean_text", "read_listing", "resolve_listings"]
