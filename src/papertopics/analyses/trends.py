"""The one trend test: a topic's papers among all papers, per period (or per listing), and whether
their share moves with time. Over time (topic_trends.csv, which the cards, the workbook and the
paper's figure read) and the listings page all take their "rising" and "falling" from here.

The model is the linear logit model of a topic's share on time, the binomial GLM
`logit P(paper in topic | period t) = a + b t` (Agresti, Categorical Data Analysis, 3rd ed. 2013,
ch. 5: logistic regression; the Cochran-Armitage trend test is its score test), fitted by
statsmodels (`sm.GLM(..., family=Binomial())`, https://www.statsmodels.org/stable/glm.html).
Its slope b is the change in log-odds per unit of t (a year, or the newest listing against the
earlier ones). The p-value is that of one of two tests of b = 0, both valid where Wald's test is
not (separation, sparse cells; Hauck & Donner 1977: Wald's statistic shrinks to 0 as the fitted
slope grows, which read "steady, p 0.999" for a topic that fills its last period):

- **exact** where the topic has few papers (at most EXACT_MAX_PAPERS on its smaller side, or a
  period expecting fewer than COCHRAN_MIN of them: Cochran's rule for the chi-square
  approximation) and the computation is cheap: the exact conditional trend test (Agresti 2013,
  ch. 7, exact inference for logistic regression; the exact Cochran-Armitage test). Given each
  period's papers n_i and the topic's papers m (the nuisance intercept's sufficient statistic),
  the topic's counts are multivariate hypergeometric, P(y) = prod C(n_i, y_i) / C(N, m), and the
  slope's sufficient statistic T = sum t_i y_i has a distribution computed exactly by dynamic
  programming over the periods; two-sided p = P(|T - E T| >= |t_obs - E T|). It needs no large
  sample and is the same whether the topic fills a period or not.
- **likelihood ratio** otherwise: G2 = deviance(flat) - deviance(trend), chi-square with 1 df
  (Agresti 2013, ch. 5). Under separation (every paper of the topic after, or before, every
  other paper: Albert & Anderson 1984; a topic that fills a period counts) the maximum-likelihood
  slope is infinite and the trend model's deviance tends to 0, so G2 is the flat model's deviance.
  Over-dispersion (periods that scatter more than binomial chance; McCullagh & Nelder 1989,
  sec. 4.5): the dispersion phi = deviance / (periods - 2) of the trend model, never below 1, and
  F = G2 / phi on (1, periods - 2) df (quasi-likelihood). The deviance, not Pearson's X2: one
  stray paper in a period that expects 1e-5 of the topic's papers adds 1e5 to X2 (and read a
  trend of p 3e-7 as p 0.84) but about 2 log(1e5) = 23 to the deviance.

The interval is the profile-likelihood interval of b (the slopes the same test would not reject,
so it agrees with the p-value; open on one side under separation, where b has no finite
estimate). q: Benjamini-Hochberg (statsmodels' multipletests, "fdr_bh") over the topics tested
together; a topic that cannot be tested (one period, no papers, every paper) has p = NaN, is
left out of the correction and is "steady". "rising"/"falling" means q < TREND_Q.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq
from scipy.special import expit, gammaln, log_expit, xlogy
from scipy.stats import chi2, f, hypergeom

__all__ = [
    "TREND_Q",
    "Trend",
    "exact_trend_p",
    "fit_trend",
    "lr_trend_p",
    "odds_factor",
    "q_values",
    "verdicts",
]

# A trend with q below this is called rising or falling (everywhere: pages, workbook, cards).
TREND_Q = 0.05
# the profile-likelihood interval's level
LEVEL = 0.95
# The exact test where the topic's smaller side (its papers, or the others) has at most this many...
EXACT_MAX_PAPERS = 100
# ... or where a period expects fewer than this many of them (Cochran's rule: chi-square's
# approximation wants expected counts of 5 or more)
COCHRAN_MIN = 5.0
# ... as long as the dynamic programme stays cheap: cells x papers added, summed over periods
# (beyond it the likelihood-ratio test)
EXACT_BUDGET = 6e7
# ... and its table (papers so far x T so far) at most this many cells (16 MB of floats)
EXACT_CELLS = 2_000_000
# period positions are multiples of 1/24 year (a month's middle, a joined period's middle)
SCORE_GRID = 24
# beyond this many log-odds per unit of t a slope is taken for infinite (the profile's search)
SLOPE_LIMIT = 1e3


@dataclass(frozen=True)
class Trend:
    slope: float  # log-odds per unit of x; nan where separation leaves it infinite
    std_error: float  # Wald's, for reference only (nan under separation)
    ci_low: float  # the profile-likelihood interval (one end infinite under separation)
    ci_high: float
    p_value: float  # nan where there is nothing to test
    scale: float  # the dispersion used (1: binomial)
    df_resid: int
    test: str  # "exact", "lr" (chi-square), "lr-f" (over-dispersed: F) or "none"

    @property
    def direction(self) -> int:
        """+1 up, -1 down, 0 flat or untested (a separated trend's from its finite bound)."""
        if np.isfinite(self.slope):
            return int(np.sign(self.slope))
        return 1 if self.ci_high == np.inf else -1 if self.ci_low == -np.inf else 0


def odds_factor(log_odds: float) -> float:
    """exp(log_odds) without numpy's overflow warning: inf beyond float range, nan for nan."""
    if not np.isfinite(log_odds):
        return np.nan if np.isnan(log_odds) else (np.inf if log_odds > 0 else 0.0)
    return float(np.exp(min(log_odds, 709.0)))


def _table(successes, trials, x) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The counts per distinct x (periods with no papers dropped), in increasing x."""
    successes, trials, x = (np.asarray(a, dtype=float).ravel() for a in (successes, trials, x))
    keep = trials > 0
    positions, where = np.unique(x[keep], return_inverse=True)
    y = np.bincount(where, weights=successes[keep], minlength=len(positions))
    n = np.bincount(where, weights=trials[keep], minlength=len(positions))
    return y, n, positions


def _separated(y: np.ndarray, n: np.ndarray, x: np.ndarray) -> int:
    """+1 when no paper of the topic comes before any other paper (its papers from some period on,
    that period shared), -1 when none comes after, 0 otherwise: the (quasi-)complete separation
    of Albert & Anderson (1984), where the slope's maximum-likelihood estimate is infinite."""
    hits, misses = x[y > 0], x[n - y > 0]
    if misses.max() <= hits.min():
        return 1
    if hits.max() <= misses.min():
        return -1
    return 0


def _deviance(y, n, eta) -> float:
    """The binomial deviance of linear predictor eta (log_expit: finite for any eta)."""
    saturated = xlogy(y, y / n) + xlogy(n - y, (n - y) / n)
    return float(2 * np.sum(saturated - y * log_expit(eta) - (n - y) * log_expit(-eta)))


def _profile(y, n, x, b: float) -> float:
    """The profile deviance of slope b: the deviance at the best intercept with b fixed (the
    intercept's score equation sum n expit(a + b x) = sum y is monotone in a)."""
    reach = abs(b) * float(np.abs(x).max()) + 60.0
    a = brentq(lambda a: float(np.sum(n * expit(a + b * x)) - y.sum()), -reach, reach, xtol=1e-12)
    return _deviance(y, n, a + b * x)


def _crossing(excess, start: float, step: float) -> float:
    """The b beyond `start` (excess(start) < 0) in the direction of `step` where excess turns
    positive; +-inf when it stays negative up to SLOPE_LIMIT. Never raises."""
    inner, outer = start, start + step
    try:
        while excess(outer) < 0:
            if abs(outer) > SLOPE_LIMIT:
                return float(np.sign(step)) * np.inf
            inner, outer, step = outer, outer + step, step * 2
        low, high = sorted((inner, outer))
        return float(brentq(excess, low, high, xtol=1e-8))
    except (ValueError, RuntimeError, FloatingPointError):  # no sign change or no convergence
        return np.nan


def _profile_interval(y, n, x, slope: float, minimum: float, threshold: float, side: int):
    """{b: profile deviance(b) - minimum <= threshold} (side: the separation's direction, where
    the fitted slope is infinite and the minimum the limit 0)."""
    span = max(float(np.ptp(x)), 1e-9)

    def excess(b: float) -> float:
        return _profile(y, n, x, b) - minimum - threshold

    if not side:
        return _crossing(excess, slope, -1.0 / span), _crossing(excess, slope, 1.0 / span)
    inside = 0.0  # a slope inside the interval, towards the infinite end
    try:
        while excess(inside) >= 0 and abs(inside) <= SLOPE_LIMIT:
            inside += side * 4.0 / span
    except (ValueError, RuntimeError, FloatingPointError):  # never raises: no finite end
        inside = np.nan
    bound = _crossing(excess, inside, -side * 1.0 / span) if np.isfinite(inside) else np.nan
    return (bound, np.inf) if side > 0 else (-np.inf, bound)


def _scores(x: np.ndarray) -> np.ndarray | None:
    """The positions as small integers (on SCORE_GRID, divided by their gcd), None when they are
    not on that grid."""
    grid = (x - x.min()) * SCORE_GRID
    scores = np.rint(grid)
    if not np.allclose(grid, scores, atol=1e-6):
        return None
    scores = scores.astype(np.int64)
    step = np.gcd.reduce(scores[scores > 0]) if (scores > 0).any() else 1
    return scores // max(int(step), 1)


def _exact_cost(n: np.ndarray, k: int, scores: np.ndarray) -> float:
    """The programme's additions (cells x papers added, over the periods); inf beyond
    EXACT_CELLS cells (its memory)."""
    cells = (k + 1) * (k * int(scores.max()) + 1)
    return float(cells * np.sum(np.minimum(n, k) + 1)) if cells <= EXACT_CELLS else np.inf


def exact_trend_p(successes, trials, x, budget: float = np.inf) -> float:
    """The two-sided p of the exact conditional trend test (module docstring): T = sum s_i y_i
    given each period's papers and the topic's; P(|T - E T| >= |t - E T|). NaN where there is
    nothing to test, the positions are off SCORE_GRID, or the programme would cost over `budget`."""
    y, n, x = _table(successes, trials, x)
    m, total = int(round(y.sum())), int(round(n.sum()))
    if len(x) < 2 or m == 0 or m == total:
        return np.nan
    scores = _scores(x)
    if scores is None:
        return np.nan
    y, n = np.rint(y).astype(np.int64), np.rint(n).astype(np.int64)
    if 2 * m > total:  # the other papers' statistic: T' = sum s n - T, the same |T - E T|
        y, m = n - y, total - m
    observed = int(np.dot(scores, y))
    if len(x) == 2:  # T = s_2 y_2: y_2 is hypergeometric (Fisher's exact test)
        support = np.arange(max(0, m - n[0]), min(m, n[1]) + 1)
        pmf = hypergeom.pmf(support, total, n[1], m)
        statistic = support * scores[1]
    else:
        cost = _exact_cost(n, m, scores)
        if not np.isfinite(cost) or cost > budget:  # EXACT_CELLS holds whatever the budget
            return np.nan
        statistic, pmf = _exact_distribution(n, scores, m)
    mean = float(np.dot(statistic, pmf) / pmf.sum())
    extreme = np.abs(statistic - mean) >= abs(observed - mean) - 1e-7 * max(1.0, abs(mean))
    return float(min(1.0, pmf[extreme].sum() / pmf.sum()))


def _exact_distribution(n: np.ndarray, scores: np.ndarray, m: int):
    """(T's values, their probabilities up to a constant) for m papers among periods of n_i
    papers at integer scores: the coefficients of prod_i sum_j C(n_i, j) u^j v^(j s_i) at u^m,
    by dynamic programming over the periods (a table of papers so far x T so far), rescaled
    after each period so that no float overflows (the ratios are what the p-value needs)."""
    width = m * int(scores.max()) + 1
    table = np.zeros((m + 1, width))
    table[0, 0] = 1.0
    for papers, score in zip(n, scores):
        top = int(min(papers, m))
        j = np.arange(top + 1)
        log_weight = gammaln(papers + 1) - gammaln(j + 1) - gammaln(papers - j + 1)
        weight = np.exp(log_weight - log_weight.max())
        grown = np.zeros_like(table)
        for jj in range(top + 1):
            shift = jj * int(score)
            if shift >= width:
                break
            grown[jj:, shift:] += weight[jj] * table[: m + 1 - jj, : width - shift]
        table = grown / grown.max()
    last = table[m]
    values = np.flatnonzero(last > 0)
    return values.astype(float), last[values]


def lr_trend_p(successes, trials, x) -> tuple[float, float, int, str]:
    """(p, dispersion, residual df, test) of the likelihood-ratio test (module docstring)."""
    return _lr(*_table(successes, trials, x))[:4]


def _lr(y, n, x):
    """-> (p, phi, df, test, slope, Wald's error, trend deviance, separation side)."""
    import statsmodels.api as sm  # ~1 s to import: only when fitting

    centred = x - x.mean()  # the slope is the same; the intercept better conditioned
    df_resid = len(x) - 2
    endog = np.column_stack([y, n - y])
    binomial = sm.families.Binomial()
    with warnings.catch_warnings():
        # statsmodels' PerfectSeparationWarning, convergence and domain warnings: separation is
        # found exactly (_separated) and convergence checked below
        warnings.simplefilter("ignore")
        try:
            flat = sm.GLM(endog, np.ones((len(x), 1)), family=binomial).fit()
            side = _separated(y, n, x)
            fitted = (
                None
                if side
                else sm.GLM(endog, np.column_stack([np.ones_like(centred), centred]), family=binomial).fit()
            )
        except (np.linalg.LinAlgError, ValueError):
            return np.nan, 1.0, df_resid, "none", np.nan, np.nan, np.nan, 0
    null_deviance = float(flat.deviance)
    if not (flat.converged and np.isfinite(null_deviance)):
        return np.nan, 1.0, df_resid, "none", np.nan, np.nan, np.nan, 0
    if side:  # the trend model's deviance tends to 0 (one shared period: fitted exactly)
        return float(chi2.sf(null_deviance, 1)), 1.0, df_resid, "lr", np.nan, np.nan, 0.0, side
    if not (fitted.converged and np.all(np.isfinite(fitted.params)) and np.isfinite(fitted.deviance)):
        return np.nan, 1.0, df_resid, "none", np.nan, np.nan, np.nan, 0
    deviance = float(fitted.deviance)
    statistic = max(null_deviance - deviance, 0.0)
    scale = max(1.0, deviance / df_resid) if df_resid > 0 else 1.0
    if scale > 1.0:
        p, test = float(f.sf(statistic / scale, 1, df_resid)), "lr-f"
    else:
        p, test = float(chi2.sf(statistic, 1)), "lr"
    return p, scale, df_resid, test, float(fitted.params[1]), float(fitted.bse[1]), deviance, 0


def _use_exact(y, n, x) -> bool:
    m, total = y.sum(), n.sum()
    smaller = min(m, total - m)
    expected = n * smaller / total
    return smaller <= EXACT_MAX_PAPERS or bool((expected < COCHRAN_MIN).any())


def fit_trend(successes, trials, x) -> Trend:
    """The topic's trend over x: slope, interval, p (module docstring)."""
    y, n, x = _table(successes, trials, x)
    df_resid = max(len(x) - 2, 0)
    if len(x) < 2 or y.sum() == 0 or y.sum() == n.sum():
        return Trend(np.nan, np.nan, np.nan, np.nan, np.nan, 1.0, df_resid, "none")
    p, scale, _, test, slope, error, deviance, side = _lr(y, n, x)
    if _use_exact(y, n, x):
        exact = exact_trend_p(y, n, x, budget=EXACT_BUDGET)
        if np.isfinite(exact):
            p, scale, test = exact, 1.0, "exact"
    if test == "none":
        return Trend(np.nan, np.nan, np.nan, np.nan, np.nan, 1.0, df_resid, "none")
    threshold = scale * (f.ppf(LEVEL, 1, df_resid) if scale > 1.0 else chi2.ppf(LEVEL, 1))
    if side or np.isfinite(slope):
        centred = x - x.mean()  # the same slopes, a better-conditioned intercept
        low, high = _profile_interval(y, n, centred, slope if not side else np.nan, deviance, threshold, side)
    else:  # the exact test on a table whose fit did not converge: no interval
        low, high = np.nan, np.nan
    return Trend(slope, error, low, high, p, scale, df_resid, test)


def q_values(p_values) -> np.ndarray:
    """Benjamini-Hochberg q-values over the topics tested together (statsmodels' multipletests,
    "fdr_bh"); a NaN p (nothing tested) stays out of the correction and gets a NaN q."""
    from statsmodels.stats.multitest import multipletests

    p = np.asarray(p_values, dtype=float)
    q = np.full(p.shape, np.nan)
    tested = np.isfinite(p)
    if tested.any():
        q[tested] = multipletests(np.clip(p[tested], 0.0, 1.0), method="fdr_bh")[1]
    return q


def verdicts(q: np.ndarray, direction: np.ndarray, steady: str = "steady") -> np.ndarray:
    """ "rising" / "falling" where q < TREND_Q (direction: the slope's sign), else `steady`
    (a NaN q, nothing tested, included)."""
    q = np.asarray(q, dtype=float)
    clear = np.isfinite(q) & (q < TREND_Q)
    direction = np.asarray(direction, dtype=float)
    return np.where(clear & (direction > 0), "rising", np.where(clear & (direction < 0), "falling", steady))
