#!/usr/bin/python3
"""estimate_runtime.py reads the per-point times a results root holds (the sweeps'
results.csv as committed, and its pool's run.json files, which win), and adds up each
spec's makespan in reproduce.sh's order: its new points, longest first, list-scheduled
on -j slots."""
import csv
import json
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import exp_test_support as t  # noqa: E402

sys.path.insert(0, t.EXPERIMENTS)
import estimate_runtime as er  # noqa: E402


def write_results(path, rows):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\r\n")  # as the committed results.csv files
        w.writerow(["point", "label", "wall_seconds"])
        w.writerows((p, "", s) for p, s in rows)


class Estimate(t.TempDirTest):
    def test_makespan_list_schedules_in_the_order_given(self):
        # Two slots: 5 and 4 start at 0; the first 3 takes the slot free at 4 (ends 7),
        # the second the one free at 5 (ends 8).
        self.assertEqual(er.makespan([5, 4, 3, 3], 2), 8)
        self.assertEqual(er.makespan([5, 4, 3, 3], 1), 15)
        self.assertEqual(er.makespan([], 2), 0)

    def test_times_come_from_results_csv_and_the_pool(self):
        write_results(os.path.join(self.tmp, "figA", "results.csv"), [("p1", "10"), ("p2", "20.5")])
        write_results(os.path.join(self.tmp, "figB", "results.csv"), [("p2", "20.5"), ("p3", "3")])
        run = os.path.join(self.tmp, "points", "p3", "run.json")
        os.makedirs(os.path.dirname(run))
        with open(run, "w") as f:
            json.dump({"wall_seconds": 4.0}, f)
        self.assertEqual(er.measured_times([self.tmp]), {"p1": 10.0, "p2": 20.5, "p3": 4.0})

    def test_every_point_once_in_the_spec_that_runs_it_first(self):
        # Every point of the paper preset measured at 60 s: a spec of n new points on two
        # slots takes ceil(n / 2) minutes; a point an earlier spec ran adds nothing.
        specs = er.reproduction_specs("paper")
        ids = {p.id for _, ps in specs for p in ps}
        write_results(os.path.join(self.tmp, "all", "results.csv"), [(i, "60") for i in sorted(ids)])
        seen, expected = set(), 0.0
        for _, ps in specs:
            new = {p.id for p in ps} - seen
            seen |= new
            expected += math.ceil(len(new) / 2) * 60
        e = er.estimate("paper", [self.tmp], 2)
        self.assertEqual(e["points"], len(ids))
        self.assertEqual(e["measured"], len(ids))
        self.assertEqual(e["cpu_seconds"], 60.0 * len(ids))
        self.assertEqual(e["wall_seconds"], expected)
        # fig10 comes first and runs all of its points; fig11 reuses them.
        by_name = {name: n for name, n, _ in e["specs"]}
        self.assertEqual(by_name["fig10_ipc"], len({p.id for p in dict(specs)["fig10_ipc"]}))
        self.assertEqual([n for n, _ in specs][:2], ["fig10_ipc", "fig11_flash_bandwidth"])


if __name__ == "__main__":
    t.main()
