"""The tabular exports of literature databases, known by their column names, and which of
their columns are the pipeline's metadata columns (`authors`, `url`, `year`, ...).

IEEE Xplore and Scopus write CSV, Web of Science's "Excel" export is .xls; each keeps its own
column names (`Authors`, `PDF Link`, `Publication Year`). The CSV, TSV and Excel readers
return these as `Parsed.roles`, so the workbook, document_topics.csv and the report show an
export's authors and links under the names the other formats give them (the RIS, BibTeX and
Web of Science plain-text readers name their fields so already). A column mapped under
`columns:` in config.yaml wins over these.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import NamedTuple


class Export(NamedTuple):
    """One database's tabular export: recognised by `marks`, column names no other export
    writes (in any capitals: Scopus's "Source title" is WoS's "Source Title", so neither is
    one); `columns` maps an output name to its column names there, the first present wins."""

    name: str
    marks: tuple[str, ...]
    columns: dict[str, tuple[str, ...]]


EXPORTS = (
    Export(
        "IEEE Xplore",
        ("Document Title", "PDF Link", "Date Added To Xplore", "IEEE Terms"),
        {
            "authors": ("Authors",),
            "year": ("Publication Year",),
            "doi": ("DOI",),
            "url": ("PDF Link",),
            "journal": ("Publication Title",),
            "keywords": ("Author Keywords",),
        },
    ),
    Export(
        "Scopus",
        ("EID", "Author(s) ID", "Art. No.", "Publication Stage"),
        {
            "id": ("EID",),
            "type": ("Document Type",),
            "authors": ("Authors",),
            "year": ("Year",),
            "doi": ("DOI",),
            "url": ("Link",),
            "journal": ("Source title",),
            "keywords": ("Author Keywords",),
        },
    ),
    Export(
        "Web of Science",
        ("UT (Unique WOS ID)", "Article Title", "Author Full Names", "Publication Type"),
        {
            "id": ("UT (Unique WOS ID)",),
            "type": ("Document Type",),
            "authors": ("Author Full Names", "Authors"),
            "year": ("Publication Year",),
            "doi": ("DOI",),
            "url": ("DOI Link",),
            "journal": ("Source Title",),
            "keywords": ("Author Keywords",),
        },
    ),
)


def export_roles(header: Iterable[str]) -> dict[str, str]:
    """{output name: column} of the export with the most of its marks in the header, else {}."""
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
