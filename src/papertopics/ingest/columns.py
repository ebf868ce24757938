"""The one table of column spellings: the canonical columns (`text`, `title`, `authors`, `year`,
`journal`, `keywords`, ...) and how each format spells them: any table (`SPELLINGS`), a
database's tabular export (`EXPORTS`), a tagged format's tags (`TAGS`). Every reader maps into
these names; ingest/plan.py applies them to one file's columns. docs/listings.md, "Columns".
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any, NamedTuple

__all__ = [
    "BASE_COLUMNS",
    "ID_COLUMNS",
    "METADATA_COLUMNS",
    "TEXT_COLUMNS",
    "TITLE_COLUMNS",
    "SPELLINGS",
    "TAGS",
    "export_roles",
    "value_text",
]

# One table of column spellings per canonical column, shared by CSV, TSV, Excel and JSON (and the
# tagged formats' tags): matched without regard to capitals, spaces, `_`, `-` or `.`, the first
# spelling present wins. Extended from ASReview's (`notes_abstract`, `abstract note`,
# `primary_title`, `first_authors`, `author names`) and synthesisr's RIS/WoS tag lookup (`AB`,
# `N2`, `TI`, `T1`, `PY`, `Y1`, `JO`, `JF`, `T2`, `SO`, `DE`, `KW`). docs/listings.md, "Columns".
SPELLINGS: dict[str, tuple[str, ...]] = {
    "text": (
        "abstract", "text", "summary", "abstract note", "abstractnote", "notes abstract",
        "abstract text", "abstracttext", "abstracts", "ab", "n2", "description",
    ),
    "title": ("title", "document title", "article title", "primary title", "paper title", "ti", "t1"),
    "id": ("id", "uid"),
    "authors": ("authors", "author", "author names", "author full names", "first authors", "creators", "au"),
    # the full names beside `authors` (Scopus "Author full names", WoS AF): topics.sources' authors
    "author_full_names": ("author full names", "af", "fau"),
    "year": ("year", "publication year", "pub year", "publication_year", "pubyear", "py"),
    "date": ("date", "publication date", "pubdate", "date published", "da", "dp", "y1"),
    "online_date": ("online date", "early access year", "ey", "early access date", "ea"),  # ingest/dates.py
    "listing_date": ("listing date",),  # arXiv's: the only date an arXiv listing has (ingest/dates.py)
    "journal": (
        "journal", "publication title", "source title", "journal name", "journal title",
        "secondary title", "container title", "jo", "jf", "t2", "so",
    ),
    "keywords": ("keywords", "author keywords", "keywords author", "kw", "de"),
    # Zotero's Manual Tags: the user's own tags, not the authors' keywords
    "tags": ("tags", "manual tags"),
    "index_keywords": (
        "index keywords", "automatic tags", "keywords plus", "mesh terms", "mesh", "mh",
        "ieee terms", "inspec controlled terms", "index terms",
    ),
    "doi": ("doi", "do", "di"),
    # the record's document type and language as the export writes them (WoS DT/LA, Scopus
    # "Document Type"/"Language of Original Document", PubMed PT/LA, RIS TY/LA, BibTeX's entry
    # type): what config.yaml's filters select on (ingest/filters.py)
    "document_type": ("document type", "type", "publication type", "dt", "ty", "pt"),
    "language": ("language", "language of original document", "languages", "la"),
    "url": ("url", "urls", "link", "ur"),
    # times cited (topics/citations.py): Scopus, OpenAlex, WoS tab-delimited/Excel (Core
    # Collection, as bibliometrix's TC) and plain text (rispy's name for TC), Publish or Perish,
    # Lens, Dimensions, IEEE Xplore
    "cited_by": (
        "cited by", "cited by count", "times cited, wos core", "times cited wos core",
        "wos core collection cited count", "times cited", "cites", "scholarly citation count",
        "article citation count", "citation count", "tc",
    ),
    # the authors' addresses, one per affiliation (analyses/countries.py: each paper's countries):
    # WoS C1, Scopus "Affiliations", PubMed AD, RIS AD
    "affiliations": ("affiliations", "addresses", "author affiliations", "c1"),
    # the corresponding author's address: WoS RP ("Reprint Addresses"), Scopus "Correspondence Address"
    "corresponding_address": ("correspondence address", "reprint addresses", "reprint address", "rp"),
    # the cited references (analyses/main_information.py counts them): WoS CR, Scopus "References"
    "cited_references": ("cited references", "references", "cr"),
    # the authors as the database abbreviates them (WoS AU "Vallino, M" beside AF, PubMed AU beside
    # FAU; Scopus "Authors" is already so): bibliometrix's AU, which its main information counts
    # (analyses/main_information.py), and the same record's two cells link a short form to its
    # full name (topics.authors)
    "authors_abbreviated": ("authors abbreviated",),
}  # fmt: skip

# Columns an export leaves empty for zero, by canonical name (folded spellings): IEEE Xplore's
# "Article Citation Count" is empty for an uncited paper (an IEEE export of 492 papers: 240 empty
# cells, no "0"). The readers read such an empty cell as "0" and say so in one line
# (ingest.listings), as bibliometrix reads every missing TC as 0 (R/convert2df.R l.217-219).
BLANK_IS_ZERO: dict[str, tuple[str, ...]] = {"cited_by": ("article citation count",)}


class Export(NamedTuple):
    """One database's tabular export (CSV, TSV, Excel): recognised by `marks`, column names no
    other export writes (in any capitals: Scopus's "Source title" is WoS's "Source Title", so
    neither is one); `columns` maps a canonical name to its column there, the first present
    wins. The CSV, TSV and Excel readers give these as `Parsed.roles`; config.yaml's
    `columns:` wins over them. The tagged formats' readers map their tags to the same names."""

    name: str
    marks: tuple[str, ...]
    columns: dict[str, tuple[str, ...]]


