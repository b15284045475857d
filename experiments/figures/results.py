"""Reading the results.csv a sweep wrote, and saying clearly what is missing."""
import csv
import os

import yaml

EXPERIMENTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


class ResultsMissing(Exception):
    """The sweep a figure needs has not been run (or wrote nothing)."""


class StatisticMissing(Exception):
    """The sweep ran but zngsim does not (yet) write a statistic the figure needs."""


def _number(v):
    if v == "":
        return None
    try:
        return float(v)
    except ValueError:
        return v


def spec_path(spec_name):
    return os.path.join(EXPERIMENTS, f"{spec_name}.yaml")


def spec_metrics(spec_name):
    """The spec's metrics map (CSV column -> stat name), to name a missing statistic."""
    with open(spec_path(spec_name)) as f:
        return (yaml.safe_load(f) or {}).get("metrics") or {}


def load_rows(results_root, spec_name):
    """Rows of <results_root>/<spec_name>/results.csv, numbers as floats, empty cells None."""
    path = os.path.join(results_root, spec_name, "results.csv")
    if not os.path.isfile(path):
        raise ResultsMissing(f"{path} does not exist: run experiments/sweep.py {spec_path(spec_name)} "
                             f"--out {os.path.join(results_root, spec_name)}")
    with open(path, newline="") as f:
        rows = [{k: _number(v) for k, v in r.items()} for r in csv.DictReader(f)]
    if not rows:
        raise ResultsMissing(f"{path} has no finished point")
    for r in rows:
        r["_dir"] = os.path.join(results_root, spec_name, r["dir"])
    return rows


def require(rows, spec_name, *columns):
    """Raises StatisticMissing naming the stat behind each column no point has a value for."""
    metrics = spec_metrics(spec_name)
    absent = [c for c in columns if all(r.get(c) is None for r in rows)]
    if absent:
        names = ", ".join(f"'{metrics.get(c, c)}' (column {c})" for c in absent)
        raise StatisticMissing(f"statistic {names} absent from every point of the {spec_name} sweep; "
                               f"zngsim's stats.json does not provide it yet")


def select(rows, **where):
    return [r for r in rows if all(r.get(k) == v for k, v in where.items())]


def one(rows, **where):
    """The single row matching `where`, or None when that point did not finish."""
    m = select(rows, **where)
    if len(m) > 1:
        raise ValueError(f"{len(m)} rows match {where}")
    return m[0] if m else None


def values(rows, column):
    return [r[column] for r in rows if isinstance(r.get(column), float)]
