#!/usr/bin/python3
"""A sweep killed mid-way (SIGKILL to its whole process group, right after its first
point finished) resumes: finished points are not re-run (their stats.json keeps its
mtime and bytes), nothing half-written is taken for done, and the final results.csv
has every point exactly once."""
import csv
import hashlib
import os
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import exp_test_support as t  # noqa: E402

SPEC = """
configs: [configs/ideal.yaml, configs/optane.yaml]
workloads: [deg, back, gaus]
options: {preset: small}
"""


def finished(points_dir):
    if not os.path.isdir(points_dir):
        return []
    return [n for n in os.listdir(points_dir) if not n.startswith(".") and not n.endswith((".running", ".failed"))]


def fingerprint(path):
    with open(path, "rb") as f:
        return os.stat(path).st_mtime_ns, hashlib.sha256(f.read()).hexdigest()


class Resume(t.TempDirTest):
    def test_kill_and_resume(self):
        spec = t.write_spec(self.tmp, SPEC)
        out = os.path.join(self.tmp, "out")
        points = os.path.join(out, "points")
        proc = subprocess.Popen(t.sweep_command(spec, out, "-j", "1", "--no-validate"), stdout=subprocess.PIPE,
                                stderr=subprocess.STDOUT, start_new_session=True)
        deadline = time.monotonic() + 200
        while not finished(points) and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.01)
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
        proc.stdout.close()
        done = finished(points)
        self.assertGreaterEqual(len(done), 1, "no point finished before the deadline")
        self.assertLess(len(done), 6, "the sweep ended before it could be killed mid-way")
        before = {n: fingerprint(os.path.join(points, n, "stats.json")) for n in done}

        r = t.run_sweep(spec, out, "-j", "2", "--no-validate")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        self.assertIn(f"{len(done)} already done, {6 - len(done)} to run", r.stdout)
        for n, fp in before.items():
            self.assertEqual(fingerprint(os.path.join(points, n, "stats.json")), fp, f"{n} was re-run")
        with open(os.path.join(out, "results.csv"), newline="") as f:
            rows = list(csv.DictReader(f))
        self.assertEqual(len(rows), 6)
        self.assertEqual(len({x["point"] for x in rows}), 6)
        self.assertEqual(sorted((x["config"], x["workload"]) for x in rows),
                         sorted((c, w) for c in ("ideal", "optane") for w in ("deg", "back", "gaus")))
        self.assertEqual(sorted(finished(points)), sorted(x["point"] for x in rows))
        self.assertFalse([n for n in os.listdir(points) if n.endswith(".running")])


if __name__ == "__main__":
    t.main()
