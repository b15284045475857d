#!/usr/bin/python3
"""scripts/bench_vs_peer.sh against fake simulators whose run times are known: a fake
peer and a fake zngsim sleep a set time on each run (read from a counter file) and log
their calls, so the medians, the ratio, the alternation and the memory figure can be
checked against values worked out by hand. Argument errors must exit 2 naming the
option. One run uses the real zngsim on the Accel-Sim test trace of ../shared.
usage: bench_vs_peer_test.py ZNGSIM [SHARED_DIR]"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(REPO, "scripts", "bench_vs_peer.sh")
ZNGSIM = sys.argv[1] if len(sys.argv) > 1 else os.path.join(REPO, "build", "zngsim")
SHARED = sys.argv[2] if len(sys.argv) > 2 else os.path.join(REPO, "..", "shared")

# A fake simulator: the n-th call sleeps the n-th of SLEEPS seconds, appends its name
# and arguments to LOG, and (the peer) holds HOLD_MIB MiB of touched memory meanwhile.
FAKE = """#!/usr/bin/python3
import os, sys, time
name, log, sleeps, hold = {name!r}, {log!r}, {sleeps!r}, {hold}
with open(log, "a") as f:
    n = 0
    if os.path.exists(log):
        with open(log) as g:
            n = sum(1 for line in g if line.startswith(name + " "))
    f.write(name + " " + " ".join(sys.argv[1:]) + " cwd=" + os.getcwd() + "\\n")
block = b"x" * (hold << 20)
time.sleep(sleeps[n])
"""


def write_fake(path, name, log, sleeps, hold_mib=0):
    with open(path, "w") as f:
        f.write(FAKE.format(name=name, log=log, sleeps=sleeps, hold=hold_mib))
    os.chmod(path, 0o755)


def read(path):
    with open(path) as f:
        return f.read()


def assert_ratio_of(test, ratio, peer_s, zng_s):
    """The printed ratio (2 decimals) is the quotient of the printed medians (4 decimals)."""
    lo = (peer_s - 5e-5) / (zng_s + 5e-5) - 0.005
    hi = (peer_s + 5e-5) / (zng_s - 5e-5) + 0.005
    test.assertTrue(lo <= ratio <= hi, "ratio %s is not %s / %s" % (ratio, peer_s, zng_s))


def run(*args):
    return subprocess.run([SCRIPT, *args], capture_output=True, text=True, timeout=100)


def parse(out):
    """(peer median s, peer MiB, zngsim median s, zngsim MiB, ratio) from the script's output."""
    peer = re.search(r"^(macsim|accelsim) \(.*\): median ([0-9.]+) s wall of (\d+) runs, peak RSS ([0-9.]+) MiB$",
                     out, re.M)
    zng = re.search(r"^zngsim \(.*\): median ([0-9.]+) s wall of (\d+) runs, peak RSS ([0-9.]+) MiB$", out, re.M)
    ratio = re.search(r"^ratio (macsim|accelsim) / zngsim: ([0-9.]+)x$", out, re.M)
    if not (peer and zng and ratio):
        raise AssertionError("unexpected output:\n" + out)
    return (float(peer.group(2)), float(peer.group(4)), float(zng.group(1)), float(zng.group(3)),
            float(ratio.group(2)))


