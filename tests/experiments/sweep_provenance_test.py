#!/usr/bin/python3
"""A finished point is reused only while the same zngsim binary and the same resolved
config would make it: after a fragment the platform includes changes, or the binary
changes, the sweep refuses to reuse the point and names it and what differs;
--rerun-stale runs it again, and an unchanged re-run skips it."""
import json
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import exp_test_support as t  # noqa: E402


class Provenance(t.TempDirTest):
    def setUp(self):
        super().setUp()
        self.fragment = os.path.join(self.tmp, "l2.yaml")
        with open(self.fragment, "w") as f:
            f.write("gpu:\n  l2:\n    size: 6MiB\n")
        platform = os.path.join(self.tmp, "platform.yaml")
        with open(platform, "w") as f:
            f.write(f"include:\n  - {os.path.join(t.REPO, 'configs', 'ideal.yaml')}\n  - {self.fragment}\n")
        self.spec = t.write_spec(self.tmp, f"configs: [{platform}]\nworkloads: [deg]\noptions: {{preset: small}}\n")
        self.out = os.path.join(self.tmp, "out")
        self.points = os.path.join(self.out, "points")

    def point_dir(self):
        (name,) = [n for n in os.listdir(self.points) if not n.startswith(".")]
        return os.path.join(self.points, name)

    def test_changed_fragment_is_not_reused_silently(self):
        r = t.run_sweep(self.spec, self.out, "--no-validate")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        with open(os.path.join(self.point_dir(), "point.json")) as f:
            stored = json.load(f)["provenance"]
        self.assertEqual(set(stored), {"zngsim_sha256", "zngsim_version", "config_sha256"})
        r = t.run_sweep(self.spec, self.out, "--no-validate")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("1 already done, 0 to run", r.stdout)

        with open(self.fragment, "w") as f:
            f.write("gpu:\n  l2:\n    size: 3MiB\n")
        r = t.run_sweep(self.spec, self.out, "--no-validate")
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("resolved config differs", r.stderr)
        self.assertIn(os.path.basename(self.point_dir()), r.stderr)
        r = t.run_sweep(self.spec, self.out, "--no-validate", "--rerun-stale")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("0 already done, 1 to run", r.stdout)
        with open(os.path.join(self.point_dir(), "stats.json")) as f:
            self.assertEqual(json.load(f)["config"]["gpu"]["l2"]["size"], "3MiB")

    def test_changed_binary_is_not_reused_silently(self):
        binary = os.path.join(self.tmp, "zngsim")
        shutil.copy2(t.ZNGSIM, binary)
        cmd = [t.PYTHON, t.SWEEP, self.spec, "--out", self.out, "--zngsim", binary, "--no-validate"]
        r = t.subprocess.run(cmd, capture_output=True, text=True, timeout=240)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        with open(binary, "ab") as f:  # any other build: one byte more is another binary
            f.write(b"\0")
        r = t.subprocess.run(cmd, capture_output=True, text=True, timeout=240)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("zngsim binary differs", r.stderr)

    def test_point_without_provenance_is_stale(self):
        r = t.run_sweep(self.spec, self.out, "--no-validate")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        path = os.path.join(self.point_dir(), "point.json")
        with open(path) as f:
            d = json.load(f)
        del d["provenance"]  # as written before points recorded it
        with open(path, "w") as f:
            json.dump(d, f)
        r = t.run_sweep(self.spec, self.out, "--no-validate")
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("no provenance recorded", r.stderr)


if __name__ == "__main__":
    t.main()