EXPORTS = (
    Export(
        "IEEE Xplore",
        ("Document Title", "PDF Link", "Date Added To Xplore", "IEEE Terms"),
        {"authors": ("Authors",), "year": ("Publication Year",), "doi": ("DOI",), "url": ("PDF Link",),
         "journal": ("Publication Title",), "keywords": ("Author Keywords",),
         "index_keywords": ("IEEE Terms",),  # IEEE's controlled terms (Mesh_Terms: the few medical)
         "document_type": ("Document Identifier",)},
    ),
    Export(
        "Scopus",
        ("EID", "Author(s) ID", "Art. No.", "Publication Stage"),
        {"id": ("EID",), "document_type": ("Document Type",), "authors": ("Authors",), "year": ("Year",),
         "doi": ("DOI",), "url": ("Link",), "journal": ("Source title",), "keywords": ("Author Keywords",),
         "affiliations": ("Affiliations",), "corresponding_address": ("Correspondence Address",),
         "cited_references": ("References",), "language": ("Language of Original Document",)},
    ),
    Export(
        "Web of Science",
        ("UT (Unique WOS ID)", "Article Title", "Author Full Names", "Publication Type"),
        {"id": ("UT (Unique WOS ID)",), "document_type": ("Document Type",), "language": ("Language",),
         "authors": ("Author Full Names", "Authors"), "year": ("Publication Year",), "doi": ("DOI",),
         "url": ("DOI Link",), "journal": ("Source Title",),
         "keywords": ("Author Keywords",), "affiliations": ("Addresses",),
         "corresponding_address": ("Reprint Addresses",), "cited_references": ("Cited References",)},
    ),
    Export(
        "Lens",
        ("Lens ID", "Author/s", "Citing Patents Count", "Open Access Colour"),
        {"id": ("Lens ID",), "document_type": ("Publication Type",), "authors": ("Author/s",),
         "year": ("Publication Year",), "date": ("Date Published",), "journal": ("Source Title",)},
    ),
    Export(  # Publish or Perish (Google Scholar and other sources): "Source" is the venue
        "Publish or Perish",
        ("GSRank", "CitesURL", "ArticleURL", "QueryDate", "CitesPerYear"),
        {"authors": ("Authors",), "year": ("Year",), "journal": ("Source",), "url": ("ArticleURL",),
         "document_type": ("Type",)},
    ),
)  # fmt: skip


