"""The G-test of independence and the chi-square tail it needs, in log space (no scipy).

The tail of the chi-square distribution with k degrees of freedom at x is the regularized upper
incomplete gamma function Q(k/2, x/2). It is computed here from its two classical expansions
(Abramowitz and Stegun 6.5.29 and 6.5.31; DLMF 8.7.1 and 8.9.2): the power series of P = 1 - Q
below x = a + 1, where Q is not small, and the continued fraction of Q above, evaluated in log
space so that a leak with p = 1e-300 or smaller still gets its -log10(p) rather than 0.
"""

from __future__ import annotations

import math

import numpy as np

_EPS = 1e-15
_TINY = 1e-300
_MAX_TERMS = 10_000_000


def log_gamma_q(a: float, x: float) -> float:
    """ln Q(a, x), the regularized upper incomplete gamma function, for a > 0, x >= 0."""
    if a <= 0:
        raise ValueError("a must be positive")
    if x <= 0:
        return 0.0
    log_prefix = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        # P(a, x) = e^-x x^a / Gamma(a+1) * sum_n x^n / ((a+1)...(a+n))
        term = total = 1.0 / a
        ap = a
        for _ in range(_MAX_TERMS):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * _EPS:
                break
        p = math.exp(log_prefix + math.log(total))
        return math.log1p(-p) if p < 1 else -math.inf
    # Q(a, x) = e^-x x^a / Gamma(a) * 1/(x+1-a- 1(1-a)/(x+3-a- 2(2-a)/(x+5-a- ...))), Lentz
    b = x + 1 - a
    c = 1 / _TINY
    d = 1 / b
    h = d
    for i in range(1, _MAX_TERMS):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = _TINY if abs(d) < _TINY else d
        c = b + an / c
        c = _TINY if abs(c) < _TINY else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < _EPS:
            break
    return log_prefix + math.log(h)


def chi2_minus_log10_sf(x: float, df: int) -> float:
    """-log10 of P(X >= x) for X chi-square with ``df`` degrees of freedom (0 when df = 0)."""
    if df <= 0:
        return 0.0
    return max(0.0, -log_gamma_q(df / 2, x / 2) / math.log(10))


def g_statistic(table: np.ndarray) -> tuple[float, int]:
    """The G statistic of a contingency table (rows: groups, columns: observed values) and its
    degrees of freedom, (rows - 1) (columns - 1) over the non-empty rows and columns."""
    table = np.asarray(table, dtype=np.float64)
    table = table[table.sum(axis=1) > 0][:, table.sum(axis=0) > 0]
    if table.size == 0 or min(table.shape) < 2:
        return 0.0, 0
    total = table.sum()
    expected = np.outer(table.sum(axis=1), table.sum(axis=0)) / total
    observed = table > 0
    g = 2.0 * float(np.sum(table[observed] * np.log(table[observed] / expected[observed])))
    return max(g, 0.0), (table.shape[0] - 1) * (table.shape[1] - 1)


def pool_rare(table: np.ndarray, min_count: int) -> tuple[np.ndarray, int]:
    """The table with the columns whose total is below ``min_count`` merged into one column,
    which is dropped if still below it; and how many observations were dropped.

    The chi-square approximation of G needs expected counts of about 5 or more per cell; with
    sparse columns (many values seen once or twice, a wide extended probe) G is far above its
    degrees of freedom even without any dependence, a false leak. Pooling by column totals,
    which ignore the groups, keeps the test valid (under independence the groups are still
    exchangeable given the totals) at the price of power: what the rare values would show is
    lost."""
    table = np.asarray(table)
    totals = table.sum(axis=0)
    rare = totals < min_count
    if not rare.any():
        return table, 0
    pooled = table[:, rare].sum(axis=1, keepdims=True)
    kept = table[:, ~rare]
    if pooled.sum() >= min_count:
        return np.concatenate([kept, pooled], axis=1), 0
    return kept, int(pooled.sum())
