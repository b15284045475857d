"""Averages shared by the figures and the report, so both compute a claim the same way.
Missing values (None, NaN) are left out."""
import statistics


def _present(xs):
    return [x for x in xs if x is not None and x == x]


def geomean(xs):
    xs = [x for x in _present(xs) if x > 0]
    return statistics.geometric_mean(xs) if xs else None


def mean(xs):
    xs = _present(xs)
    return statistics.fmean(xs) if xs else None
