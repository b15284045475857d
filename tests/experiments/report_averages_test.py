#!/usr/bin/python3
"""The report's Fig. 10 averages on hand-made results: the paper's normalisation (bars
normalised to ZnG per workload, each platform's bars averaged) beside the geomean of
per-workload ratios, the two differing when the ratios vary over workloads."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import exp_test_support as t  # noqa: E402

sys.path.insert(0, t.EXPERIMENTS)
import pandas as pd  # noqa: E402
import report  # noqa: E402


def rows(ipcs):
    return pd.DataFrame([{"config": c, "workload": w, "ipc": v} for (c, w), v in ipcs.items()])


class Fig10Averages(t.TempDirTest):
    # zng 1 and 2, hybridgpu 0.5 and 0.25: the bars of hybridgpu are 0.5 and 0.125, mean
    # 0.3125, zng's bars are 1 -> 1 / 0.3125 = 3.2. The geomean of zng / hybridgpu is
    # sqrt(2 x 8) = 4.
    R = rows({("zng", "a"): 1.0, ("zng", "b"): 2.0, ("hybridgpu", "a"): 0.5, ("hybridgpu", "b"): 0.25,
              ("optane", "a"): 1.5, ("optane", "b"): 0.5})

    def test_bar_mean_and_geomean_are_both_reported(self):
        value, note = report.fig10_claim("zng", "hybridgpu")(self.R)
        self.assertAlmostEqual(value, 3.2)
        self.assertEqual(note, "geomean of per-workload ratios 4")

    def test_two_platforms_other_than_zng(self):
        # optane bars 1.5 and 0.25 (mean 0.875) over hybridgpu's 0.3125 -> 2.8.
        self.assertAlmostEqual(report.fig10_bar_ratio(self.R, "optane", "hybridgpu"), 2.8)
        # restricted to workload a: 1.5 / 0.5 = 3
        self.assertAlmostEqual(report.fig10_bar_ratio(self.R, "optane", "hybridgpu", ["a"]), 3.0)

    def test_workload_without_zng_is_left_out(self):
        r = pd.concat([self.R, rows({("hybridgpu", "c"): 9.0, ("optane", "c"): 1.0})])
        self.assertAlmostEqual(report.fig10_bar_ratio(r, "optane", "hybridgpu"), 2.8)
        with self.assertRaises(report.Missing):
            report.fig10_claim("optane", "hybridgpu", ["c"])(r)


if __name__ == "__main__":
    t.main()
