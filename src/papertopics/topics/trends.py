"""The one trend model: a topic's papers among all papers, per period (or per listing), as a
binomial GLM with a logit link on time, fitted by statsmodels. Over time (topic_trends.csv),
the listings page and the cards all read their "rising" and "falling" from here.

- The fit: `sm.GLM([successes, failures], [1, x], family=Binomial())`, the slope b the change in
  log-odds per unit of x (a year, or newest listing against the earlier ones).
- Over-dispersion (McCullagh & Nelder 1989, sec. 4.5; the quasi-binomial of R's glm): when the
  Pearson X2 / df of that fit exceeds 1, it is refitted with that scale and the interval and
  p-value come from Student's t with df = periods - 2 (statsmodels' `scale=`, `use_t=True`).
  A scale below 1 is never used: on sparse yearly counts X2/df is often 0.05-0.25, and shrinking
  the errors by it would call most topics significant.
- Separation (a topic with papers only in the last period, or only in the first: the slope's
  maximum-likelihood estimate is infinite and Wald's test collapses, Hauck & Donner 1977): the
  likelihood-ratio test against the flat model instead (the limit of the fitted model is the
  saturated one, so the statistic is the flat model's deviance, chi-square with 1 df), its
  interval from the profile likelihood (one side finite), and no slope.
- q: Benjamini-Hochberg over every topic tested together; "rising"/"falling" means q < TREND_Q.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq
from scipy.stats import chi2, false_discovery_control

__all__ = ["TREND_Q", "Trend", "fit_trend", "q_values", "verdicts"]

# A trend with q below this is called rising or falling (everywhere: pages, workbook, cards).
TREND_Q = 0.05
# the profile-likelihood interval's level
LEVEL = 0.95


@dataclass(frozen=True)
class Trend:
    slope: float  # log-odds per unit of x; nan where separation leaves it infinite
    std_error: float  # nan under separation
    ci_low: float
    ci_high: float
    p_value: float
    scale: float  # the dispersion used (1: binomial)
    df_resid: int
    test: str  # "wald-z", "wald-t" (quasi-binomial), "lr" (separation) or "none"

    @property
    def direction(self) -> int:
        """+1 up, -1 down, 0 flat or untested (a separated trend's from its finite bound)."""
        if np.isfinite(self.slope):
            return int(np.sign(self.slope))
        return 1 if self.ci_high == np.inf else -1 if self.ci_low == -np.inf else 0


def _glm(successes: np.ndarray, trials: np.ndarray, x: np.ndarray, offset=None, intercept_only=False):
    import statsmodels.api as sm  # ~1 s to import: only when fitting

    endog = np.column_stack([successes, trials - successes])
    exog = np.ones((len(x), 1)) if intercept_only else np.column_stack([np.ones_like(x), x])
    return sm.GLM(endog, exog, family=sm.families.Binomial(), offset=offset)


def _separated(successes: np.ndarray, trials: np.ndarray, x: np.ndarray) -> int:
    """+1 when every paper of the topic is in the last period (a rise with no finite slope), -1
    when in the first, 0 otherwise (also where the topic has every paper of those periods)."""
    nonzero = x[successes > 0]
    if len(nonzero) == 0 or np.unique(x).size < 2:
        return 0
    if np.all(nonzero == x.max()):
        return 1
    if np.all(nonzero == x.min()):
        return -1
    return 0


def _profile_bound(successes, trials, x, direction: int) -> float:
    """The finite end of the profile-likelihood interval of a separated slope: the slope b where
    the deviance of the best intercept with b fixed rises to chi2(1) quantile above its infimum 0."""
    target = chi2.ppf(LEVEL, 1)
    centred = x - x.mean()

    def excess(b: float) -> float:
        fitted = _glm(successes, trials, centred, offset=b * centred, intercept_only=True).fit()
        return fitted.deviance - target

    span = max(float(np.ptp(x)), 1e-9)
    far = direction * 1.0 / span
    while excess(far) > 0 and abs(far) < 1e4 / span:
        far *= 2
    near = 0.0
    while excess(near) < 0 and abs(near) < 1e4 / span:  # the flat model is itself inside
        near -= direction * 1.0 / span
    return float(brentq(excess, min(near, far), max(near, far), xtol=1e-8))


def fit_trend(successes, trials, x) -> Trend:
    """The topic's trend over x: slope, standard error, interval, p (module docstring)."""
    successes, trials, x = (np.asarray(a, dtype=float) for a in (successes, trials, x))
    keep = trials > 0
    successes, trials, x = successes[keep], trials[keep], x[keep]
    x = x - x.mean() if len(x) else x  # the slope is the same; the intercept better conditioned
    df_resid = len(x) - 2
    if np.unique(x).size < 2 or successes.sum() == 0 or successes.sum() == trials.sum():
        return Trend(np.nan, np.nan, np.nan, np.nan, 1.0, 1.0, max(df_resid, 0), "none")
    side = _separated(successes, trials, x)
    if side:
        flat = _glm(successes, trials, x, intercept_only=True).fit()
        bound = _profile_bound(successes, trials, x, side)
        low, high = (bound, np.inf) if side > 0 else (-np.inf, bound)
        return Trend(np.nan, np.nan, low, high, float(chi2.sf(flat.deviance, 1)), 1.0, df_resid, "lr")
    model = _glm(successes, trials, x)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a near-separated fit still converges; its Wald p is honest enough
        try:
            fitted = model.fit()
            scale = fitted.pearson_chi2 / df_resid if df_resid > 0 else 1.0
            quasi = scale > 1.0
            if quasi:
                fitted = model.fit(scale=scale, use_t=True)
        except (np.linalg.LinAlgError, ValueError):  # a degenerate table: no verdict, never a crash
            return Trend(np.nan, np.nan, np.nan, np.nan, 1.0, 1.0, df_resid, "none")
    low, high = fitted.conf_int(alpha=1 - LEVEL)[1]
    return Trend(
        float(fitted.params[1]),
        float(fitted.bse[1]),
        float(low),
        float(high),
        float(fitted.pvalues[1]),
        float(scale) if quasi else 1.0,
        df_resid,
        "wald-t" if quasi else "wald-z",
    )


def q_values(p_values) -> np.ndarray:
    """Benjamini-Hochberg q-values over the topics tested together."""
    p = np.asarray(p_values, dtype=float)
    return false_discovery_control(p, method="bh") if len(p) else p


def verdicts(q: np.ndarray, direction: np.ndarray, steady: str = "steady") -> np.ndarray:
    """ "rising" / "falling" where q < TREND_Q (direction: the slope's sign), else `steady`."""
    clear = np.asarray(q, dtype=float) < TREND_Q
    direction = np.asarray(direction, dtype=float)
    return np.where(clear & (direction > 0), "rising", np.where(clear & (direction < 0), "falling", steady))