# The tagged formats' fields under the same canonical names: per format, canonical name -> its
# tags (RIS as rispy names them, MEDLINE and Web of Science tags, EndNote XML paths), the first
# present wins. bibliometrix's `convert2df` makes one tag set (AU, SO, PY, DE, ID, ...) likewise.
TAGS: dict[str, dict[str, tuple[str, ...]]] = {
    "ris": {
        "abstract": ("abstract", "notes_abstract"),  # AB, else N2
        "title": ("title", "primary_title"),  # TI, else T1
        "authors": ("authors", "first_authors"),  # AU, else A1
        "year": ("year", "publication_year"),  # PY, else Y1 (date parts dropped)
        "date": ("date", "publication_year"),  # DA, else Y1 as written ("2019/05/01/")
        "journal": ("journal_name", "alternate_title3", "secondary_title", "alternate_title1"),  # JO JF T2 J2
        "url": ("urls",),
        "document_type": ("type_of_reference",),  # TY
        "affiliations": ("author_address",),  # AD
        "language": ("language",),  # LA
    },
    "medline": {
        "id": ("PMID",), "document_type": ("PT",), "language": ("LA",),
        "title": ("TI", "BTI"), "authors": ("FAU", "AU"), "year": ("DP",),
        "doi": ("LID", "AID"), "journal": ("JT", "TA"), "keywords": ("OT",),
        "index_keywords": ("MH",),  # MeSH headings
        "affiliations": ("AD",),  # one line per affiliation
        "authors_abbreviated": ("AU",),
        "abstract": ("AB",),
    },
    "wos": {
        "id": ("UT",), "document_type": ("DT",), "language": ("LA",),
        "title": ("TI",), "authors": ("AF", "AU"), "year": ("PY",),
        "doi": ("DI",), "journal": ("SO",), "keywords": ("DE",),
        "index_keywords": ("ID",),  # Keywords Plus
        "cited_by": ("TC",),  # Web of Science Core Collection times cited, as bibliometrix (not Z9)
        "affiliations": ("C1",),  # one address per line: "[authors] address, country."
        "corresponding_address": ("RP",),
        "cited_references": ("CR",),
        "authors_abbreviated": ("AU",),  # bibliometrix's AU ("Vallino, M"); AF is `authors`
        "abstract": ("AB",),
    },
    "endnote": {
        "id": ("rec-number",), "title": ("titles/title",), "authors": ("contributors/authors/author",),
        "year": ("dates/year",), "date": ("dates/pub-dates/date",),
        "journal": ("titles/secondary-title", "periodical/full-title", "alt-periodical/full-title"),
        "keywords": ("keywords/keyword",), "doi": ("electronic-resource-num",),
        "url": ("urls/related-urls/url", "urls/web-urls/url"), "abstract": ("abstract",),
    },
}  # fmt: skip


def export_roles(header: Iterable[str]) -> dict[str, str]:
    """{canonical name: column} of the export with the most of its marks in the header, else {}."""
    found = {str(c).strip().casefold(): str(c) for c in header}
    hits = [(sum(m.casefold() in found for m in e.marks), -k, e) for k, e in enumerate(EXPORTS)]
    n, _, export = max(hits, key=lambda hit: hit[:2])
    if not n:
        return {}
    roles = {}
    for out, names in export.columns.items():
        column = next((found[name.casefold()] for name in names if name.casefold() in found), None)
        if column is not None:
            roles[out] = column
    return roles


TEXT_COLUMNS = SPELLINGS["text"]
# how messages name them
TEXT_SHOWN = "abstract, text, summary, Abstract Note, AB, description and other spellings in docs/listings.md"
TITLE_COLUMNS = SPELLINGS["title"]
ID_COLUMNS = SPELLINGS["id"]
BASE_COLUMNS = ("doc_id", "listing", "title", "text_raw", "text")
# metadata columns other formats and the outputs read by name (the workbook's authors and url
# columns, the report's links, the names' keywords): a source column spelled as one of them
# (`Publication Year`, `Manual Tags`) is carried under the canonical name, unless the listing
# has a column of that name already; any other column keeps its own
METADATA_COLUMNS = tuple(k for k in SPELLINGS if k not in ("text", "title", "id"))
_RE_FOLD = re.compile(r"[\s_.\-]+")


def fold_name(name: object) -> str:
    """A column name as the spelling table matches it: `Abstract_Note` -> `abstract note`."""
    return _RE_FOLD.sub(" ", str(name).casefold()).strip()


KNOWN_NAMES = frozenset(fold_name(n) for names in SPELLINGS.values() for n in names)


def spelled(columns: list[str], canonical: str) -> list[str]:
    """The columns spelled as `canonical`'s spellings, in the table's order of preference."""
    by_fold: dict[str, list[str]] = {}
    for c in columns:
        by_fold.setdefault(fold_name(c), []).append(c)
    return [c for name in SPELLINGS[canonical] for c in by_fold.get(fold_name(name), [])]


def value_text(v: Any) -> str:
    """Metadata value as text: lists joined with '; ', objects and nested lists as JSON."""
    if v is None:
        return ""
    if isinstance(v, str):
        return v
    if isinstance(v, (list, tuple)):
        return "; ".join(s for s in map(_scalar, v) if s)
    return _scalar(v)


def _scalar(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, str):
        return v
    if isinstance(v, (dict, list, tuple)):
        try:
            return json.dumps(v, ensure_ascii=False)
        except (RecursionError, ValueError):
            return ""
    if isinstance(v, float) and v != v:  # NaN
        return ""
    return str(v)
