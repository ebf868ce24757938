"""The thematic map: a strategic diagram after Callon (Callon, Courtial & Laville 1991) and Cobo
et al. (2011, J. Informetrics 5(1):146-166), with the topics as the themes.

The network is the co-occurrence network of keywords: the authors' keywords where the listing
has them (folded as the names fold them: topics.names.keywords.KeywordIndex, so "meta-learning"
and "Meta learning" are one keyword), else the topics' own top terms (topics.csv `top_terms`,
counted in the abstracts). Each keyword belongs to one theme, the topic whose papers give it most
(ties: the lower id); a theme is its `keywords` commonest keywords (config thematic.keywords, 10)
given by `min_papers` papers or more (thematic.min_papers, 2). A topic left with no keyword of its
own is a row without figures whose `note` says why; a theme of fewer than MIN_KEYWORDS keywords is
placed, and its `note` says that its density rests on one link or none.

With c_i the papers giving keyword i and c_ij those giving both, config thematic.normalise picks
the links and their sums:
- `equivalence` (the default; Cobo et al. 2011 after Callon et al. 1991): e_ij = c_ij^2 / (c_i c_j);
  centrality = 10 * the sum of the theme's links to the other themes' keywords (a link between two
  themes counts for both), density = 100 * the sum of the links among its keywords (each pair
  once) / its number of keywords.
- `association` (bibliometrix 5.2.1's thematicMap, read from its source: shared
  data/reference/bibliometrix/NOTES.md, section 5): e_ij = c_ij / (c_i c_j) with e_ii = 1 / c_i
  (R/normalizeSimilarity.R l.56-60); over the upper triangle of the keywords in bibliometrix's
  matrix order (commonest first, ties alphabetical), diagonal included (R/thematicMap.R l.265-293):
  centrality = the sum of the links from the theme's keywords to later keywords of other themes
  (each link for one theme only, the commoner keyword's), density = 100 * (the sum of 1 / c_i over
  its keywords + its links) / its number of keywords; no factor 10.
The quadrants split the themes as bibliometrix's axes do: at the mean of the ranks (R `rank`,
ties averaged; l.293-298), which is the median for distinct values. A theme whose rank is the mean
rank is on the line (`between ... themes`), neither side: with ties, themes of density 0 rank
below the line, never "motor". bibliometrix plots the ranks; the map here plots the values.
What else differs from bibliometrix (its themes are Louvain clusters of the keyword network, its
keywords all of the 250 commonest given by minfreq papers): docs/analyses.md, "Thematic map".
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import scipy.sparse as sp
from scipy.stats import rankdata

QUADRANTS = {
    (True, True): "motor themes",
    (False, True): "niche themes",
    (False, False): "emerging or declining themes",
    (True, False): "basic themes",
}
# a theme on one line (None: its rank is the mean rank) lies between two quadrants
ON_THE_LINE = {
    (None, True): "between niche and motor themes",
    (None, False): "between emerging or declining and basic themes",
    (True, None): "between motor and basic themes",
    (False, None): "between niche and emerging or declining themes",
    (None, None): "at the centre, on both lines",
}
THEMATIC_COLUMNS = [
    "topic", "label", "size", "centrality", "density", "quadrant", "n_keywords", "keywords", "keywords_from",
    "links", "note",
]  # fmt: skip
# keywords_from: what the network's keywords are
AUTHOR_KEYWORDS, TOP_TERMS = "authors' keywords", "topic terms"
# links (config thematic.normalise): Cobo et al.'s equivalence index, bibliometrix's association strength
EQUIVALENCE, ASSOCIATION = "equivalence", "association"
# config.yaml's defaults (thematic.*): a theme's keywords, its commonest (bibliometrix lists a
# cluster's 10 best words); a keyword given by fewer papers is left out (bibliometrix's minfreq
# is at least 2)
THEME_KEYWORDS, MIN_PAPERS = 10, 2
# the least themes a map is drawn for (a median of fewer splits nothing)
MIN_THEMES = 4
# a theme of fewer keywords is drawn hollow: its density rests on one link (two keywords) or
# none (one keyword: 0 under equivalence, 100 / c_i under association)
MIN_KEYWORDS = 3


def cooccurrence(incidence: sp.spmatrix) -> np.ndarray:
    """keywords x keywords c_ij: the papers giving both (c_ii: the papers giving i), from papers x
    keywords counts (read as 0/1, as bibliometrix's cocMatrix)."""
    binary = (sp.csr_matrix(incidence) > 0).astype(np.float64)
    return (binary.T @ binary).toarray()


def links(cooc: np.ndarray, normalise: str = EQUIVALENCE) -> np.ndarray:
    """e_ij from the co-occurrence counts: c_ij^2 / (c_i c_j), 0 on the diagonal (equivalence),
    or c_ij / (c_i c_j), 1 / c_i on the diagonal (association, R/normalizeSimilarity.R)."""
    c = np.diag(cooc).copy()
    with np.errstate(divide="ignore", invalid="ignore"):
        if normalise == ASSOCIATION:
            return np.where(cooc > 0, cooc / np.outer(c, c), 0.0)
        e = np.where(cooc > 0, cooc**2 / np.outer(c, c), 0.0)
    np.fill_diagonal(e, 0.0)
    return e


def centrality_density(
    cooc: np.ndarray, theme_of: np.ndarray, normalise: str = EQUIVALENCE
) -> tuple[dict[int, float], dict[int, float]]:
    """Per theme, centrality and density (module docstring) from the keywords' co-occurrence
    counts `cooc` and each keyword's theme `theme_of`; for `association` the keywords come in
    bibliometrix's matrix order (commonest first), which decides the theme a link counts for."""
    e = links(cooc, normalise)
    centrality, density = {}, {}
    upper = np.triu(e)  # association: each pair once, for its row's (the commoner keyword's) theme
    for theme in np.unique(theme_of):
        inside = theme_of == theme
        n = int(inside.sum())
        if normalise == ASSOCIATION:
            centrality[theme] = float(upper[np.ix_(inside, ~inside)].sum())
            density[theme] = 100.0 * float(upper[np.ix_(inside, inside)].sum()) / n
        else:
            centrality[theme] = 10.0 * float(e[np.ix_(inside, ~inside)].sum())
            density[theme] = 100.0 * float(np.triu(e[np.ix_(inside, inside)], 1).sum()) / n
    return centrality, density


def sides(values: np.ndarray) -> list[bool | None]:
    """Each theme's side of bibliometrix's line (R/thematicMap.R l.293-298: rank(), the axes at
    the mean rank): True above, False below, None on it."""
    ranks = rankdata(values)  # R's rank(): ties averaged
    middle = ranks.mean()
    return [None if np.isclose(r, middle) else bool(r > middle) for r in ranks]


def split_at(values) -> float:
    """Where the line is drawn among these values: the value of a theme on it, else halfway between
    the themes either side (the median, for distinct values)."""
    values = np.asarray(values, dtype=float)
    side = sides(values)
    on = [v for v, s in zip(values, side) if s is None]
    if on:
        return float(on[0])
    below = max(v for v, s in zip(values, side) if s is False)
    above = min(v for v, s in zip(values, side) if s is True)
    return (below + above) / 2


def quadrant(high_centrality: bool | None, high_density: bool | None) -> str:
    if high_centrality is None or high_density is None:
        return ON_THE_LINE[(high_centrality, high_density)]
    return QUADRANTS[(high_centrality, high_density)]


def theme_keywords(
    incidence: sp.spmatrix, topic_of: np.ndarray, topic_ids: list[int], keywords: int, min_papers: int
) -> dict[int, list]:
    """{topic: its keywords' columns, commonest first}: each keyword given by `min_papers`
    papers belongs to the topic whose papers give it most (ties: the lower id), and a topic
    keeps its `keywords` commonest."""
    binary = (sp.csr_matrix(incidence) > 0).astype(np.float64)
    per_topic = np.vstack(
        [np.asarray(binary[np.flatnonzero(topic_of == t)].sum(axis=0)).ravel() for t in topic_ids]
    )
    total = np.asarray(binary.sum(axis=0)).ravel()
    owner = per_topic.argmax(axis=0)
    out = {}
    for k, topic in enumerate(topic_ids):
        cols = np.flatnonzero((owner == k) & (total >= min_papers) & (per_topic[k] > 0))
        order = np.lexsort((cols, -total[cols], -per_topic[k, cols]))
        out[topic] = cols[order][:keywords].tolist()
    return out


def keyword_incidence(documents: pd.DataFrame, index=None) -> tuple[sp.csr_matrix, list[str]] | None:
    """papers x folded authors' keywords (the names' folding), with each keyword as shown; None
    without a `keywords` column holding any."""
    if "keywords" not in documents.columns:
        return None
    from papertopics.topics.names.keywords import KeywordIndex

    built = KeywordIndex.build(documents["keywords"].fillna("").astype(str).tolist(), index)
    return None if built is None else (built.incidence.tocsr(), list(built.display))


def term_incidence(topics: pd.DataFrame, counts: sp.spmatrix, terms) -> tuple[sp.csr_matrix, list] | None:
    """papers x the topics' top terms (topics.csv `top_terms` found in the term counts)."""
    at = {str(t): i for i, t in enumerate(terms)}
    wanted = topics.loc[pd.to_numeric(topics["topic"]) >= 0, "top_terms"].fillna("").astype(str)
    chosen = list(dict.fromkeys(w.strip() for cell in wanted for w in cell.split(";") if w.strip() in at))
    if not chosen:
        return None
    return sp.csr_matrix(counts)[:, [at[w] for w in chosen]], chosen


def unplaced_reason(
    incidence: sp.spmatrix, topic_of: np.ndarray, topic: int, min_papers: int, source: str, label_of: dict
) -> str:
    """Why a topic has no keyword of its own: its papers give none, each of theirs is given by
    too few papers, or another topic's papers give each of them more often (named)."""
    binary = (sp.csr_matrix(incidence) > 0).astype(np.float64)
    mine = np.asarray(binary[np.flatnonzero(topic_of == topic)].sum(axis=0)).ravel()
    what = "keywords" if source == AUTHOR_KEYWORDS else "top terms"
    if not mine.any():
        return f"no keyword of its own: none of its papers gives {what}"
    total = np.asarray(binary.sum(axis=0)).ravel()
    shared = np.flatnonzero((mine > 0) & (total >= min_papers))
    if not len(shared):
        return f"no keyword of its own: each of its {what} is given by fewer than {min_papers} papers"
    others = [t for t in np.unique(topic_of) if t != topic and t >= 0]
    counts = np.vstack(
        [np.asarray(binary[np.flatnonzero(topic_of == t)].sum(axis=0)).ravel() for t in others]
    )
    takers = pd.Series([others[k] for k in counts[:, shared].argmax(axis=0)]).value_counts()
    named = ", ".join(f"{t} {label_of.get(t, '')}".strip() for t in takers.index[:3])
    return f"no keyword of its own: the papers of other topics ({named}) give each of its {what} more often"


def thematic_map(
    documents: pd.DataFrame,
    topics: pd.DataFrame,
    counts=None,
    terms=None,
    index=None,
    *,
    keywords: int = THEME_KEYWORDS,
    min_papers: int = MIN_PAPERS,
    normalise: str = EQUIVALENCE,
):
    """thematic_map.csv: one row per topic: its centrality, density and quadrant from its
    keywords (the authors', or the topics' top terms where the listing has none or too few to
    place MIN_THEMES topics), or, for a topic with no keyword of its own, no figures and a note
    saying why; empty with fewer than MIN_THEMES themes."""
    if normalise not in (EQUIVALENCE, ASSOCIATION):
        raise ValueError(f"thematic.normalise is {normalise!r}: {EQUIVALENCE} or {ASSOCIATION}")
    table = topics.assign(topic=pd.to_numeric(topics["topic"]).astype(int)).set_index("topic")
    topic_ids = sorted(t for t in table.index if t >= 0)
    topic_of = pd.to_numeric(documents["topic"]).astype(int).to_numpy()
    themes: dict[int, list] = {}
    for source in (AUTHOR_KEYWORDS, TOP_TERMS) if len(topic_ids) >= MIN_THEMES else ():
        if source == AUTHOR_KEYWORDS:
            found = keyword_incidence(documents, index)
        else:  # no authors' keywords, or too few papers give them to place MIN_THEMES topics
            found = None if counts is None or terms is None else term_incidence(topics, counts, terms)
        if found is not None:
            incidence, shown = found
            chosen = theme_keywords(incidence, topic_of, topic_ids, keywords, min_papers)
            themes = {t: cols for t, cols in chosen.items() if cols}
        if len(themes) >= MIN_THEMES:
            break
    if len(themes) < MIN_THEMES:
        return pd.DataFrame(columns=THEMATIC_COLUMNS)
    columns = [c for cols in themes.values() for c in cols]
    theme_of = np.array([t for t, cols in themes.items() for _ in cols])
    cooc = cooccurrence(incidence[:, columns])
    # bibliometrix's matrix order: commonest first, ties alphabetical (upper-cased, as its terms)
    order = sorted(range(len(columns)), key=lambda k: (-cooc[k, k], shown[columns[k]].upper()))
    centrality, density = centrality_density(cooc[np.ix_(order, order)], theme_of[order], normalise)
    ids = list(themes)
    c = np.array([centrality[t] for t in ids])
    d = np.array([density[t] for t in ids])
    label_of = {t: str(table.loc[t, "label"]) for t in topic_ids}
    notes = [
        f"{len(themes[t])} keyword{'s' if len(themes[t]) > 1 else ''}: too few for its density to mean much "
        "(drawn hollow)"
        if len(themes[t]) < MIN_KEYWORDS
        else ""
        for t in ids
    ]
    placed = pd.DataFrame(
        {
            "topic": ids,
            "centrality": np.round(c, 6),
            "density": np.round(d, 6),
            "quadrant": [quadrant(x, y) for x, y in zip(sides(c), sides(d))],
            "n_keywords": [len(themes[t]) for t in ids],
            "keywords": ["; ".join(shown[k] for k in themes[t]) for t in ids],
            "note": notes,
        }
    )
    missing = [t for t in topic_ids if t not in themes]
    unplaced = pd.DataFrame(
        {
            "topic": missing,
            "n_keywords": 0,
            "keywords": "",
            "note": [unplaced_reason(incidence, topic_of, t, min_papers, source, label_of) for t in missing],
        }
    )
    out = pd.concat([placed, unplaced], ignore_index=True) if missing else placed
    out["label"] = [label_of[t] for t in out["topic"]]
    out["size"] = pd.to_numeric(table.loc[out["topic"], "size"]).astype(int).to_numpy()
    out["keywords_from"], out["links"] = source, normalise
    out["quadrant"] = out["quadrant"].fillna("")
    return out[THEMATIC_COLUMNS]
