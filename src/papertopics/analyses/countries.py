"""Countries: each paper's countries from its authors' affiliations, and its corresponding
author's country; listing-wide papers per country with single- and multiple-country publications
(countries.csv), and per topic (topic_countries.csv, beside topic_sources.csv's venues and
authors).

Where the countries come from (the canonical columns of ingest/columns.py):
- `affiliations`: WoS C1 ("[authors] address, country."), Scopus "Affiliations", PubMed AD, RIS
  AD: one address per `;`-separated part once the WoS "[authors]" brackets are gone; an
  address's country is its last comma-separated part (else the one before it) that names one;
- `corresponding_address`: WoS RP ("Name (reprint author), address."; "(corresponding author)"
  since 2021), Scopus "Correspondence Address" ("Name; address, country; email: ..."): the first
  country named in it.

As bibliometrix's `metaTagExtraction` does (`AU_CO`, `AU1_CO`, R/metaTagExtraction.R): a paper
without affiliations takes its countries from the corresponding address, and a paper without a
corresponding address takes its corresponding country from its first affiliation; the variants
exports write are one country (USA -> United States, Peoples R China -> China, England,
Scotland, Wales and North Ireland -> United Kingdom). The names come from pycountry (ISO 3166-1:
its common name, else its name), plus the spellings of Web of Science and Scopus below.

SCP/MCP (bibliometrix's `countryCollaboration`, R/biblioAnalysis.R): a paper is counted under its
corresponding author's country, as a single-country publication (SCP) when all its authors'
countries are that one, else a multiple-country publication (MCP); MCP ratio = MCP / papers.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from functools import cache

import pandas as pd

__all__ = [
    "COUNTRY_COLUMNS",
    "TOPIC_COUNTRY_COLUMNS",
    "country_of",
    "country_tables",
    "countries_tables",
    "paper_countries",
]

COUNTRY_COLUMNS = ["country", "papers", "corresponding", "scp", "mcp", "mcp_ratio", "share"]
# each topic's countries: rows of topic_sources.csv (analyses.sources' columns), field "country"
TOPIC_COUNTRY_COLUMNS = ["topic", "field", "name", "count", "share"]
# countries kept per topic (as topic_sources.csv keeps venues and authors)
TOP_COUNTRIES = 5

# What exports write for a country that pycountry spells otherwise (normalised as _fold does):
# Web of Science's own abbreviations, the UK's nations (bibliometrix's metaTagExtraction folds
# them into UNITED KINGDOM), and older or shorter names.
VARIANTS: dict[str, str] = {
    "usa": "US", "u s a": "US", "united states of america": "US", "united states": "US",
    "peoples r china": "CN", "people s r china": "CN", "pr china": "CN", "p r china": "CN",
    "peoples republic of china": "CN", "people s republic of china": "CN",
    "england": "GB", "scotland": "GB", "wales": "GB", "north ireland": "GB",
    "northern ireland": "GB", "uk": "GB", "great britain": "GB",
    "russia": "RU", "south korea": "KR", "korea": "KR", "republic of korea": "KR", "rep of korea": "KR",
    "north korea": "KP", "iran": "IR", "turkey": "TR", "turkiye": "TR", "czech republic": "CZ",
    "vietnam": "VN", "u arab emirates": "AE", "uae": "AE", "dem rep congo": "CD",
    "democratic republic of the congo": "CD", "dr congo": "CD", "rep congo": "CG",
    "republic of the congo": "CG", "cote ivoire": "CI", "cote d ivoire": "CI", "ivory coast": "CI",
    "bosnia and herceg": "BA", "bosnia and herzegovina": "BA", "trinidad tobago": "TT",
    "papua n guinea": "PG", "macedonia": "MK", "fyrom": "MK", "st kitts and nevi": "KN",
    "st lucia": "LC", "st vincent": "VC", "syria": "SY", "laos": "LA", "brunei": "BN",
    "cape verde": "CV", "swaziland": "SZ", "byelarus": "BY", "surinam": "SR", "burma": "MM",
    "taiwan": "TW", "palestine": "PS", "vatican": "VA", "micronesia": "FM", "tanzania": "TZ",
    "bolivia": "BO", "venezuela": "VE", "moldova": "MD", "gambia": "GM", "bahamas": "BS",
    "fed rep ger": "DE", "west germany": "DE", "netherlands antilles": "CW", "hong kong": "HK",
    "macau": "MO", "macao": "MO", "guinea bissau": "GW", "timor leste": "TL", "east timor": "TL",
    "sao tome and prin": "ST", "antigua and barbu": "AG", "turks and caicos": "TC",
}  # fmt: skip
# places whose last word is a country's name (an address that names its state, not its country)
NOT_COUNTRIES = frozenset({"new mexico", "new south wales", "new england", "new jersey"})
# shorter names to show than pycountry's own (its common name wins where it has one)
SHOWN: dict[str, str] = {"RU": "Russia", "CD": "DR Congo", "CG": "Congo", "KR": "South Korea"}
_RE_EMAIL = re.compile(r"\S+@\S+|electronic address:?|e-?mail:?", re.I)
_RE_BRACKETS = re.compile(r"\[[^\]]*\]")
_RE_AUTHOR_ROLE = re.compile(r"^[^()]*\((?:reprint|corresponding) author\),?", re.I)
_RE_DIGITS = re.compile(r"\d+")
_RE_PUNCT = re.compile(r"[^\w\s]+|_")


def _fold(text: str) -> str:
    """Lower case, accents off, `&` as "and", punctuation as spaces, one space between words."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).casefold().replace("&", " and ")
    return " ".join(_RE_PUNCT.sub(" ", text).split())


