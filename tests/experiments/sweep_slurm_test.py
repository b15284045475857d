#!/usr/bin/python3
"""The Slurm executor against a real single-node Slurm (slurm_local_cluster.sh starts a
private munged, slurmctld and slurmd on localhost and stops them after): a small sweep
runs as one job array in the partition and with the time limit asked for, its
stats.json equal a local run's byte for byte, and a second run runs nothing; a point
killed by `scancel` fails and is the only point run again on resume; Ctrl-C cancels
the array; bad Slurm options stop the sweep with exit status 2.

Exit status 77 (ctest: skipped) when Slurm or munge is not installed; a failure, with
the daemons' logs, when they are installed but do not come up."""
import ctypes
import glob
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import exp_test_support as t  # noqa: E402

CLUSTER = os.path.join(t.HERE, "slurm_local_cluster.sh")
SKIP = 77

# Three points of under a second each (small preset).
SPEC = """
points:
  - {config: configs/ideal.yaml, workload: deg}
  - {config: configs/ideal.yaml, workload: bfs1}
  - {config: configs/optane.yaml, workload: bfs1}
options: {preset: small}
slurm: {partition: zngother, time: "10"}
"""

# Stands in for zngsim: while HOLD/hold-<workload> exists (at most 60 s) the point
# waits, after writing its array task (<array>_<task>) to HOLD/held-<workload>.
HOLDING_ZNGSIM = """#!/bin/sh
workload=
prev=
for a in "$@"; do
  [ "$prev" = --workload ] && workload=$a
  prev=$a
done
if [ -n "$workload" ] && [ -e "{hold}/hold-$workload" ]; then
  echo "${{SLURM_ARRAY_JOB_ID}}_${{SLURM_ARRAY_TASK_ID}}" > "{hold}/held-$workload.tmp"
  mv "{hold}/held-$workload.tmp" "{hold}/held-$workload"
  i=0
  while [ -e "{hold}/hold-$workload" ] && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
fi
exec {zngsim} "$@"
"""


def die_with_test():
    """In a sweep the test starts: killed when the test dies (a timeout), so that no
    sweep outlives it polling a cluster that is gone."""
    ctypes.CDLL(None).prctl(1, signal.SIGKILL)   # PR_SET_PDEATHSIG


def slurm(*argv):
    return subprocess.run(argv, capture_output=True, text=True, timeout=30)


def wait_for(predicate, seconds, what):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out after {seconds} s waiting for {what}")


def point_dirs(points, suffix=""):
    return sorted(n for n in os.listdir(points) if not n.startswith(".") and
                  (n.endswith(suffix) if suffix else not n.endswith((".running", ".failed"))))


