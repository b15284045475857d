#!/usr/bin/python3
"""The flat table of a sweep (OUT/stats.csv, collect.py, collect.load): a small sweep
(ideal x {deg, deg-bfs1} x {default, gpu.sm.max_warps 40}, small preset) has one row
per point whose every cell is checked against the point's stats.json read here on its
own: each numeric leaf of the stats tree a column by its dotted name, an Average (mean,
count, min, max) one column holding its mean, each resolved config value a config.<key>
column, the --set value a set.<key> column; the pandas DataFrame holds the same
numbers whether loaded from the points or from the CSV; the table of applications has
a row per point and co-running application with its gpu.app.<app>.* statistics."""
import csv
import json
import math
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import exp_test_support as t  # noqa: E402

sys.path.insert(0, t.EXPERIMENTS)
import collect  # noqa: E402

SPEC = """
configs: [configs/ideal.yaml]
workloads: [deg, deg-bfs1]
options: {preset: small}
variants:
  default: {}
  warps40: {set: {gpu.sm.max_warps: 40}}
"""
COLLECT = os.path.join(t.EXPERIMENTS, "collect.py")


def leaves(tree, prefix=""):
    """(dotted name, value) of every leaf of a JSON tree; an Average (exactly the keys
    mean, count, min, max) is one leaf holding its mean."""
    for k, v in tree.items():
        name = f"{prefix}.{k}" if prefix else k
        if isinstance(v, dict) and sorted(v) == ["count", "max", "mean", "min"]:
            yield name, v["mean"]
        elif isinstance(v, dict):
            yield from leaves(v, name)
        else:
            yield name, v


def read_csv(path):
    with open(path, newline="") as f:
        r = csv.DictReader(f)
        return r.fieldnames, list(r)


