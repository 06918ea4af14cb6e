"""pairstats: how sure a benchmark's median is.

A verdict such as "the median of the paired iochar/fio ratios >= 0.98"
is read off a handful of rounds on a shared, noisy device; an A/A run of
fio against itself misses 2 % criteria that way (bench/README.md). This
gives the median an interval that says whether the rounds decide the
verdict or only lean: the distribution-free interval from the order
statistics (the sign test's), exact for any distribution of the rounds,
no resampling and nothing assumed of their shape.
"""
import math


def _binom_cdf_half(n, k):
    """P(Binomial(n, 1/2) <= k), exactly."""
    return sum(math.comb(n, i) for i in range(k + 1)) / 2.0 ** n


def median_ci(values, level=0.90):
    """The narrowest order-statistic interval [x(k), x(n+1-k)] (sorted,
    1-based) that holds the population median with probability >= level,
    as (lo, hi, coverage). With too few values for that level (n < 5 at
    0.90) the widest one, [min, max], and its lower coverage; None for no
    values."""
    x = sorted(v for v in values if v is not None)
    n = len(x)
    if not n:
        return None
    k = 1  # [x(1), x(n)] covers 1 - 2 P(B <= 0)
    while k + 1 <= n + 1 - (k + 1) and 1 - 2 * _binom_cdf_half(n, k) >= level:
        k += 1
    return x[k - 1], x[n - k], 1 - 2 * _binom_cdf_half(n, k - 1)


def decided(ci, lo_ok=None, hi_ok=None):
    """Whether the interval ci settles a verdict on the median against
    the bounds: with lo_ok, "median >= lo_ok"; with hi_ok, "median <=
    hi_ok" (both: inside). True when every value in ci gets the same
    verdict, False when ci straddles a bound."""
    if ci is None:
        return False
    lo, hi = ci[0], ci[1]
    if lo_ok is not None and lo < lo_ok <= hi:
        return False
    return hi_ok is None or not lo <= hi_ok < hi


def fmt_ci(ci, prefix=""):
    """'[0.96-1.02]' (ratios; prefix 'x': '[x0.96-x1.02]'), or '-'."""
    return "-" if ci is None else "[%s%.2f-%s%.2f]" % (prefix, ci[0], prefix, ci[1])


def verdict(ok, sure=True):
    """PASS or MISS (n/a for None); with a '?' when the rounds only lean
    that way (the interval of the median spans the target: decided)."""
    return "n/a" if ok is None else ("PASS" if ok else "MISS") + ("" if sure else "?")
