"""results/report/vosviewer/: the topics' keyword co-occurrence network and the document map as
VOSviewer map and network files, for readers who draw their maps in VOSviewer (docs/report.md,
"VOSviewer").

The format is VOSviewer's map and network files (VOSviewer manual, "Map and network files";
https://app.vosviewer.com/docs/file-types/map-and-network-file-type): tab-delimited text; a map
file's first line names its columns among `id`, `label`, `description`, `url`, `x`, `y`,
`cluster` (an integer 1-1000), `weight<...>` (non-negative) and `score<...>`, then one item per
line; a label or description holding a comma or semicolon is enclosed in double quotes. A network
file has no header: one link per line, the two items' ids and the link's strength.

- keywords_map.txt, keywords_network.txt (where the listing has authors' keywords;
  report/vosviewer_keywords.py, apart so that the pages' job never imports the thematic map): the items are
  the topics' keywords as the thematic map chooses them (analyses.thematic.theme_keywords: each
  keyword to the topic whose papers give it most, a topic's `thematic.keywords` commonest given by
  `thematic.min_papers` papers or more), the cluster their topic, `weight<Occurrences>` the papers
  giving the keyword; a link joins two keywords some paper gives both, its strength the number of
  such papers (VOSviewer's co-occurrence, full counting). No x, y: VOSviewer lays the network out.
- documents_map.txt, documents_network.txt: the items are the analysed papers at their place on
  the document map (map2d's x, y), the cluster their topic, `weight<Citations>` their times cited
  (where the listing has them), `score<Year>` their year (where dated); a link joins a paper to each
  of its similar papers (neighbours.csv), the strength their cosine similarity.
A cluster number is the topic's rank among the topics' ids (1 for the lowest id; the outliers, if
any, after the last), so any id fits VOSviewer's 1-1000; the description names the topic and its id.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

import numpy as np
import pandas as pd

from papertopics.artifacts import atomic_write_text

__all__ = [
    "VOSVIEWER_FILES",
    "clusters",
    "document_map",
    "topic_names",
    "vosviewer_files",
    "write_map",
    "write_network",
]

# file -> what it is, in the order the overview lists them
VOSVIEWER_FILES = {
    "keywords_map.txt": "keyword co-occurrence map (items: the topics' keywords)",
    "keywords_network.txt": "keyword co-occurrence network (links)",
    "documents_map.txt": "document map (items: the papers)",
    "documents_network.txt": "document network (links: similar papers)",
}
_QUOTE = re.compile(r'[,;"]')
_MAX_CLUSTER = 1000  # VOSviewer's largest cluster number


def vosviewer_files(documents: pd.DataFrame) -> list[str]:
    """The files a folder gets: the keyword files only where some paper has authors' keywords."""
    has_keywords = (
        "keywords" in documents.columns and documents["keywords"].astype(str).str.strip().ne("").any()
    )
    return [name for name in VOSVIEWER_FILES if has_keywords or not name.startswith("keywords")]


def clusters(topic_ids) -> dict[int, int]:
    """{topic id: cluster number}: 1, 2, ... by id, the outliers (-1) after the topics."""
    ids = sorted({int(t) for t in topic_ids})
    ordered = [t for t in ids if t >= 0] + [t for t in ids if t < 0]
    if len(ordered) > _MAX_CLUSTER:
        raise ValueError(f"{len(ordered)} topics: VOSviewer numbers at most {_MAX_CLUSTER} clusters")
    return {t: k + 1 for k, t in enumerate(ordered)}


def topic_names(topics: pd.DataFrame) -> dict[int, str]:
    return dict(zip(pd.to_numeric(topics["topic"]).astype(int), topics["label"].astype(str)))


def _first_surname(authors: str) -> str:
    first = str(authors).split(";")[0].strip()
    if not first:
        return ""
    return first.split(",")[0].strip() if "," in first else first.split()[-1]