class StatsTable(t.TempDirTest):
    @classmethod
    def setUpClass(cls):
        import tempfile
        cls._dir = tempfile.TemporaryDirectory(prefix="zng-exp-test-")
        cls.out = os.path.join(cls._dir.name, "out")
        spec = t.write_spec(cls._dir.name, SPEC)
        r = t.run_sweep(spec, cls.out, "-j", "2", "--no-validate")
        assert r.returncode == 0, r.stdout + r.stderr

    @classmethod
    def tearDownClass(cls):
        cls._dir.cleanup()

    def stats_of(self, row):
        with open(os.path.join(self.out, row["dir"], "stats.json")) as f:
            return json.load(f)

    def test_every_cell_matches_stats_json(self):
        header, rows = read_csv(os.path.join(self.out, "stats.csv"))
        self.assertEqual(len(rows), 4)
        self.assertEqual(header[:5], ["point", "label", "config", "platform", "workload"])
        self.assertEqual(len(header), len(set(header)))
        checked = 0
        for row in rows:
            stats = self.stats_of(row)
            expected = dict(leaves(stats["stats"]))
            expected.update({f"config.{k}": v for k, v in leaves(stats["config"])})
            for name, value in expected.items():
                self.assertIn(name, header)
                if value is None:
                    self.assertEqual(row[name], "", name)
                elif isinstance(value, str):
                    self.assertEqual(row[name], value, name)
                else:   # a CSV cell holds Python's shortest round-trip repr: equal, not close
                    self.assertEqual(float(row[name]), value, name)
                checked += 1
            # The columns this row fills are exactly the leaves, the point's coordinates and host costs.
            filled = {k for k, v in row.items() if v != "" and not k.startswith(("run.", "option.", "set.", "app"))}
            filled -= {"point", "label", "config", "platform", "workload", "zngsim_version", "sim_time_ps", "dir"}
            self.assertEqual(filled, {k for k, v in expected.items() if v is not None})
            self.assertEqual(int(row["sim_time_ps"]), stats["sim_time_ps"])
            self.assertEqual([row.get("app1"), row.get("app2") or None], (stats["workloads"] + [None])[:2])
        self.assertGreater(checked, 4 * 500)   # hundreds of statistics per point
        by = {(r["workload"], r["label"]): r for r in rows}
        # An Average is one column, its mean; the per-app statistics of a co-run's second app
        # are empty in the rows that do not run it.
        total = by[("deg-bfs1", "default")]
        self.assertEqual(float(total["gpu.mem_latency.total"]),
                         self.stats_of(total)["stats"]["gpu"]["mem_latency"]["total"]["mean"])
        self.assertNotIn("gpu.mem_latency.total.count", header)
        self.assertEqual(float(total["gpu.app.bfs1.ipc"]), self.stats_of(total)["stats"]["gpu"]["app"]["bfs1"]["ipc"])
        self.assertEqual(by[("deg", "default")]["gpu.app.bfs1.ipc"], "")
        self.assertEqual(by[("deg", "warps40")]["set.gpu.sm.max_warps"], "40")
        self.assertEqual(by[("deg", "default")]["set.gpu.sm.max_warps"], "")
        self.assertEqual(by[("deg", "warps40")]["config.gpu.sm.max_warps"], "40")
        self.assertEqual(by[("deg", "default")]["config.gpu.sm.max_warps"], "80")
        self.assertEqual(by[("deg", "default")]["option.preset"], "small")
        with open(os.path.join(self.out, by[("deg", "default")]["dir"], "run.json")) as f:
            self.assertEqual(float(by[("deg", "default")]["run.wall_seconds"]), json.load(f)["wall_seconds"])

    def test_collect_writes_the_same_table(self):
        with open(os.path.join(self.out, "stats.csv"), "rb") as f:
            by_sweep = f.read()
        again = os.path.join(self.tmp, "again.csv")
        r = subprocess.run([t.PYTHON, COLLECT, self.out, "-o", again], capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("4 point(s)", r.stdout)
        header, rows = read_csv(again)
        sweep_header, sweep_rows = read_csv(os.path.join(self.out, "stats.csv"))
        self.assertEqual(header, sweep_header)
        for a, b in zip(rows, sweep_rows):
            self.assertEqual(os.path.realpath(os.path.join(self.tmp, a.pop("dir"))),
                             os.path.realpath(os.path.join(self.out, b.pop("dir"))))
            self.assertEqual(a, b)
        # From the pool: every finished point, by name.
        pool = os.path.join(self.tmp, "pool.csv")
        r = subprocess.run([t.PYTHON, COLLECT, os.path.join(self.out, "points"), "-o", pool], capture_output=True,
                           text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        _, pool_rows = read_csv(pool)
        self.assertEqual(sorted(x["point"] for x in pool_rows), sorted(x["point"] for x in sweep_rows))
        r = subprocess.run([t.PYTHON, COLLECT, os.path.join(self.tmp, "nothing")], capture_output=True, text=True,
                           timeout=60)
        self.assertEqual(r.returncode, 2)
        self.assertIn("neither a sweep's results directory", r.stderr)
        with open(os.path.join(self.out, "stats.csv"), "rb") as f:
            self.assertEqual(f.read(), by_sweep, "collect -o rewrote the sweep's stats.csv")

    def test_pandas_loader(self):
        try:
            import pandas  # noqa: F401
        except ImportError:
            self.skipTest("pandas not installed (Debian: python3-pandas)")
        from_points = collect.load(self.out)
        from_csv = collect.load(os.path.join(self.out, "stats.csv"))
        self.assertEqual(from_points.shape[0], 4)
        self.assertEqual(list(from_points.columns), list(from_csv.columns))
        self.assertEqual(list(from_points.dtypes), list(from_csv.dtypes))
        for df in (from_points, from_csv):
            self.assertEqual(str(df["gpu.ipc"].dtype), "float64")
            self.assertEqual(df["config.gpu.sm.max_warps"].tolist(), ["80", "40", "80", "40"])   # spec order
            ipc = {}
            for _, row in df.iterrows():
                with open(os.path.join(self.out, row["dir"], "stats.json")) as f:
                    ipc[(row["workload"], row["label"])] = json.load(f)["stats"]["gpu"]["ipc"]
            # The mean IPC of each variant over the two workloads, by hand from stats.json
            # (pandas may sum in another order: equal to the last few ulps).
            means = df.groupby("label")["gpu.ipc"].mean()
            for label in ("default", "warps40"):
                expected = (ipc[("deg", label)] + ipc[("deg-bfs1", label)]) / 2
                self.assertTrue(math.isclose(means[label], expected, rel_tol=1e-14, abs_tol=0.0),
                                f"{label}: {means[label]!r} != {expected!r}")
            bfs1 = df.set_index(["workload", "label"])["gpu.app.bfs1.ipc"]
            self.assertTrue(math.isnan(bfs1[("deg", "default")]))
            self.assertGreater(bfs1[("deg-bfs1", "default")], 0)

    def test_application_table(self):
        # deg runs one application, deg-bfs1 two: 2 x 1 + 2 x 2 = 6 rows.
        out = os.path.join(self.tmp, "apps.csv")
        r = subprocess.run([t.PYTHON, COLLECT, self.out, "--apps", "-o", out], capture_output=True, text=True,
                           timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)
        header, rows = read_csv(out)
        self.assertEqual(len(rows), 6)
        self.assertFalse([c for c in header if c.startswith("gpu.") and not c.startswith("gpu.app.")], header)
        for row in rows:
            with open(os.path.join(self.tmp, row["dir"], "stats.json")) as f:
                stats = json.load(f)
            app = stats["workloads"][int(row["app_index"]) - 1]
            self.assertEqual(row["app"], app)
            for stat, value in stats["stats"]["gpu"]["app"][app].items():
                self.assertEqual(float(row[f"gpu.app.{stat}"]), value, (row["point"], app, stat))
        self.assertEqual(sorted((x["workload"], x["label"], x["app"]) for x in rows),
                         sorted([("deg", v, "deg") for v in ("default", "warps40")]
                                + [("deg-bfs1", v, a) for v in ("default", "warps40") for a in ("deg", "bfs1")]))
        try:
            import pandas  # noqa: F401
        except ImportError:
            self.skipTest("pandas not installed (Debian: python3-pandas)")
        df = collect.load_apps(self.out)
        self.assertEqual(df.shape[0], 6)
        self.assertEqual(str(df["gpu.app.ipc"].dtype), "float64")
        self.assertEqual(df["gpu.app.ipc"].tolist(), [float(x["gpu.app.ipc"]) for x in rows])


if __name__ == "__main__":
    t.main()
