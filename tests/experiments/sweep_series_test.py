#!/usr/bin/python3
"""A sweep's series.csv (experiments/sweeps/series.py): a point's 10 us series re-binned
to 20 us adds a count column's intervals, averages a level column's samples or keeps
the last, assigns an interval ending at t to the bin ending at the first multiple of
the bin at or after t, and leaves a column a point lacks empty. Values by hand below."""
import csv
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import exp_test_support as t  # noqa: E402

sys.path.insert(0, t.EXPERIMENTS)
from sweeps.series import check_series, parse_time_ps, write_series  # noqa: E402

# Two apps' request counts per 10 us interval and a level sampled at each interval's end.
POINT_A = """time_us,gpu.app.a.memory_requests,gpu.app.b.memory_requests,gpu.l2.pinned_lines
10,1,10,7
20,2,20,8
30,3,30,9
40,4,40,10
50,5,50,11
"""
# A point with only app a and an interval (15 us) that is not a multiple of the bin.
POINT_B = """time_us,gpu.app.a.memory_requests,gpu.l2.pinned_lines
15,6,1
30,7,3
"""


def fail(key, msg):
    raise ValueError(f"{key}: {msg}")


class Series(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory(prefix="zng-series-test-")
        self.points = []
        for name, text in (("A", POINT_A), ("B", POINT_B), ("C", None)):
            d = os.path.join(self.dir.name, name)
            os.makedirs(d)
            if text is not None:
                with open(os.path.join(d, "series.csv"), "w") as f:
                    f.write(text)
            self.points.append((name, f"label{name}", "w", d))

    def tearDown(self):
        self.dir.cleanup()

    def rows(self, spec):
        out = os.path.join(self.dir.name, "series.csv")
        n = write_series(self.points, check_series(spec, fail), out)
        with open(out, newline="") as f:
            r = csv.DictReader(f)
            rows = list(r)
        self.assertEqual(n, len(rows))
        return r.fieldnames, rows

    def test_sum_and_mean(self):
        names, rows = self.rows({"bin": "20us", "columns": {"gpu.app.*.memory_requests": "sum",
                                                           "gpu.l2.pinned_lines": "mean"}})
        self.assertEqual(names, ["point", "label", "workload", "time_us", "gpu.app.a.memory_requests",
                                 "gpu.app.b.memory_requests", "gpu.l2.pinned_lines"])
        got = [(r["point"], r["time_us"], r["gpu.app.a.memory_requests"], r["gpu.app.b.memory_requests"],
                r["gpu.l2.pinned_lines"]) for r in rows]
        self.assertEqual(got, [
            # A: bins (0,20] = {10, 20}: 1+2, 10+20, mean(7, 8); (20,40] = {30, 40}; (40,60] = {50}
            ("A", "20", "3", "30", "7.5"),
            ("A", "40", "7", "70", "9.5"),
            ("A", "60", "5", "50", "11"),
            # B: 15 -> bin ending at 20; 30 -> bin ending at 40; no column b: empty cells
            ("B", "20", "6", "", "1"),
            ("B", "40", "7", "", "3"),
            # C has no series.csv (run.stats_interval unset): no rows
        ])

    def test_last(self):
        _, rows = self.rows({"bin": "40us", "columns": {"gpu.l2.pinned_lines": "last"}})
        # A: (0,40] = {10..40} -> sample at 40 is 10; (40,80] = {50} -> 11. B: (0,40] -> 3.
        self.assertEqual([(r["point"], r["time_us"], r["gpu.l2.pinned_lines"]) for r in rows],
                         [("A", "40", "10"), ("A", "80", "11"), ("B", "40", "3")])

    def test_times(self):
        self.assertEqual(parse_time_ps("5ms"), 5 * 10**9)
        self.assertEqual(parse_time_ps("1.5 us"), 1_500_000)
        self.assertIsNone(parse_time_ps("0us"))
        self.assertIsNone(parse_time_ps("5"))
        self.assertIsNone(parse_time_ps("5 min"))


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1])