class BenchVsPeer(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.log = os.path.join(self.dir, "calls.log")
        self.trace = os.path.join(self.dir, "macsim-trace")
        os.mkdir(self.trace)
        with open(os.path.join(self.trace, "kernel_config.txt"), "w"):
            pass
        self.peer = os.path.join(self.dir, "fake-macsim")
        self.zng = os.path.join(self.dir, "fake-zngsim")

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_medians_ratio_alternation_and_memory(self):
        # Peer runs sleep 0.3, 8.0 and 0.5 s: median 0.5 (the mean would be 2.93, the
        # first run 0.3). zngsim runs sleep 0.1, 0.1, 6.0 s: median 0.1 (mean 2.07).
        # Start-up (a Python interpreter: up to a second on a machine whose cores are
        # busy building) adds to each, so the medians lie above 0.5 and 0.1, though well
        # below the means, and the ratio off 0.5 / 0.1 = 5; the printed ratio must be the
        # printed medians' quotient. The peer holds 80 MiB, the fake zngsim nothing.
        write_fake(self.peer, "peer", self.log, [0.3, 8.0, 0.5], hold_mib=80)
        write_fake(self.zng, "zngsim", self.log, [0.1, 0.1, 6.0])
        params = os.path.join(self.dir, "params.in")
        with open(params, "w"):
            pass
        r = run("--macsim", self.peer, self.trace, "--zngsim", self.zng, "--peer-file", params, "--", "--extra")
        self.assertEqual(r.returncode, 0, r.stderr)
        peer_s, peer_mib, zng_s, zng_mib, ratio = parse(r.stdout)
        self.assertGreaterEqual(peer_s, 0.5)
        self.assertLess(peer_s, 2.5)
        self.assertGreaterEqual(zng_s, 0.1)
        self.assertLess(zng_s, 1.8)
        assert_ratio_of(self, ratio, peer_s, zng_s)
        # Start-up adds the same to both medians: their quotient stays above 1.
        self.assertGreater(ratio, 1.0)
        self.assertGreaterEqual(peer_mib, 80)
        self.assertLess(zng_mib, 80)
        calls = read(self.log).splitlines()
        self.assertEqual([c.split()[0] for c in calls], ["peer", "zngsim"] * 3)
        # The peer runs in a fresh folder holding the trace list and the --peer-file,
        # with the arguments after --; zngsim imports the same trace.
        peer_cwd = calls[0].split("cwd=")[1]
        self.assertNotEqual(peer_cwd, calls[2].split("cwd=")[1])
        self.assertTrue(calls[0].startswith("peer --extra "))
        self.assertIn("--trace-format macsim --trace " + os.path.realpath(self.trace), calls[1])
        self.assertIn("--config configs/ideal.yaml", calls[1])

    def test_macsim_trace_list_names_the_kernel_config(self):
        # A fake peer that copies the trace_file_list of its working folder next to the log.
        copy = os.path.join(self.dir, "seen_list")
        with open(self.peer, "w") as f:
            f.write("#!/bin/sh\ncp trace_file_list %s\n" % copy)
        os.chmod(self.peer, 0o755)
        write_fake(self.zng, "zngsim", self.log, [0.0])
        r = run("--macsim", self.peer, self.trace, "--zngsim", self.zng, "--repeat", "1")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(read(copy), "1\n%s/kernel_config.txt\n" % os.path.realpath(self.trace))

    def test_failing_peer_stops_the_comparison(self):
        with open(self.peer, "w") as f:
            f.write("#!/bin/sh\necho cannot open params.in\nexit 3\n")
        os.chmod(self.peer, 0o755)
        write_fake(self.zng, "zngsim", self.log, [0.0])
        r = run("--macsim", self.peer, self.trace, "--zngsim", self.zng)
        self.assertEqual(r.returncode, 1)
        self.assertIn("peer run failed (exit 3)", r.stderr)
        self.assertIn("cannot open params.in", r.stderr)

    def test_argument_errors_exit_2_naming_the_option(self):
        write_fake(self.peer, "peer", self.log, [0.0])
        write_fake(self.zng, "zngsim", self.log, [0.0])
        empty = os.path.join(self.dir, "empty")
        os.mkdir(empty)
        cases = [
            ([], "--macsim"),
            (["--macsim", self.peer], "--macsim"),
            (["--macsim", os.path.join(self.dir, "absent"), self.trace], "--macsim"),
            (["--macsim", self.peer, empty], "--macsim"),
            (["--accelsim", self.peer, empty], "--accelsim"),
            (["--macsim", self.peer, self.trace, "--accelsim", self.peer, self.trace], "--accelsim"),
            (["--macsim", self.peer, self.trace, "--repeat", "0"], "--repeat"),
            (["--macsim", self.peer, self.trace, "--repeat", "x"], "--repeat"),
            (["--macsim", self.peer, self.trace, "--config", os.path.join(self.dir, "no.yaml")], "--config"),
            (["--macsim", self.peer, self.trace, "--zngsim", os.path.join(self.dir, "absent")], "--zngsim"),
            (["--macsim", self.peer, self.trace, "--peer-file", os.path.join(self.dir, "absent")], "--peer-file"),
            (["--macsim", self.peer, self.trace, "--bogus"], "--bogus"),
        ]
        for args, option in cases:
            with self.subTest(args=args):
                r = run(*args)
                self.assertEqual(r.returncode, 2, r.stderr)
                self.assertIn(option, r.stderr)
                self.assertEqual(r.stdout, "")
        self.assertFalse(os.path.exists(self.log), "no simulator may run after an argument error")

    def test_real_zngsim_replays_the_accelsim_trace(self):
        trace = os.path.join(SHARED, "testdata", "accelsim", "vectoradd-100-32")
        if not os.path.exists(trace):
            self.skipTest("needs ../shared/testdata/accelsim/vectoradd-100-32 (absent)")
        write_fake(self.peer, "peer", self.log, [0.2])
        r = run("--accelsim", self.peer, trace, "--zngsim", ZNGSIM, "--repeat", "1")
        self.assertEqual(r.returncode, 0, r.stderr)
        peer_s, _, zng_s, zng_mib, ratio = parse(r.stdout)
        self.assertGreaterEqual(peer_s, 0.2)
        self.assertGreater(zng_mib, 0)
        assert_ratio_of(self, ratio, peer_s, zng_s)
        # Accel-Sim is given the kernel list with -trace.
        self.assertIn("peer -trace " + os.path.realpath(os.path.join(trace, "kernelslist.g")),
                      read(self.log))


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
