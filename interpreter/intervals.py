"""95% confidence intervals for the figures `simulate` and `compare` report.

A win rate is a proportion of games, so its interval is the Wilson score interval
(it stays inside [0, 1] and is sound for rates near 0 or 1 and for few games, where
the normal "p plus or minus 1.96 standard errors" is not). A mean is given Student's
t interval from the sample standard deviation, which is right for few games and
becomes the normal interval for many.  No dependency beyond the standard library.
"""

from __future__ import annotations

import math
from typing import Sequence

Z95 = 1.959963984540054  # the 97.5% point of the standard normal distribution


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``successes`` of ``n`` trials.

    >>> low, high = wilson(7, 20)
    >>> round(low, 4), round(high, 4)
    (0.1812, 0.5671)
    """
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    denominator = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denominator
    half = z / denominator * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    low = 0.0 if successes == 0 else max(0.0, centre - half)  # exact at the edges, where rounding
    high = 1.0 if successes == n else min(1.0, centre + half)  # would leave 0.9999999999999999
    return low, high


def _t_two_sided(t: float, df: int) -> float:
    """P(|T| < t) for Student's t with ``df`` degrees of freedom (exact finite series,
    Abramowitz and Stegun 26.7.3 and 26.7.4)."""
    theta = math.atan(t / math.sqrt(df))
    c2 = math.cos(theta) ** 2
    if df % 2 == 1:
        term, total = math.cos(theta), 0.0
        if df > 1:
            total = term
            for k in range(2, df - 1, 2):
                term *= c2 * k / (k + 1)
                total += term
        return 2 / math.pi * (theta + math.sin(theta) * total)
    term = total = 1.0
    for k in range(1, df - 2, 2):
        term *= c2 * k / (k + 1)
        total += term
    return math.sin(theta) * total


def t_quantile(df: int, confidence: float = 0.95) -> float:
    """The two-sided critical value of Student's t: P(|T| < value) = ``confidence``.

    >>> round(t_quantile(4), 4), round(t_quantile(19), 4)
    (2.7764, 2.093)
    """
    if df < 1:
        raise ValueError("a t interval needs at least 1 degree of freedom")
    if df > 200 and confidence == 0.95:
        # Cornish-Fisher expansion about the normal point: within 1e-7 for df > 200
        z, v = Z95, float(df)
        return (z + (z ** 3 + z) / (4 * v) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * v ** 2)
                + (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / (384 * v ** 3))
    low, high = 0.0, 1.0
    while _t_two_sided(high, df) < confidence:
        high *= 2
    for _ in range(100):
        mid = (low + high) / 2
        if _t_two_sided(mid, df) < confidence:
            low = mid
        else:
            high = mid
    return (low + high) / 2


def mean_interval(values: Sequence[float], confidence: float = 0.95) -> tuple[float, float]:
    """Student's t interval for the mean of ``values`` (sample standard deviation,
    n - 1 degrees of freedom); a single value gives the point itself.

    >>> low, high = mean_interval([1, 2, 3, 4, 5])
    >>> round(low, 4), round(high, 4)
    (1.0368, 4.9632)
    """
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, mean
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    return mean_interval_of(n, mean, sd, confidence)


def mean_interval_of(n: int, mean: float, sd: float, confidence: float = 0.95) -> tuple[float, float]:
    """Student's t interval for a mean of ``n`` values with sample standard deviation
    ``sd`` (the figures alone, for a run that keeps no list of values).

    >>> low, high = mean_interval_of(5, 3.0, 1.5811388300841898)
    >>> round(low, 4), round(high, 4)
    (1.0368, 4.9632)
    """
    if n < 2:
        return mean, mean
    half = t_quantile(n - 1, confidence) * sd / math.sqrt(n)
    return mean - half, mean + half