@cache
def _names() -> dict[str, str]:
    """Folded name -> ISO alpha-2 code: pycountry's names, official and common names, then VARIANTS."""
    import pycountry

    names: dict[str, str] = {}
    for country in pycountry.countries:
        for attr in ("name", "official_name", "common_name"):
            value = getattr(country, attr, None)
            if value:
                names.setdefault(_fold(value), country.alpha_2)
                if "," in value:  # "Korea, Republic of" is also written "Republic of Korea"
                    head, _, tail = value.partition(",")
                    names.setdefault(_fold(f"{tail} {head}"), country.alpha_2)
    names.update(VARIANTS)
    return names


@cache
def shown_name(code: str) -> str:
    """The name a table shows for an ISO alpha-2 code: pycountry's common name, else its name."""
    import pycountry

    if code in SHOWN:
        return SHOWN[code]
    country = pycountry.countries.get(alpha_2=code)
    name = getattr(country, "common_name", None) or country.name
    return name.split(",")[0] if "," in name else name


@cache
def _part_country(part: str) -> str | None:
    """The country a part of an address names (the whole part, else its last words, the most
    first: "Sometown Heard Island and McDonald Islands"), or None."""
    words = _fold(_RE_DIGITS.sub(" ", part)).split()
    names = _names()
    for n in range(len(words), 0, -1):
        code = names.get(" ".join(words[-n:]))
        if code is None or (n == 1 and len(words[-1]) < 3 and words[-1] != "uk"):
            continue
        if any(" ".join(words[-m:]) in NOT_COUNTRIES for m in range(n + 1, min(len(words), n + 2) + 1)):
            return None
        return code
    return None


def country_of(address: str) -> str | None:
    """The country of one address: its last comma-separated part that names one, of the last two."""
    parts = [p for p in _RE_EMAIL.sub(" ", address).split(",") if p.strip()]
    for part in reversed(parts[-2:]):
        code = _part_country(part)
        if code is not None:
            return shown_name(code)
    return None


def _addresses(cell: str) -> list[str]:
    """One affiliation cell's addresses: the WoS "[authors]" brackets gone, split at `;`."""
    return [a.strip() for a in _RE_BRACKETS.sub(" ", cell).split(";") if a.strip()]


def _corresponding(cell: str) -> str | None:
    """The first country a corresponding address names (WoS RP, Scopus "Correspondence Address")."""
    for part in cell.split(";"):
        part = _RE_AUTHOR_ROLE.sub(" ", part.strip())
        if part.strip() and (country := country_of(part)) is not None:
            return country
    return None


def _cells(documents: pd.DataFrame, column: str) -> list[str]:
    if column not in documents.columns:
        return [""] * len(documents)
    return documents[column].fillna("").astype(str).tolist()


