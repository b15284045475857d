#!/usr/bin/python3
"""Bad specs and options stop the sweep before any point runs, with exit status 2 and a
message naming the spec file and the key."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import exp_test_support as t  # noqa: E402

sys.path.insert(0, t.EXPERIMENTS)
from sweeps.spec import load_spec  # noqa: E402

CASES = [
    ("workload: [bfs1]\nconfigs: [configs/ideal.yaml]\n", "workload: unknown key"),
    ("configs: [configs/nope.yaml]\nworkloads: [bfs1]\n", "configs[0]: config file 'configs/nope.yaml' not found"),
    ("configs: [configs/ideal.yaml]\nworkloads: [bfs1]\noptions: {preset: huge}\n", "options.preset"),
    ("configs: [configs/ideal.yaml]\nworkloads: [bfs1]\noptions: {scale: many}\n", "options.scale: expected int"),
    ("configs: [configs/ideal.yaml]\nworkloads: [bfs1]\nset: {gpu.l2.size: [[1]]}\n", "set.gpu.l2.size[0]"),
    ("points: [{config: configs/ideal.yaml}]\n", "points[0]: missing 'workload'"),
    ("points: [{config: configs/ideal.yaml, workload: bfs1, colour: red}]\n", "points[0].colour: unknown key"),
    ("configs: [configs/ideal.yaml]\nworkloads: [bfs1, bfs1]\n", "repeats point 0"),
    ("configs: [configs/ideal.yaml]\nworkloads: [bfs1]\nvariants: {a: {sett: {}}}\n", "variants.a.sett: unknown key"),
    ("workloads: [bfs1]\nvariants: {a: {set: {x: 1}}}\n", "configs: missing"),
    ("configs: [configs/ideal.yaml]\nworkloads: [bfs1]\nmetrics: {x: 3}\n", "metrics.x"),
    ("configs: [configs/ideal.yaml]\nworkloads: [bfs1]\napp_metrics: {x: gpu.ipc}\n", "app_metrics.x"),
    ("configs: [configs/ideal.yaml\n", "not valid YAML"),
    ("configs: [configs/ideal.yaml]\nworkloads: [bfs1]\nseries: {bin: fast, columns: {a: sum}}\n",
     "series.bin: expected a positive time"),
    ("configs: [configs/ideal.yaml]\nworkloads: [bfs1]\nseries: {bin: 1ms, columns: {a: max}}\n",
     "series.columns.a: expected one of sum, mean, last"),
    ("configs: [configs/ideal.yaml]\nworkloads: [bfs1]\nseries: {bin: 1ms, colums: {a: sum}}\n",
     "series.colums: unknown key"),
    ("configs: [configs/ideal.yaml]\nworkloads: [bfs1]\nworkload_options: {bfs1: {max_launch: true}}\n",
     "workload_options.bfs1.max_launch"),
    # an integer option that is neither zngsim's nor one the workload's program declares,
    # and a program option outside its declared range (Rodinia gaussian's -s: 2..32768)
    ("configs: [configs/ideal.yaml]\nworkloads: [bfs1]\nworkload_options: {bfs1: {max_launch: 2}}\n",
     "option 'max_launch' is neither a workload option"),
    ("configs: [configs/ideal.yaml]\nworkloads: [gaus]\noptions: {root: 3}\n", "nor an option of its program (gaus: size)"),
    ("configs: [configs/ideal.yaml]\nworkloads: [gaus]\noptions: {size: 1}\n", "option 'size': 1 is outside 2..32768"),
    ("configs: [configs/ideal.yaml]\nworkloads: [bfs1]\nworkload_options: [bfs1]\n", "workload_options"),
    # zngsim itself rejects the override: caught before the sweep starts any point
    ("configs: [configs/ideal.yaml]\nworkloads: [bfs1]\nset: {gpu.l2.no_such_key: 1}\n", "no_such_key"),
    # a metric no platform of the spec writes (a misspelt statistic), plain or per app
    ("configs: [configs/ideal.yaml]\nworkloads: [deg]\nmetrics: {acc: gpu.l2.policy.acuracy}\n",
     "metrics.acc: no platform of this spec writes the statistic 'gpu.l2.policy.acuracy'"),
    ("configs: [configs/ideal.yaml]\nworkloads: [deg]\napp_metrics: {req: \"gpu.app.{app}.requestz\"}\n",
     "app_metrics.req"),
    # workloads zngsim does not know, alone or in a co-running pair
    ("configs: [configs/ideal.yaml]\nworkloads: [bfs7]\n", "unknown workload 'bfs7'"),
    ("configs: [configs/ideal.yaml]\nworkloads: [betw-bakc]\n", "unknown workload 'bakc'"),
    # 2 configs x 1 workload x 101 x 100 values = 20,200 points, above the 10,000 without --yes
    ("configs: [configs/ideal.yaml, configs/optane.yaml]\nworkloads: [bfs1]\n"
     "set: {gpu.l2.ways: [" + ", ".join(str(i) for i in range(101)) + "], gpu.l1d.ways: ["
     + ", ".join(str(i) for i in range(100)) + "]}\n", "the product has 20,200 points"),
]


class SpecErrors(t.TempDirTest):
    def test_each_bad_spec_is_named(self):
        for text, expected in CASES:
            with self.subTest(expected=expected):
                spec = t.write_spec(self.tmp, text)
                out = os.path.join(self.tmp, "out")
                r = t.run_sweep(spec, out)
                self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
                self.assertIn(spec, r.stderr)
                self.assertIn(expected, r.stderr)
                points = os.path.join(out, "points")
                self.assertFalse(os.path.isdir(points) and [p for p in os.listdir(points) if not p.startswith(".")],
                                 "no point may run for a bad spec")

    def test_workload_options_apply_to_their_workload_only(self):
        spec = t.write_spec(self.tmp, "configs: [configs/ideal.yaml]\nworkloads: [bfs1, pr, betw-back]\n"
                                      "options: {preset: paper, seed: 3}\n"
                                      "workload_options: {pr: {max_launches: 6}, betw-back: {seed: 5}}\n")
        points = {p.workload: dict(p.options) for p in load_spec(spec).points}
        self.assertEqual(points["bfs1"], {"preset": "paper", "seed": 3})
        self.assertEqual(points["pr"], {"preset": "paper", "seed": 3, "max_launches": 6})
        self.assertEqual(points["betw-back"], {"preset": "paper", "seed": 5})
        # --preset still overrides every point's preset
        self.assertTrue(all(dict(p.options)["preset"] == "small" for p in load_spec(spec, "small").points))

    def test_program_options_become_their_flags(self):
        spec = t.write_spec(self.tmp, "configs: [configs/ideal.yaml]\nworkloads: [bfs6, gaus]\n"
                                      "workload_options: {bfs6: {root: 0}, gaus: {size: 64}}\n")
        commands = {p.workload: p.command("zngsim", "out") for p in load_spec(spec).points}
        self.assertIn("--root 0", " ".join(commands["bfs6"]))
        self.assertIn("--size 64", " ".join(commands["gaus"]))
        self.assertNotIn("--size", " ".join(commands["bfs6"]))

    def test_binary_spec_is_named_not_a_traceback(self):
        spec = os.path.join(self.tmp, "spec.yaml")
        with open(spec, "wb") as f:
            f.write(b"configs: [\xff\xfe\x00\x01]\n")
        r = t.run_sweep(spec, os.path.join(self.tmp, "o"))
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("not a text file", r.stderr)
        self.assertNotIn("Traceback", r.stderr)

    def test_bad_options(self):
        spec = t.write_spec(self.tmp, "configs: [configs/ideal.yaml]\nworkloads: [bfs1]\n")
        r = t.run_sweep(spec, os.path.join(self.tmp, "o"), "-j", "0")
        self.assertEqual(r.returncode, 2)
        self.assertIn("-j 0", r.stderr)
        r = t.run_sweep(spec, os.path.join(self.tmp, "o"), "--preset", "big")
        self.assertEqual(r.returncode, 2)
        self.assertIn("--preset", r.stderr)


if __name__ == "__main__":
    t.main()