class SlurmSweep(t.TempDirTest):
    def setUp(self):
        super().setUp()
        self.spec = t.write_spec(self.tmp, SPEC)
        self.hold = os.path.join(self.tmp, "hold")
        os.makedirs(self.hold)
        self.zngsim = os.path.join(self.tmp, "zngsim")
        with open(self.zngsim, "w") as f:
            f.write(HOLDING_ZNGSIM.format(hold=self.hold, zngsim=t.ZNGSIM))
        os.chmod(self.zngsim, 0o755)

    def sweep_command(self, out, *extra, executor="slurm"):
        cmd = [t.PYTHON, t.SWEEP, self.spec, "--out", out, "--zngsim", self.zngsim, "--no-validate", *extra]
        return cmd + (["--executor", "slurm", "--slurm-poll", "0.5"] if executor == "slurm" else [])

    def sweep(self, out, *extra, executor="slurm"):
        return subprocess.run(self.sweep_command(out, *extra, executor=executor), capture_output=True, text=True,
                              timeout=90, preexec_fn=die_with_test)

    def start_sweep(self, out, *extra):
        """A sweep in the background, its output in out.log."""
        log = open(out + ".log", "w")
        self.addCleanup(log.close)
        proc = subprocess.Popen(self.sweep_command(out, *extra), stdout=log, stderr=subprocess.STDOUT,
                                preexec_fn=die_with_test)
        self.addCleanup(lambda: proc.poll() is None and (proc.kill(), proc.wait()))
        return proc

    def test_array_matches_local_run_and_resumes(self):
        out = os.path.join(self.tmp, "slurm")
        r = self.sweep(out, "--slurm-time", "5")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        arrays = re.findall(r"slurm: submitted job array (\d+) \((\d+) point\(s\)\)", r.stdout)
        self.assertEqual(len(arrays), 1, r.stdout)
        array, n = arrays[0]
        self.assertEqual(n, "3")
        # The spec's partition, the command line's time limit (5 min overrides the spec's 10).
        jobs = slurm("scontrol", "--oneliner", "show", "job", array).stdout.splitlines()
        self.assertEqual(len(jobs), 3, jobs)
        for line in jobs:
            self.assertIn("Partition=zngother", line)
            self.assertIn("TimeLimit=00:05:00", line)
            self.assertIn("JobState=COMPLETED", line)

        local = os.path.join(self.tmp, "local")
        r2 = self.sweep(local, "-j", "2", executor="local")
        self.assertEqual(r2.returncode, 0, r2.stdout + r2.stderr)
        names = point_dirs(os.path.join(out, "points"))
        self.assertEqual(names, point_dirs(os.path.join(local, "points")))
        self.assertEqual(len(names), 3)
        for name in names:
            with open(os.path.join(out, "points", name, "stats.json"), "rb") as a, \
                 open(os.path.join(local, "points", name, "stats.json"), "rb") as b:
                self.assertEqual(a.read(), b.read(), f"{name}: stats.json differs between Slurm and local")
        self.assertEqual(os.listdir(os.path.join(out, "points", ".slurm")), [], "batch scripts left behind")

        again = self.sweep(out)
        self.assertEqual(again.returncode, 0, again.stdout + again.stderr)
        self.assertIn("3 already done, 0 to run", again.stdout)
        self.assertNotIn("submitted job array", again.stdout)

    def test_point_killed_by_scancel_is_rerun_on_resume(self):
        out = os.path.join(self.tmp, "out")
        points = os.path.join(out, "points")
        open(os.path.join(self.hold, "hold-deg"), "w").close()
        proc = self.start_sweep(out)
        held = os.path.join(self.hold, "held-deg")
        wait_for(lambda: os.path.exists(held), 30, "the deg point to start")
        with open(held) as f:
            task = f.read().strip()
        self.assertEqual(slurm("scancel", task).returncode, 0)
        proc.wait(timeout=60)
        with open(out + ".log") as f:
            log = f.read()
        self.assertEqual(proc.returncode, 1, log)
        self.assertIn("1 point(s) failed", log)
        self.assertRegex(log, r"ideal__deg__\w+ \(killed by signal \d+\)")
        self.assertEqual(len(point_dirs(points)), 2, log)
        failed = point_dirs(points, ".failed")
        self.assertEqual(len(failed), 1)
        with open(os.path.join(points, failed[0], "log.txt")) as f:
            self.assertIn(f"slurm: array task {task} ended CANCELLED", f.read())

        os.remove(os.path.join(self.hold, "hold-deg"))
        r = self.sweep(out)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn("2 already done, 1 to run", r.stdout)
        self.assertIn("(1 point(s))", r.stdout)
        self.assertEqual(len(point_dirs(points)), 3)
        self.assertEqual(point_dirs(points, ".failed"), [])

    def start_held_sweep(self, out):
        """Starts a sweep whose deg and bfs1 points hold until released; returns the
        sweep's process and its job array id once a point has started."""
        for w in ("deg", "bfs1"):
            open(os.path.join(self.hold, f"hold-{w}"), "w").close()
        proc = self.start_sweep(out)
        wait_for(lambda: glob.glob(os.path.join(self.hold, "held-*")), 30, "a point to start")
        with open(out + ".log") as f:
            return proc, re.search(r"submitted job array (\d+)", f.read()).group(1)

    def test_interrupt_cancels_the_array(self):
        out = os.path.join(self.tmp, "out")
        proc, array = self.start_held_sweep(out)
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=60)
        with open(out + ".log") as f:
            log = f.read()
        self.assertEqual(proc.returncode, 130, log)
        self.assertIn("interrupted", log)
        # No task of the array pending or running, nothing left in flight in the pool.
        self.assertEqual(slurm("squeue", "--noheader", "--array", "--jobs", array).stdout.strip(), "")
        states = re.findall(r"JobState=(\S+)", slurm("scontrol", "--oneliner", "show", "job", array).stdout)
        self.assertEqual(len(states), 3, states)
        self.assertIn("CANCELLED", states)
        self.assertLessEqual(set(states), {"CANCELLED", "COMPLETED"})
        points = os.path.join(out, "points")
        self.assertEqual(point_dirs(points, ".running"), [])
        self.assertEqual(os.listdir(os.path.join(points, ".slurm")), [])

    def test_array_of_a_killed_sweep_is_cancelled_on_resume(self):
        # Every point held: a SIGKILLed sweep cannot cancel, so its array runs on.
        out = os.path.join(self.tmp, "out")
        proc, array = self.start_held_sweep(out)
        proc.kill()
        proc.wait(timeout=30)
        self.assertEqual(len(slurm("squeue", "--noheader", "--array", "--jobs", array).stdout.splitlines()), 3)

        # The resume (with zngsim itself: nothing finished, so no point is stale) cancels it first.
        self.zngsim = t.ZNGSIM
        r = self.sweep(out)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn(f"slurm: cancelling job array(s) {array} of an interrupted sweep", r.stdout)
        self.assertIn("0 already done, 3 to run", r.stdout)
        states = re.findall(r"JobState=(\S+)", slurm("scontrol", "--oneliner", "show", "job", array).stdout)
        self.assertEqual(states, ["CANCELLED"] * 3)
        self.assertEqual(len(point_dirs(os.path.join(out, "points"))), 3)

    def test_bad_options_exit_2(self):
        out = os.path.join(self.tmp, "out")
        cases = [
            (["--slurm-partition", "nosuch"], "invalid partition"),
            (["--slurm-time", "1:2:3:4"], "--slurm-time: '1:2:3:4' is not a Slurm time limit"),
            (["--slurm-mem", "2X"], "--slurm-mem: '2X' is not a Slurm memory size"),
            # sbatch --test-only accepts it, but the jobs would wait for ever (MaxTime=60 minutes).
            (["--slurm-time", "1:01:00"], "slurm time 1:01:00 is above the time limit of partition zngother "
                                          "(01:00:00): its jobs would never start"),
        ]
        for extra, message in cases:
            r = self.sweep(out, *extra)
            self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
            self.assertIn(message, r.stderr)
        r = self.sweep(out, "--slurm-mem", "1G", executor="local")
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("--slurm-mem: only with --executor slurm", r.stderr)
        spec = t.write_spec(self.tmp, SPEC.replace('time: "10"', "time: ten"), "bad.yaml")
        r = subprocess.run([t.PYTHON, t.SWEEP, spec, "--out", out, "--zngsim", self.zngsim, "--executor", "slurm"],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)
        self.assertIn("bad.yaml: slurm.time: 'ten' is not a Slurm time limit", r.stderr)
        self.assertFalse(os.path.exists(os.path.join(out, "points")), "a refused sweep created its pool")


