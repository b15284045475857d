"""Reading the results.csv a sweep wrote, and saying clearly what is missing."""
import os
import sys

import yaml

EXPERIMENTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, EXPERIMENTS)
import collect  # noqa: E402
from sweeps import flat  # noqa: E402


class ResultsMissing(Exception):
    """The sweep a figure needs has not been run (or wrote nothing)."""


class StatisticMissing(Exception):
    """The sweep ran but zngsim does not (yet) write a statistic the figure needs."""


def spec_path(spec_name):
    return os.path.join(EXPERIMENTS, f"{spec_name}.yaml")


def spec_metrics(spec_name):
    """The spec's metrics map (CSV column -> stat name), to name a missing statistic."""
    with open(spec_path(spec_name)) as f:
        return (yaml.safe_load(f) or {}).get("metrics") or {}


def load_results(results_root, spec_name):
    """<results_root>/<spec_name>/results.csv as a DataFrame (collect.load): a row per
    finished point, statistics as floats, the point's directory as `_dir`."""
    path = os.path.join(results_root, spec_name, "results.csv")
    if not os.path.isfile(path):
        raise ResultsMissing(f"{path} does not exist: run experiments/sweep.py {spec_path(spec_name)} "
                             f"--out {os.path.join(results_root, spec_name)}")
    df = collect.load(path)
    if df.empty:
        raise ResultsMissing(f"{path} has no finished point")
    numbers = [c for c in df.columns if not flat.is_text_column(c)]
    df[numbers] = df[numbers].astype(float)
    df["_dir"] = [os.path.join(results_root, spec_name, d) for d in df["dir"]]
    return df


def require(df, spec_name, *columns):
    """Raises StatisticMissing naming the stat behind each column no point has a value for."""
    metrics = spec_metrics(spec_name)
    absent = [c for c in columns if c not in df or df[c].isna().all()]
    if absent:
        names = ", ".join(f"'{metrics.get(c, c)}' (column {c})" for c in absent)
        raise StatisticMissing(f"statistic {names} absent from every point of the {spec_name} sweep; "
                               f"zngsim's stats.json does not provide it yet")


def pivot(df, column, index="workload", columns="config"):
    """{(index value, columns value): column} over the points that have a value."""
    return df.pivot(index=index, columns=columns, values=column).stack().to_dict()


def points(df, index="workload", columns="config"):
    """The (index value, columns value) pairs of the finished points."""
    return set(zip(df[index], df[columns]))
