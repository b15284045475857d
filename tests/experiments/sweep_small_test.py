#!/usr/bin/python3
"""A small sweep (2 platforms x 2 workloads, one of them a co-running pair, small
preset) runs end to end: every point has its results, results.csv one row per point
with IPC and per-app columns, and a second run re-runs nothing. (Config validation
before a sweep is tested in sweep_spec_errors_test; here only running is.)"""
import csv
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import exp_test_support as t  # noqa: E402

SPEC = """
configs: [configs/ideal.yaml, configs/optane.yaml]
workloads: [deg, deg-back]
options: {preset: small}
"""


class SmallSweep(t.TempDirTest):
    def test_runs_and_tabulates(self):
        spec = t.write_spec(self.tmp, SPEC, "small.yaml")
        out = os.path.join(self.tmp, "out")
        r = t.run_sweep(spec, out, "-j", "2", "--no-validate")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("[4/4]", r.stdout)
        with open(os.path.join(out, "results.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(sorted((x["config"], x["workload"]) for x in rows),
                         [("ideal", "deg"), ("ideal", "deg-back"), ("optane", "deg"), ("optane", "deg-back")])
        for x in rows:
            d = os.path.join(out, x["dir"])
            with open(os.path.join(d, "stats.json")) as f:
                stats = json.load(f)
            self.assertEqual(float(x["ipc"]), stats["stats"]["gpu"]["ipc"])
            self.assertGreater(float(x["ipc"]), 0)
            self.assertEqual(x["option.preset"], "small")
            self.assertEqual(x["platform"], x["config"])
            self.assertTrue(os.path.isfile(os.path.join(d, "log.txt")))
            self.assertEqual(x["app1"], "deg")
            if x["workload"] == "deg-back":
                self.assertEqual(x["app2"], "back")
                for app in ("deg", "back"):
                    col = "app1_ipc" if app == "deg" else "app2_ipc"
                    self.assertEqual(float(x[col]), stats["stats"]["gpu"]["app"][app]["ipc"])
            else:
                self.assertEqual(x["app2"], "")
        names = os.listdir(os.path.join(out, "points"))
        self.assertFalse([n for n in names if n.endswith((".running", ".failed"))], names)

        again = t.run_sweep(spec, out, "-j", "2", "--no-validate")
        self.assertEqual(again.returncode, 0, again.stdout + again.stderr)
        self.assertIn("4 already done, 0 to run", again.stdout)

    def test_failing_point_does_not_stop_the_rest(self):
        # A run that exceeds its simulated-time limit fails; the other point finishes.
        spec = t.write_spec(self.tmp, """
points:
  - {config: configs/ideal.yaml, workload: deg, options: {preset: small}}
  - {config: configs/ideal.yaml, workload: deg, options: {preset: small}, set: {run.max_sim_time: 1ns}}
""")
        out = os.path.join(self.tmp, "out")
        r = t.run_sweep(spec, out, "-j", "1", "--no-validate")
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("1 point(s) failed", r.stdout)
        log = [line.split(": ", 1)[1] for line in r.stdout.splitlines() if "run.max_sim_time=1ns" in line
               and line.strip().endswith("log.txt")]
        self.assertEqual(len(log), 1, r.stdout)
        with open(log[0]) as f:
            self.assertIn("max_sim_time", f.read())
        with open(os.path.join(out, "results.csv"), newline="") as f:
            self.assertEqual(len(list(csv.DictReader(f))), 1)


if __name__ == "__main__":
    t.main()
