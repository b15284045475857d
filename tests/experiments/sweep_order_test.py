#!/usr/bin/python3
"""--times starts a sweep's points longest first by an earlier run's wall times: with
one slot the points end in that order, a point the file lacks taking the mean of the
sweep's points it has; a times file without the columns, or with a time that is not a number, is
refused naming the file, the line and the column."""
import csv
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import exp_test_support as t  # noqa: E402

sys.path.insert(0, t.EXPERIMENTS)
from sweeps.spec import load_spec  # noqa: E402

SPEC = """
configs: [configs/ideal.yaml]
workloads: [deg, back, gaus]
options: {preset: small}
"""


def write_times(path, rows, header=("point", "wall_seconds")):
    with open(path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\r\n")  # as the committed results.csv files
        w.writerow(header)
        w.writerows(rows)
    return path


class Order(t.TempDirTest):
    def test_longest_first_unknown_at_the_mean(self):
        spec = t.write_spec(self.tmp, SPEC)
        ids = {p.workload: p.id for p in load_spec(spec, None).points}
        # gaus 30 s, deg 20 s, back unknown: it takes the mean of this sweep's known
        # points, 25 s (a point of another sweep, 40 s, does not count: with it, back's
        # 30 s would tie with gaus and the tie would keep spec order, back first).
        times = write_times(os.path.join(self.tmp, "times.csv"),
                            [(ids["gaus"], "30"), (ids["deg"], "20"), ("p-elsewhere", "40")])
        r = t.run_sweep(spec, os.path.join(self.tmp, "out"), "-j", "1", "--no-validate", "--times", times)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        ended = re.findall(r"^\[\d+/3\] (\S+): ok", r.stdout, re.M)
        by_id = {v: k for k, v in ids.items()}
        self.assertEqual([by_id[i] for i in ended], ["gaus", "back", "deg"])

    def test_bad_times_files_name_file_line_and_column(self):
        spec = t.write_spec(self.tmp, SPEC)
        out = os.path.join(self.tmp, "out")
        no_col = write_times(os.path.join(self.tmp, "a.csv"), [("x", "1")], header=("point", "seconds"))
        r = t.run_sweep(spec, out, "--no-validate", "--times", no_col)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn(f"--times {no_col}: line 1: no column wall_seconds", r.stderr)
        bad = write_times(os.path.join(self.tmp, "b.csv"), [("x", "1"), ("y", "soon")])
        r = t.run_sweep(spec, out, "--no-validate", "--times", bad)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn(f"--times {bad}: line 3: wall_seconds 'soon' is not a number of seconds", r.stderr)
        missing = os.path.join(self.tmp, "none.csv")
        r = t.run_sweep(spec, out, "--no-validate", "--times", missing)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn(f"--times {missing}: No such file or directory", r.stderr)
        self.assertFalse(os.path.exists(os.path.join(out, "results.csv")))


if __name__ == "__main__":
    t.main()
