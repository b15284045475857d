"""What a point's result was made from, so that a result is never reused after any of
it changed: the zngsim binary (SHA-256 of the executable, and its --version), the
resolved config (SHA-256 of `zngsim config show` with the point's overrides, so a
changed fragment or default counts), and the content of any --input file or directory.
Each point stores its provenance in point.json; a finished point whose stored
provenance differs from the current one is stale."""
import hashlib
import os
import subprocess


def _sha256_file(path, h=None):
    h = h or hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h


def content_sha256(path):
    """SHA-256 of a file, or of every file under a directory (names and bytes, in sorted order)."""
    if os.path.isfile(path):
        return _sha256_file(path).hexdigest()
    h = hashlib.sha256()
    for d, dirs, files in os.walk(path):
        dirs.sort()
        for name in sorted(files):
            p = os.path.join(d, name)
            h.update(os.path.relpath(p, path).encode() + b"\0")
            _sha256_file(p, h)
    return h.hexdigest()


class Provenance:
    """Computes each point's provenance, running `zngsim config show` once per distinct
    (config, overrides) and hashing the binary once."""

    def __init__(self, zngsim):
        self.zngsim = zngsim
        version = subprocess.run([zngsim, "--version"], capture_output=True, text=True)
        self.binary = {"zngsim_sha256": _sha256_file(zngsim).hexdigest(),
                       "zngsim_version": version.stdout.strip()}
        self._configs, self._inputs = {}, {}

    def config_sha256(self, point):
        key = (point.config, point.set)
        if key not in self._configs:
            cmd = [self.zngsim, "config", "show", point.config_path()]
            for k, v in point.set:
                cmd += ["--set", f"{k}={v}"]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                raise RuntimeError(f"{' '.join(cmd)}: {(r.stderr or r.stdout).strip()}")
            self._configs[key] = hashlib.sha256(r.stdout.encode()).hexdigest()
        return self._configs[key]

    def of(self, point):
        p = dict(self.binary)
        p["config_sha256"] = self.config_sha256(point)
        inp = dict(point.options).get("input")
        if inp:
            if inp not in self._inputs:
                self._inputs[inp] = content_sha256(inp) if os.path.exists(inp) else "missing"
            p["input_sha256"] = self._inputs[inp]
        return p


WHAT = {"zngsim_sha256": "zngsim binary", "zngsim_version": "zngsim version",
        "config_sha256": "resolved config", "input_sha256": "input files"}


def differences(stored, current):
    """Names of what differs between two provenances ('no provenance' when none was stored)."""
    if not stored:
        return ["no provenance recorded"]
    keys = sorted(set(stored) | set(current), key=lambda k: list(WHAT).index(k) if k in WHAT else 99)
    return [WHAT.get(k, k) for k in keys if stored.get(k) != current.get(k)]
