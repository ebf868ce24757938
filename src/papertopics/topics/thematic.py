"""The thematic map: Callon's strategic diagram (Callon, Courtial & Laville 1991), computed as
Cobo et al. (2011, J. Informetrics 5(1):146-166) define it and bibliometrix's
`thematicMap()` draws it, with the topics as the themes.

The network is the co-occurrence network of keywords: the authors' keywords where the listing
has them (folded as the names fold them: topics.names.keywords.KeywordIndex, so "meta-learning"
and "Meta learning" are one keyword), else the topics' own top terms (topics.csv `top_terms`,
counted in the abstracts). Each keyword belongs to one theme, the topic whose papers give it most
(bibliometrix gives each keyword to one cluster of the keyword network; here the clusters are the
topics); a theme is its `keywords` commonest keywords (config thematic.keywords, 10) given by
`min_papers` papers or more (thematic.min_papers, 2).
With c_i the papers giving keyword i and c_ij those giving both i and j, the links are
Cobo et al.'s equivalence index

    e_ij = c_ij^2 / (c_i c_j)           (bibliometrix R/normalizeSimilarity.R, type "equivalence":
                                          S = (NetMatrix / sqrt(outer(D, D, "*")))^2)

and for a theme T of w keywords (Cobo et al. 2011, after Callon et al. 1991)

    centrality = 10 * sum of e_kh, k in T, h a keyword of another theme   (each link once)
    density    = 100 * sum of e_ij, i < j both in T, / w                  (each link once)

bibliometrix's R/thematicMap.R (massimoaria/bibliometrix at 7d918f29, the loop over
`label_cluster`) has `centrality=c(centrality,sum(sEij[ind,-ind]))` and
`density=c(density,sum(sEij[ind,ind])/length(ind)*100)`, on its network's association strength
(`networkPlot(normalize="association")`, c_ij / (c_i c_j); R/normalizeSimilarity.R), without the
factor 10 and with each internal link twice; at 06ff31f9 it sums the upper triangle grouped by
the first keyword's cluster (`centrality = sum(eij * ext)`, `density = sum((eij * (1 - ext)) /
n) * 100`). The factors change no quadrant, the index can: here the equivalence index, as Cobo
et al. and Callon et al. define it.
Split at the medians of the themes (bibliometrix: at the mean rank, the same split), the
quadrants are motor themes (central and dense), niche themes (dense, isolated), emerging or
declining themes (neither) and basic themes (central, loose).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import scipy.sparse as sp

QUADRANTS = {
    (True, True): "motor themes",
    (False, True): "niche themes",
    (False, False): "emerging or declining themes",
    (True, False): "basic themes",
}
THEMATIC_COLUMNS = [
    "topic", "label", "size", "centrality", "density", "quadrant", "n_keywords", "keywords", "keywords_from",
]  # fmt: skip
# keywords_from: what the network's keywords are
AUTHOR_KEYWORDS, TOP_TERMS = "authors' keywords", "topic terms"
# config.yaml's defaults (thematic.*): a theme's keywords, its commonest (bibliometrix lists a
# cluster's 10 best words); a keyword given by fewer papers is left out (bibliometrix's minfreq
# is at least 2)
THEME_KEYWORDS, MIN_PAPERS = 10, 2
# the least themes a map is drawn for (a median of fewer splits nothing)
MIN_THEMES = 4


def equivalence(incidence: sp.spmatrix) -> np.ndarray:
    """keywords x keywords e_ij = c_ij^2 / (c_i c_j) from papers x keywords 0/1; 0 on the diagonal."""
    binary = (sp.csr_matrix(incidence) > 0).astype(np.float64)
    cooc = (binary.T @ binary).toarray()
    c = np.diag(cooc).copy()
    with np.errstate(divide="ignore", invalid="ignore"):
        e = np.where(cooc > 0, cooc**2 / np.outer(c, c), 0.0)
    np.fill_diagonal(e, 0.0)
    return e


def centrality_density(e: np.ndarray, theme_of: np.ndarray) -> tuple[dict[int, float], dict[int, float]]:
    """Per theme, Cobo et al.'s centrality (10 x its external links) and density (100 x its
    internal links / its keywords), each link counted once; `theme_of`: each keyword's theme."""
    centrality, density = {}, {}
    for theme in np.unique(theme_of):
        inside = theme_of == theme
        centrality[int(theme)] = 10.0 * float(e[np.ix_(inside, ~inside)].sum())
        density[int(theme)] = 100.0 * float(np.triu(e[np.ix_(inside, inside)], 1).sum()) / int(inside.sum())
    return centrality, density


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


def thematic_map(
    documents: pd.DataFrame,
    topics: pd.DataFrame,
    counts=None,
    terms=None,
    index=None,
    *,
    keywords: int = THEME_KEYWORDS,
    min_papers: int = MIN_PAPERS,
):
    """thematic_map.csv: one row per topic with keywords of its own: the authors' keywords, or
    the topics' top terms where the listing has none or too few to place MIN_THEMES topics;
    empty with fewer than MIN_THEMES such topics."""
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
    centrality, density = centrality_density(equivalence(incidence[:, columns]), theme_of)
    ids = list(themes)
    c = np.array([centrality[t] for t in ids])
    d = np.array([density[t] for t in ids])
    high_c, high_d = c >= np.median(c), d >= np.median(d)
    return pd.DataFrame(
        {
            "topic": ids,
            "label": table.loc[ids, "label"].astype(str).to_numpy(),
            "size": pd.to_numeric(table.loc[ids, "size"]).astype(int).to_numpy(),
            "centrality": np.round(c, 4),
            "density": np.round(d, 4),
            "quadrant": [QUADRANTS[(bool(x), bool(y))] for x, y in zip(high_c, high_d)],
            "n_keywords": [len(themes[t]) for t in ids],
            "keywords": ["; ".join(shown[k] for k in themes[t]) for t in ids],
            "keywords_from": source,
        },
        columns=THEMATIC_COLUMNS,
    )
