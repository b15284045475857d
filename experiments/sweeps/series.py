"""A sweep's time series, kept beside its results: the spec's `series` key picks columns
of each point's series.csv (written when run.stats_interval is set) and re-bins them to a
coarser interval, so that a figure over time can be drawn from the results directory
alone (the point pool is not committed) and the file stays small (fig17's 10 us series
of a 2.8 s run is 280 K rows; at 1 ms it is 2,801).

    series:
      bin: 1ms                                       # multiple of run.stats_interval
      columns: {"gpu.app.*.memory_requests": sum}    # glob -> sum | mean | last

A column of series.csv holds either a count per interval (requests, merges: `sum` adds
the intervals of a bin) or a level sampled at the end of an interval (pinned lines,
prefetch unit: `mean` averages them, `last` keeps the bin's final sample). OUT/series.csv
has one row per point and bin: point, label, workload, time_us (the bin's end), then
every matched column in order of first appearance; a point without the column leaves
the cell empty."""
import csv
import fnmatch
import os
import re

COMBINE = ("sum", "mean", "last")
_TIME = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*(ps|ns|us|ms|s)\s*$")
_PS_PER = {"ps": 1, "ns": 10**3, "us": 10**6, "ms": 10**9, "s": 10**12}


def parse_time_ps(text):
    """'1ms' -> 10**9; None when the text is not a positive time with a unit."""
    m = _TIME.match(str(text))
    if not m:
        return None
    ps = round(float(m.group(1)) * _PS_PER[m.group(2)])
    return ps if ps > 0 else None


def check_series(raw, fail):
    """The `series` key of a spec as {bin_ps, columns: {glob: combine}}; fail(key, msg)
    raises the spec error naming the key."""
    if not isinstance(raw, dict):
        fail("series", "expected a mapping {bin: <time>, columns: {glob: sum|mean|last}}")
    unknown = sorted(set(raw) - {"bin", "columns"})
    if unknown:
        fail(f"series.{unknown[0]}", "unknown key (known: bin, columns)")
    bin_ps = parse_time_ps(raw.get("bin"))
    if bin_ps is None:
        fail("series.bin", f"expected a positive time such as 1ms, got {raw.get('bin')!r}")
    cols = raw.get("columns")
    if not isinstance(cols, dict) or not cols:
        fail("series.columns", "expected a non-empty mapping of column glob -> sum, mean or last")
    out = {}
    for glob, how in cols.items():
        if how not in COMBINE:
            fail(f"series.columns.{glob}", f"expected one of {', '.join(COMBINE)}, got {how!r}")
        out[str(glob)] = how
    return {"bin_ps": bin_ps, "columns": out}


def _time_ps(text):
    return round(float(text) * 10**6)


def rebin(path, bin_ps, columns):
    """(names, rows) of one point's series.csv re-binned: rows are (bin end in us,
    {column: value}); an interval ending at t belongs to the bin ending at the first
    multiple of bin_ps at or after t."""
    with open(path, newline="") as f:
        reader = csv.DictReader(f)
        names = [c for c in (reader.fieldnames or []) if c != "time_us"
                 and any(fnmatch.fnmatchcase(c, g) for g in columns)]
        how = {c: next(columns[g] for g in columns if fnmatch.fnmatchcase(c, g)) for c in names}
        bins = {}   # bin index -> {column: [sum, samples, last]}
        for row in reader:
            k = -(-_time_ps(row["time_us"]) // bin_ps)
            acc = bins.setdefault(k, {c: [0.0, 0, None] for c in names})
            for c in names:
                cell = row.get(c, "")
                if cell == "":
                    continue
                v = float(cell)
                a = acc[c]
                a[0] += v
                a[1] += 1
                a[2] = v
    rows = []
    for k in sorted(bins):
        vals = {}
        for c, (total, n, last) in bins[k].items():
            if n:
                vals[c] = total if how[c] == "sum" else total / n if how[c] == "mean" else last
        rows.append((k * bin_ps / 10**6, vals))
    return names, rows


def write_series(points, series, out_path):
    """OUT/series.csv from [(point id, label, workload, point dir)]; returns the number of
    rows written. A point without series.csv (run.stats_interval unset) adds no rows."""
    names, table = [], []
    for pid, label, workload, d in points:
        path = os.path.join(d, "series.csv")
        if not os.path.isfile(path):
            continue
        cols, rows = rebin(path, series["bin_ps"], series["columns"])
        names += [c for c in cols if c not in names]
        table += [(pid, label, workload, t, vals) for t, vals in rows]
    tmp = out_path + ".tmp"
    with open(tmp, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["point", "label", "workload", "time_us"] + names)
        for pid, label, workload, t, vals in table:
            w.writerow([pid, label, workload, _time_text(t)] + [_cell(vals.get(c)) for c in names])
    os.replace(tmp, out_path)
    return len(table)


def _time_text(us):
    return f"{us:.0f}" if float(us).is_integer() else f"{us:.6f}".rstrip("0")


def _cell(v):
    if v is None:
        return ""
    return f"{v:.0f}" if float(v).is_integer() else f"{v:.6g}"
