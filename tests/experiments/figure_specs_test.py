#!/usr/bin/python3
"""Every figure spec in experiments/ is valid: it parses, names existing platform files,
and zngsim accepts each of its (config, overrides) combinations. Checked with the
sweep's own validation, so a renamed config key breaks this test, not a long run."""
import glob
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import exp_test_support as t  # noqa: E402

sys.path.insert(0, t.EXPERIMENTS)
import sweep  # noqa: E402
from sweeps.spec import load_spec  # noqa: E402

SPECS = sorted(glob.glob(os.path.join(t.EXPERIMENTS, "fig*.yaml")) + glob.glob(os.path.join(t.EXPERIMENTS, "table*.yaml")))


class FigureSpecs(t.TempDirTest):
    def test_every_figure_has_a_spec_and_a_script(self):
        self.assertGreaterEqual(len(SPECS), 10)
        for s in SPECS:
            self.assertTrue(os.path.isfile(s[:-len(".yaml")] + ".py"), f"no plot script for {s}")

    def test_specs_validate_against_zngsim(self):
        for s in SPECS:
            with self.subTest(spec=os.path.basename(s)):
                spec = load_spec(s, preset="small")
                self.assertTrue(spec.points)
                self.assertTrue(all(dict(p.options)["preset"] == "small" for p in spec.points))
                sweep.validate_configs(spec, t.ZNGSIM)


if __name__ == "__main__":
    t.main()