def document_map(
    documents: pd.DataFrame, topics: pd.DataFrame, map2d: pd.DataFrame, neighbours: pd.DataFrame | None = None
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(map items, links): each paper at its map place, its topic as cluster (module docstring)."""
    docs = documents.merge(map2d[["doc_id", "x", "y"]], on="doc_id", how="inner", validate="one_to_one")
    names = topic_names(topics)
    topic = pd.to_numeric(docs["topic"]).astype(int)
    number = clusters(topic)
    year = docs["published"].astype(str).str[:4] if "published" in docs else docs.get("year")
    labels = []
    for k, (_, row) in enumerate(docs.iterrows()):
        surname = _first_surname(row.get("authors", ""))
        when = str(year.iloc[k]) if year is not None and str(year.iloc[k]).strip() else ""
        label = (
            f"{surname} ({when})" if surname and when else surname or " ".join(str(row["title"]).split())[:60]
        )
        labels.append(label or str(row["doc_id"]))
    doi = docs["doi"].astype(str).str.strip() if "doi" in docs else pd.Series("", index=docs.index)
    url = (
        docs["url"].astype(str).str.split(";").str[0].str.strip()
        if "url" in docs
        else pd.Series("", index=docs.index)
    )
    url = url.where(
        doi.eq(""), "https://doi.org/" + doi.str.replace(r"^https?://(dx\.)?doi\.org/", "", regex=True)
    )
    items = pd.DataFrame(
        {
            "id": np.arange(1, len(docs) + 1),
            "label": labels,
            "description": [  # VOSviewer shows a description as HTML
                f"{html.escape(' '.join(str(t).split()))}<br>"
                f"topic {int(p)}: {html.escape(names.get(int(p), ''))}"
                for t, p in zip(docs["title"], topic)
            ],
            "url": url,
            "x": pd.to_numeric(docs["x"]).round(6),
            "y": pd.to_numeric(docs["y"]).round(6),
            "cluster": [number[int(t)] for t in topic],
        }
    )
    if "cited_by" in docs and pd.to_numeric(docs["cited_by"], errors="coerce").notna().any():
        items["weight<Citations>"] = pd.to_numeric(docs["cited_by"], errors="coerce").fillna(0).clip(lower=0)
    if year is not None and pd.to_numeric(year, errors="coerce").notna().any():
        items["score<Year>"] = pd.to_numeric(year, errors="coerce").to_numpy()
    links = pd.DataFrame(columns=["id1", "id2", "strength"])
    if neighbours is not None and len(neighbours):
        at = dict(zip(docs["doc_id"], items["id"]))
        pairs = neighbours[neighbours["doc_id"].isin(at) & neighbours["neighbour_id"].isin(at)]
        a = pairs["doc_id"].map(at).to_numpy()
        b = pairs["neighbour_id"].map(at).to_numpy()
        lo, hi = np.minimum(a, b), np.maximum(a, b)
        links = (
            pd.DataFrame(
                {"id1": lo, "id2": hi, "strength": pd.to_numeric(pairs["similarity"]).round(4).to_numpy()}
            )
            .query("id1 != id2 and strength > 0")
            .drop_duplicates(["id1", "id2"])
            .sort_values(["id1", "id2"])
            .reset_index(drop=True)
        )
    return items, links


def _cell(value) -> str:
    if value is None or (isinstance(value, float) and value != value):
        return ""
    if isinstance(value, (float, np.floating)):
        return f"{float(value):g}" if float(value).is_integer() else repr(float(value))
    text = " ".join(str(value).split())  # no tab or line break inside a cell
    return '"' + text.replace('"', '""') + '"' if _QUOTE.search(text) else text


def write_map(path: str | Path, items: pd.DataFrame) -> None:
    """A VOSviewer map file: a header line, one item per line, tab-delimited."""
    lines = ["\t".join(items.columns)]
    lines += ["\t".join(_cell(v) for v in row) for row in items.itertuples(index=False)]
    atomic_write_text(Path(path), "\n".join(lines) + "\n")


def write_network(path: str | Path, links: pd.DataFrame) -> None:
    """A VOSviewer network file: no header, one link per line (id, id, strength)."""
    lines = [
        "\t".join(_cell(v) for v in row) for row in links[["id1", "id2", "strength"]].itertuples(index=False)
    ]
    atomic_write_text(Path(path), "".join(line + "\n" for line in lines))
