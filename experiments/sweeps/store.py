"""The results directory of a sweep.

    <points>/<id>/          a finished point: stats.json, run.json, log.txt, point.json
    <points>/<id>.running/  a point in flight (or left by a killed sweep)
    <points>/<id>.failed/   the last failed attempt, kept for its log
    <out>/results.csv       one row per finished point of this sweep

<points> is <out>/points unless several sweeps share one pool: a point's id is a hash
of its definition, so specs that contain the same point (fig10 and fig11) run it once.

A point runs in its `.running` directory, which is renamed to `<id>` only after zngsim
exited 0 and both JSON files parse. A rename is atomic, so a point directory exists
if and only if the point finished: a killed sweep leaves at worst a `.running`
directory, which the next run deletes and redoes.
"""
import csv
import json
import os
import shutil

RUNNING, FAILED = ".running", ".failed"
REQUIRED = ("stats.json", "run.json")


class Store:
    def __init__(self, out, points_dir=None):
        self.out = out
        self.points_dir = points_dir or os.path.join(out, "points")
        os.makedirs(self.out, exist_ok=True)
        os.makedirs(self.points_dir, exist_ok=True)

    def final_dir(self, point):
        return os.path.join(self.points_dir, point.id)

    def running_dir(self, point):
        return self.final_dir(point) + RUNNING

    def failed_dir(self, point):
        return self.final_dir(point) + FAILED

    def is_done(self, point):
        d = self.final_dir(point)
        return all(os.path.isfile(os.path.join(d, f)) for f in REQUIRED)

    def remove_leftovers(self):
        """Deletes `.running` directories of points a killed sweep had in flight."""
        removed = []
        for name in os.listdir(self.points_dir):
            if name.endswith(RUNNING):
                shutil.rmtree(os.path.join(self.points_dir, name))
                removed.append(name[: -len(RUNNING)])
        return removed

    def prepare(self, point, command, provenance=None):
        """A fresh `.running` directory holding point.json (definition, command and
        provenance: what the result is made from, sweeps/provenance.py)."""
        d = self.running_dir(point)
        if os.path.exists(d):
            shutil.rmtree(d)
        os.makedirs(d)
        with open(os.path.join(d, "point.json"), "w") as f:
            json.dump({"id": point.id, **point.definition(), "label": point.label, "command": command,
                       "provenance": provenance or {}}, f, indent=1)
            f.write("\n")
        return d

    def stored_provenance(self, point):
        """The provenance a finished point recorded ({} when none or unreadable)."""
        try:
            with open(os.path.join(self.final_dir(point), "point.json")) as f:
                return json.load(f).get("provenance") or {}
        except (OSError, ValueError, AttributeError):
            return {}

    def discard(self, point):
        """Removes a finished point, so that it is run again."""
        shutil.rmtree(self.final_dir(point))

    def finish(self, point, returncode):
        """Publishes a successful attempt or keeps a failed one as `.failed`; returns
        (ok, directory, reason)."""
        d = self.running_dir(point)
        reason = None
        if returncode != 0:
            reason = f"exit {returncode}" if returncode > 0 else f"killed by signal {-returncode}"
        else:
            for f in REQUIRED:
                try:
                    with open(os.path.join(d, f)) as fh:
                        json.load(fh)
                except (OSError, ValueError) as e:
                    reason = f"exit 0 but {f} unreadable ({e})"
                    break
        if reason is None:
            os.rename(d, self.final_dir(point))
            shutil.rmtree(self.failed_dir(point), ignore_errors=True)
            return True, self.final_dir(point), None
        failed = self.failed_dir(point)
        shutil.rmtree(failed, ignore_errors=True)
        os.rename(d, failed)
        return False, failed, reason


def lookup(tree, dotted):
    """The value at a dotted path of nested dicts, or None when any part is absent."""
    node = tree
    for part in dotted.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def _cell(v):
    if v is None:
        return ""
    if isinstance(v, (dict, list)):
        return json.dumps(v, sort_keys=True)
    return v


class ResultsTable:
    """results.csv: one row per finished point, rewritten atomically after each one.

    Columns: point, label, config, platform, workload, the workload options, every
    `set` key of the sweep, the spec's metrics, per-app columns app<i> (name) and
    app<i>_<metric> for i = 1..most co-running apps, host costs, and the point's dir.
    An absent statistic is an empty cell."""

    def __init__(self, store, spec):
        self.store, self.spec = store, spec
        self.rows = {}   # point id -> row, so each point's JSON is read once

    def row(self, point):
        d = self.store.final_dir(point)
        with open(os.path.join(d, "stats.json")) as f:
            stats = json.load(f)
        with open(os.path.join(d, "run.json")) as f:
            run = json.load(f)
        tree = stats.get("stats", {})
        r = {"point": point.id, "label": point.label, "config": point.config_name,
             "platform": stats.get("platform", ""), "workload": point.workload,
             "sim_time_ps": stats.get("sim_time_ps", "")}
        r.update({f"option.{k}": _cell(v) for k, v in point.options})
        r.update({f"set.{k}": v for k, v in point.set})
        r.update({col: _cell(lookup(tree, stat)) for col, stat in self.spec.metrics.items()})
        for i, app in enumerate(stats.get("workloads", []), start=1):
            r[f"app{i}"] = app
            for col, stat in self.spec.app_metrics.items():
                r[f"app{i}_{col}"] = _cell(lookup(tree, stat.replace("{app}", app)))
        r["wall_seconds"] = run.get("wall_seconds", "")
        r["peak_rss_mib"] = run.get("peak_rss_mib", "")
        r["dir"] = os.path.relpath(d, self.store.out)
        return r

    def add(self, point):
        self.rows[point.id] = self.row(point)

    def write(self):
        points = [p for p in self.spec.points if p.id in self.rows]
        max_apps = max((sum(1 for k in self.rows[p.id] if k.startswith("app") and "_" not in k)
                        for p in points), default=0)
        fields = ["point", "label", "config", "platform", "workload"]
        fields += sorted({f"option.{k}" for p in self.spec.points for k, _ in p.options})
        fields += sorted({f"set.{k}" for p in self.spec.points for k, _ in p.set})
        fields += ["sim_time_ps"] + list(self.spec.metrics)
        for i in range(1, max_apps + 1):
            fields += [f"app{i}"] + [f"app{i}_{c}" for c in self.spec.app_metrics]
        fields += ["wall_seconds", "peak_rss_mib", "dir"]
        path = os.path.join(self.store.out, "results.csv")
        tmp = f"{path}.tmp{os.getpid()}"
        with open(tmp, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=fields, restval="")
            w.writeheader()
            for p in points:   # spec order, so the file does not depend on finishing order
                w.writerow(self.rows[p.id])
        os.replace(tmp, path)
        return path, len(points)
