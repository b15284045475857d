"""A sweep's results as one flat table: a row per finished point, a column per
coordinate of the point and per scalar statistic of its stats.json.

Columns, in this order:
    point, label, config, platform, workload     the point (config: the platform file's name)
    app1, app2, ...                               the co-running applications
    option.<k>, set.<k>                           its workload options and --set overrides
    zngsim_version, sim_time_ps                   from stats.json
    <stat>                                        every scalar statistic, by its dotted name
                                                  (gpu.ipc, gpu.app.deg.ipc, memory.medium_read_bandwidth);
                                                  an Average as its mean, a Histogram as its mean
    config.<key>                                  every value of the resolved config (text, with units)
    run.<k>                                       host costs from run.json (wall_seconds, peak_rss_mib, ...)
    dir                                           the point's directory, relative to the table

An absent statistic (a co-run's other application, a policy another platform does not
have) is an empty cell in the CSV and NaN in pandas; a statistic whose value is null
(a mean of nothing) likewise.
"""
import csv
import json
import os

# stats.json writes an Average as {mean, count, min, max} and a Histogram as the same
# plus buckets (sim/stats/stats.cpp); the table keeps their mean under the stat's name.
_AVERAGE_KEYS = {"mean", "count", "min", "max"}
_HISTOGRAM_KEYS = _AVERAGE_KEYS | {"buckets"}


def _is_distribution(node):
    return isinstance(node, dict) and set(node) in (_AVERAGE_KEYS, _HISTOGRAM_KEYS)


def flatten_stats(tree, prefix=""):
    """{dotted name: value} of every scalar statistic of a stats tree, in file order;
    an Average or a Histogram is its mean."""
    out = {}
    for k, v in tree.items():
        name = f"{prefix}.{k}" if prefix else k
        if _is_distribution(v):
            out[name] = v["mean"]
        elif isinstance(v, dict):
            out.update(flatten_stats(v, name))
        elif v is None or isinstance(v, (int, float, str)):
            out[name] = v
    return out


def _flatten_config(tree, prefix="config"):
    out = {}
    for k, v in tree.items():
        name = f"{prefix}.{k}"
        if isinstance(v, dict):
            out.update(_flatten_config(v, name))
        else:
            # stats.json keeps YAML types (80, true); the table holds config values as text.
            out[name] = v if isinstance(v, str) else json.dumps(v)
    return out


def point_row(point_dir, relative_to):
    """The row of one finished point directory (point.json, stats.json, run.json)."""
    with open(os.path.join(point_dir, "stats.json")) as f:
        stats = json.load(f)
    try:
        with open(os.path.join(point_dir, "point.json")) as f:
            point = json.load(f)
    except OSError:
        point = {}
    try:
        with open(os.path.join(point_dir, "run.json")) as f:
            run = json.load(f)
    except OSError:
        run = {}
    config = point.get("config", "")
    row = {"point": point.get("id", os.path.basename(point_dir)), "label": point.get("label", ""),
           "config": os.path.splitext(os.path.basename(config))[0] if config else "",
           "platform": stats.get("platform", ""), "workload": point.get("workload", ",".join(stats.get("workloads", [])))}
    for i, app in enumerate(stats.get("workloads", []), start=1):
        row[f"app{i}"] = app
    row.update({f"option.{k}": v for k, v in sorted((point.get("options") or {}).items())})
    row.update({f"set.{k}": v for k, v in sorted((point.get("set") or {}).items())})
    row["zngsim_version"] = stats.get("zngsim_version", "")
    row["sim_time_ps"] = stats.get("sim_time_ps")
    for name, v in flatten_stats(stats.get("stats", {})).items():
        if name in row:
            raise ValueError(f"{point_dir}: statistic '{name}' has the name of a column of the point")
        row[name] = v
    row.update(_flatten_config(stats.get("config", {})))
    row.update({f"run.{k}": v for k, v in run.items() if v is None or isinstance(v, (int, float, str))})
    row["dir"] = os.path.relpath(point_dir, relative_to)
    return row


def _finished(points_dir):
    return sorted(os.path.join(points_dir, n) for n in os.listdir(points_dir)
                  if not n.startswith(".") and os.path.isfile(os.path.join(points_dir, n, "stats.json"))
                  and os.path.isfile(os.path.join(points_dir, n, "run.json")))


def point_dirs(path):
    """The finished point directories of `path`, which is a sweep's results directory
    (its results.csv lists the sweep's points, in spec order, wherever their pool is)
    or a points pool (every finished point in it, by name)."""
    results = os.path.join(path, "results.csv")
    if os.path.isfile(results):
        with open(results, newline="") as f:
            return [os.path.normpath(os.path.join(path, r["dir"])) for r in csv.DictReader(f)]
    if os.path.isdir(path):
        return _finished(path)
    raise FileNotFoundError(f"{path}: neither a sweep's results directory (with results.csv) nor a points pool")


def rows(path, relative_to=None):
    """The rows of every finished point of `path` (see point_dirs); `dir` relative to
    `relative_to` (default: `path`)."""
    return [point_row(d, relative_to or path) for d in point_dirs(path)]


_FIRST = ("point", "label", "config", "platform", "workload")


def is_text_column(name):
    """Columns that hold text (names, --set values as given, config values with units);
    every other column is a number."""
    return (name in _FIRST or name in ("zngsim_version", "dir") or name.startswith(("option.", "set.", "config."))
            or (name.startswith("app") and name[3:].isdigit()))


def columns(table):
    """Column order: the point, its apps, options and overrides, the statistics in the
    order of the first point that has each, the config, the host costs, dir."""
    seen = {}
    for r in table:
        for k in r:
            seen.setdefault(k, None)
    names = list(seen)
    apps = sorted((k for k in names if k.startswith("app") and k[3:].isdigit()), key=lambda k: int(k[3:]))
    head = list(_FIRST) + apps + sorted(k for k in names if k.startswith("option.")) \
        + sorted(k for k in names if k.startswith("set.")) + [k for k in ("zngsim_version", "sim_time_ps") if k in seen]
    tail_config = [k for k in names if k.startswith("config.")]
    tail_run = [k for k in names if k.startswith("run.")]
    placed = set(head) | set(tail_config) | set(tail_run) | {"dir"}
    return head + [k for k in names if k not in placed] + tail_config + tail_run + ["dir"]


def write_csv(table, path):
    """Writes the rows atomically (a temporary file renamed); None becomes an empty cell."""
    tmp = f"{path}.tmp{os.getpid()}"
    with open(tmp, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns(table), restval="")
        w.writeheader()
        for r in table:
            w.writerow({k: "" if v is None else v for k, v in r.items()})
    os.replace(tmp, path)
    return path


def app_rows(table):
    """One row per point and application from the rows of `table`: the point's
    coordinates, `app` (its name in stats.json: bfs1, or bfs1_2 for a second copy),
    `app_index` (1, 2, ...) and its gpu.app.<app>.<stat> statistics as gpu.app.<stat>."""
    out = []
    coordinates = [k for k in columns(table) if k in _FIRST or k.startswith(("option.", "set."))]
    for r in table:
        i = 1
        while f"app{i}" in r:
            app = r[f"app{i}"]
            row = {k: r.get(k) for k in coordinates}
            row.update({"app": app, "app_index": i})
            prefix = f"gpu.app.{app}."
            row.update({"gpu.app." + k[len(prefix):]: v for k, v in r.items() if k.startswith(prefix)})
            row["dir"] = r["dir"]
            out.append(row)
            i += 1
    return out

