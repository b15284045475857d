#!/usr/bin/python3
"""A sweep's results as one flat table, for analysis tools: a row per finished point,
columns its coordinates (config, workload, options, --set values), every scalar
statistic of its stats.json by dotted name (an Average as its mean), every value of
its resolved config (config.<key>) and its host costs (run.<k>); sweeps/flat.py
lists the columns. sweep.py writes the same table as OUT/stats.csv after each sweep.

usage: experiments/collect.py PATH [-o CSV] [--apps]

PATH is a sweep's results directory (its results.csv names the sweep's points) or a
points pool (every finished point in it). Writes PATH/stats.csv, or CSV; with --apps
the table of applications instead (a row per point and co-running application, its
gpu.app.<app>.* statistics as gpu.app.*), to PATH/apps.csv or CSV.

From Python, load() gives the table as a pandas DataFrame (Debian: python3-pandas):

    sys.path.insert(0, "experiments")
    from collect import load
    df = load("experiments/results/fig10_ipc")
    df.pivot_table(index="workload", columns="config", values="gpu.ipc")
    apps = load_apps("experiments/results/fig15a_corunning")   # a row per application
"""
import argparse
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweeps import flat  # noqa: E402


def load(path):
    """The flat table of `path` as a pandas DataFrame, one row per finished point.

    `path` is a sweep's results directory or a points pool (read from the points'
    JSON files, so always current), or a stats.csv written by sweep.py or collect.py.
    Statistics and host costs are numbers (NaN where a point has none); the point's
    coordinates (config, workload, app<i>, option.<k>, set.<k>) and the config values
    are text as written (config values with their units, '48KiB'), whichever the source."""
    import pandas as pd
    if os.path.isfile(path):
        with open(path, newline="") as f:
            header = next(csv.reader(f), [])
        return pd.read_csv(path, dtype={c: str for c in header if flat.is_text_column(c)})
    table = flat.rows(path)
    df = pd.DataFrame.from_records(table, columns=flat.columns(table))
    for c in df.columns:
        if not flat.is_text_column(c):
            df[c] = pd.to_numeric(df[c])
    return df


def load_apps(path):
    """The applications of `path` (a results directory or a points pool) as a pandas
    DataFrame: a row per point and co-running application, with the point's
    coordinates, `app`, `app_index` and the application's statistics (gpu.app.ipc,
    gpu.app.instructions, ...)."""
    import pandas as pd
    table = flat.app_rows(flat.rows(path))
    df = pd.DataFrame.from_records(table, columns=list(dict.fromkeys(k for r in table for k in r)))
    for c in df.columns:
        if c.startswith("gpu.app.") or c == "app_index":
            df[c] = pd.to_numeric(df[c])
    return df


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("path", help="a sweep's results directory or a points pool")
    ap.add_argument("-o", "--output", help="CSV file to write (default: PATH/stats.csv, or PATH/apps.csv)")
    ap.add_argument("--apps", action="store_true", help="a row per point and application instead of per point")
    a = ap.parse_args(argv)
    try:
        table = flat.rows(a.path)
    except (OSError, ValueError) as e:
        print(f"collect: {e}", file=sys.stderr)
        return 2
    out = a.output or os.path.join(a.path, "apps.csv" if a.apps else "stats.csv")
    if a.output:
        table = flat.rows(a.path, relative_to=os.path.dirname(os.path.abspath(out)))
    if a.apps:
        table = flat.app_rows(table)
    flat.write_csv(table, out)
    print(f"collect: {len(table)} {'application row(s)' if a.apps else 'point(s)'}, "
          f"{len(flat.columns(table))} columns -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
