"""Shared helpers of the experiments tests: paths, the zngsim under test, running the
sweep command, and temporary spec files."""
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
EXPERIMENTS = os.path.join(REPO, "experiments")
SWEEP = os.path.join(EXPERIMENTS, "sweep.py")
PYTHON = "/usr/bin/python3"
ZNGSIM = None


def sweep_command(spec, out, *extra):
    return [PYTHON, SWEEP, spec, "--out", out, "--zngsim", ZNGSIM, *extra]


def run_sweep(spec, out, *extra):
    return subprocess.run(sweep_command(spec, out, *extra), capture_output=True, text=True, timeout=240)


def write_spec(directory, text, name="spec.yaml"):
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        f.write(text)
    return path


class TempDirTest(unittest.TestCase):
    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="zng-exp-test-")
        self.tmp = self._tmp.name

    def tearDown(self):
        self._tmp.cleanup()


def main():
    """argv[1] is the zngsim binary (CMake passes $<TARGET_FILE:zngsim>)."""
    global ZNGSIM
    if len(sys.argv) < 2 or not os.access(sys.argv[1], os.X_OK):
        sys.exit(f"usage: {sys.argv[0]} PATH-TO-ZNGSIM (got {sys.argv[1:]})")
    ZNGSIM = os.path.abspath(sys.argv[1])
    unittest.main(argv=[sys.argv[0], "-v"])