def main():
    if len(sys.argv) < 2 or not os.access(sys.argv[1], os.X_OK):
        sys.exit(f"usage: {sys.argv[0]} PATH-TO-ZNGSIM (got {sys.argv[1:]})")
    # A short path: the munge socket's must fit a sockaddr_un (108 bytes).
    state = tempfile.mkdtemp(prefix="zng-slurm-", dir="/tmp")
    try:
        # With this process's pid: the daemons are stopped even when a timeout kills it.
        r = subprocess.run([CLUSTER, "start", state, str(os.getpid())], capture_output=True, text=True, timeout=90)
    except subprocess.TimeoutExpired as e:
        subprocess.run([CLUSTER, "stop", state], timeout=60)
        sys.exit(f"SLURM TEST FAILED: the local Slurm did not start within 90 s\n{e.stdout or ''}{e.stderr or ''}")
    if r.returncode == SKIP:
        print(f"SKIPPED: {r.stdout.strip()}; the Slurm executor is not tested here")
        shutil.rmtree(state, ignore_errors=True)
        sys.exit(SKIP)
    if r.returncode != 0:
        sys.exit("SLURM TEST FAILED: Slurm is installed but its daemons did not come up:\n" + r.stdout + r.stderr)
    os.environ["SLURM_CONF"] = os.path.join(state, "slurm.conf")
    try:
        t.main()
    finally:
        subprocess.run([CLUSTER, "stop", state], timeout=60)
        shutil.rmtree(state, ignore_errors=True)


if __name__ == "__main__":
    main()
