"""Averages shared by the figures and the report, so both compute a claim the same way."""
import statistics


def geomean(xs):
    xs = [x for x in xs if x is not None and x > 0]
    return statistics.geometric_mean(xs) if xs else None


def mean(xs):
    xs = [x for x in xs if x is not None]
    return statistics.fmean(xs) if xs else None


def ratios(rows, column, num, den, key="workload", by="config"):
    """{key value: row[by=num][column] / row[by=den][column]} over the keys both have."""
    a = {r[key]: r.get(column) for r in rows if r.get(by) == num}
    b = {r[key]: r.get(column) for r in rows if r.get(by) == den}
    return {k: a[k] / b[k] for k in a if k in b and a[k] is not None and b[k] not in (None, 0)}


def mean_ratio(rows, column, num, den, key="workload", by="config", keys=None):
    """Geometric mean over workloads of num/den (the usual average of speedups)."""
    r = ratios(rows, column, num, den, key, by)
    if keys is not None:
        r = {k: v for k, v in r.items() if k in keys}
    return geomean(r.values()), len(r)


def by_label(rows, column, workloads, labels):
    """{(workload, label): value} of `column` for the points of a variants sweep."""
    out = {}
    for r in rows:
        if r["workload"] in workloads and r["label"] in labels and r.get(column) is not None:
            out[(r["workload"], r["label"])] = r[column]
    return out


def normalised(table, base_label):
    """table / table[(workload, base_label)] for every entry with a base."""
    return {(w, l): v / table[(w, base_label)] for (w, l), v in table.items()
            if (w, base_label) in table and table[(w, base_label)]}