def has_countries(documents: pd.DataFrame) -> bool:
    """Whether the listing has affiliations or corresponding addresses at all."""
    return any(
        c in documents.columns and documents[c].fillna("").astype(str).str.strip().ne("").any()
        for c in ("affiliations", "corresponding_address")
    )


def paper_countries(documents: pd.DataFrame) -> pd.DataFrame:
    """Per paper (the documents' order): `countries` (its authors' distinct countries, in the
    order first written, ';'-joined) and `corresponding_country` (as bibliometrix's AU1_CO)."""
    rows = []
    for affiliations, address in zip(
        _cells(documents, "affiliations"), _cells(documents, "corresponding_address")
    ):
        found = [c for a in _addresses(affiliations) if (c := country_of(a)) is not None]
        corresponding = _corresponding(address) if address.strip() else None
        if not found and corresponding is not None:  # AU_CO: no affiliations, the corresponding address
            found = [corresponding]
        if corresponding is None and found:  # AU1_CO: no corresponding address, the first affiliation
            corresponding = found[0]
        rows.append(
            {"countries": ";".join(dict.fromkeys(found)), "corresponding_country": corresponding or ""}
        )
    return pd.DataFrame(rows, index=documents.index, columns=["countries", "corresponding_country"])


def country_tables(documents: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """countries.csv and each topic's country rows; header-only without affiliations or addresses.

    countries.csv: per country, `papers` (with an author there), `corresponding` (papers whose
    corresponding author is there: bibliometrix's "Corresponding Author's Countries"), `scp` and
    `mcp` of those (their sum is `corresponding`), `mcp_ratio`, `share` (corresponding / papers
    with a corresponding country); sorted by corresponding papers, then papers, then name."""
    if not has_countries(documents):
        return pd.DataFrame(columns=COUNTRY_COLUMNS), pd.DataFrame(columns=TOPIC_COUNTRY_COLUMNS)
    found = paper_countries(documents)
    lists = [c.split(";") if c else [] for c in found["countries"]]
    papers = Counter(c for countries in lists for c in countries)
    corresponding = Counter(c for c in found["corresponding_country"] if c)
    mcp = Counter(
        c for c, countries in zip(found["corresponding_country"], lists) if c and len(countries) > 1
    )
    total = sum(corresponding.values())
    rows = []
    for country in set(papers) | set(corresponding):
        n = corresponding.get(country, 0)
        rows.append(
            {
                "country": country,
                "papers": papers.get(country, 0),
                "corresponding": n,
                "scp": n - mcp.get(country, 0),
                "mcp": mcp.get(country, 0),
                "mcp_ratio": round(mcp.get(country, 0) / n, 4) if n else 0.0,
                "share": round(n / total, 4) if total else 0.0,
            }
        )
    table = pd.DataFrame(rows, columns=COUNTRY_COLUMNS)
    table = table.sort_values(["corresponding", "papers", "country"], ascending=[False, False, True])
    return table.reset_index(drop=True), _topic_countries(documents, lists)


def countries_tables(documents: pd.DataFrame, topics: pd.DataFrame | None = None) -> dict[str, pd.DataFrame]:
    """The analysis (analyses.registry): countries.csv, and the topics' rows of topic_sources.csv."""
    countries, per_topic = country_tables(documents)
    return {"countries": countries, "sources": per_topic}


def _topic_countries(documents: pd.DataFrame, lists: list[list[str]]) -> pd.DataFrame:
    """Per topic (outliers too), its TOP_COUNTRIES countries by papers with an author there."""
    if "topic" not in documents.columns:
        return pd.DataFrame(columns=TOPIC_COUNTRY_COLUMNS)
    topic_of = documents["topic"].astype(int).tolist()
    counts: dict[int, Counter] = {}
    for topic, countries in zip(topic_of, lists):
        counts.setdefault(topic, Counter()).update(set(countries))
    sizes = Counter(topic_of)
    rows = []
    for topic in sorted(counts):
        for country, n in sorted(counts[topic].items(), key=lambda kv: (-kv[1], kv[0]))[:TOP_COUNTRIES]:
            rows.append(
                {
                    "topic": topic,
                    "field": "country",
                    "name": country,
                    "count": n,
                    "share": round(n / sizes[topic], 4),
                }
            )
    return pd.DataFrame(rows, columns=TOPIC_COUNTRY_COLUMNS)
