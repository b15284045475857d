#!/usr/bin/python3
"""Runs a zngsim sweep: every point of a spec as its own `zngsim run`, in parallel.

usage: experiments/sweep.py SPEC.yaml [-j N] [--out DIR] [--points DIR] [--preset small|paper]
                            [--zngsim PATH] [--times CSV] [--dry-run] [--no-validate] [--rerun-stale] [--yes]
                            [--executor local|slurm] [--slurm-partition P] [--slurm-account A]
                            [--slurm-time T] [--slurm-mem M] [--slurm-poll SECONDS]

Results go to DIR/points/<point-id>/ (stats.json, run.json, log.txt, point.json; or
to a pool shared by several sweeps with --points), DIR/results.csv (one row per
finished point; rewritten after each one) and DIR/stats.csv (every statistic and
config value of each point as a column; written at the end, see collect.py). A finished
point is skipped on a re-run, so an interrupted sweep loses only the points that were
in flight, but only while it is what the same zngsim binary, resolved config and input
files would make now (sweeps/provenance.py): a finished point made otherwise is stale,
and the sweep refuses to run (naming the points and what differs) unless --rerun-stale
asks to run them again. A failing point does not stop the others; failures are listed
at the end with their logs. Points start in spec order, or longest first by the times
of an earlier run with --times (sweeps/order.py). Points run as child processes
(--executor local) or as Slurm job arrays (--executor slurm; sweeps/executors.py), which
needs the points pool on a file system the compute nodes share. Exit status: 0 every
point finished, 1 some failed, 2 bad spec or option (or the scheduler refused the jobs
or stopped answering), 130 interrupted.
"""
import argparse
import fcntl
import json
import os
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweeps.executors import (SLURM_OPTIONS, ExecutorError, Job, LocalExecutor, SlurmExecutor,  # noqa: E402
                              slurm_option_error)
from sweeps.provenance import Provenance, differences  # noqa: E402
from sweeps.spec import MAX_POINTS, ROOT, WORKLOAD_OPTIONS, SpecError, load_spec  # noqa: E402
from sweeps.flat import point_row, write_csv  # noqa: E402
from sweeps.order import longest_first, read_times  # noqa: E402
from sweeps.series import write_series  # noqa: E402
from sweeps.store import ResultsTable, Store  # noqa: E402


def default_zngsim():
    """$ZNGSIM, else the source tree's build/zngsim, else (in an installed tree, where
    ROOT is PREFIX/share/zngsim) PREFIX/bin/zngsim."""
    if os.environ.get("ZNGSIM"):
        return os.environ["ZNGSIM"]
    built = os.path.join(ROOT, "build", "zngsim")
    installed = os.path.normpath(os.path.join(ROOT, "..", "..", "bin", "zngsim"))
    return installed if not os.path.exists(built) and os.path.exists(installed) else built


def fmt_duration(s):
    s = int(round(s))
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s // 3600}h{s % 3600 // 60:02d}m"


def check_workloads(spec, zngsim):
    """Every workload of the spec (a name, or co-running names joined by ',' or '-') is
    one `zngsim workloads` lists, and every option of a point that is not a zngsim
    workload option is an option that one of its workloads' programs declares, inside
    its range: a misspelt name or option fails before any point runs."""
    r = subprocess.run([zngsim, "workloads", "--json"], capture_output=True, text=True)
    if r.returncode != 0:
        raise SpecError(f"{zngsim} workloads --json: {(r.stderr or r.stdout).strip()}")
    catalogue = {w["name"]: w for w in json.loads(r.stdout)}
    for p in spec.points:
        names = p.workload.replace("-", ",").split(",")
        # With a user's input graph the name picks the algorithm, checked by zngsim.
        if not dict(p.options).get("input"):
            for name in names:
                if name not in catalogue:
                    raise SpecError(f"{spec.path}: workload '{p.workload}': unknown workload '{name}' "
                                    f"(known: {', '.join(sorted(catalogue))})")
        for k, v in p.options:
            if k in WORKLOAD_OPTIONS:
                continue
            declared = [o for n in names for o in catalogue.get(n, {}).get("program_options", []) if o["name"] == k]
            if not declared:
                theirs = "; ".join(f"{n}: " + (", ".join(o["name"] for o in catalogue.get(n, {}).get(
                    "program_options", [])) or "none") for n in names)
                raise SpecError(f"{spec.path}: workload '{p.workload}': option '{k}' is neither a workload option "
                                f"({', '.join(WORKLOAD_OPTIONS)}) nor an option of its program ({theirs})")
            lo, hi = declared[0]["min"], declared[0]["max"]
            if not lo <= v <= hi:
                raise SpecError(f"{spec.path}: workload '{p.workload}': option '{k}': {v} is outside {lo}..{hi}")


def validate_configs(spec, zngsim):
    """Checks each distinct (config, overrides) once with `zngsim config validate`, so
    a misspelt --set key fails the sweep before hundreds of points fail one by one."""
    seen = set()
    for p in spec.points:
        key = (p.config, p.set)
        if key in seen:
            continue
        seen.add(key)
        cmd = [zngsim, "config", "validate", p.config_path()]
        for k, v in p.set:
            cmd += ["--set", f"{k}={v}"]
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode != 0:
            msg = (r.stderr or r.stdout).strip()
            where = f"{p.config}" + "".join(f" --set {k}={v}" for k, v in p.set)
            raise SpecError(f"{spec.path}: point {p.id}: {where}: {msg}")


def stat_paths(tree, prefix=""):
    """Every dotted path of a stats tree, leaves and groups."""
    out = set()
    for k, v in tree.items():
        path = f"{prefix}.{k}" if prefix else k
        out.add(path)
        if isinstance(v, dict):
            out |= stat_paths(v, path)
    return out


def check_metrics(spec, zngsim):
    """Every metric the spec names is a statistic some of its configs write: each
    distinct (config, overrides) runs a tiny workload (deg, small preset, well under a
    second) and the names are looked up in its stats.json, so a misspelt metric fails
    before the sweep instead of becoming an empty column. A statistic only some
    platforms write (a policy's, a back end's) is fine."""
    probe = "deg"
    known, seen = set(), set()
    with tempfile.TemporaryDirectory(prefix="zng-sweep-probe-") as tmp:
        for p in spec.points:
            key = (p.config, p.set)
            if key in seen:
                continue
            seen.add(key)
            out = os.path.join(tmp, str(len(seen)))
            cmd = [zngsim, "run", "--config", p.config_path(), "--workload", probe, "--preset", "small",
                   "--quiet", "--out", out]
            for k, v in p.set:
                cmd += ["--set", f"{k}={v}"]
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                where = f"{p.config}" + "".join(f" --set {k}={v}" for k, v in p.set)
                raise SpecError(f"{spec.path}: {where}: a probe run of {probe} failed: "
                                f"{(r.stderr or r.stdout).strip()}")
            with open(os.path.join(out, "stats.json")) as f:
                known |= stat_paths(json.load(f).get("stats", {}))
    for section, metrics in (("metrics", spec.metrics), ("app_metrics", spec.app_metrics)):
        for col, stat in metrics.items():
            if stat.replace("{app}", probe) not in known:
                raise SpecError(f"{spec.path}: {section}.{col}: no platform of this spec writes the statistic "
                                f"'{stat}'")


class Progress:
    """One line per ended point: done/total, elapsed and an ETA from this run's rate."""

    def __init__(self, total, already):
        self.total, self.done, self.start, self.ran = total, already, time.monotonic(), 0

    def ended(self, point, ok, reason, wall, in_flight):
        self.done += 1
        self.ran += 1
        elapsed = time.monotonic() - self.start
        left = self.total - self.done
        eta = elapsed / self.ran * left if left else 0.0
        status = f"ok in {fmt_duration(wall)}" if ok else f"FAILED ({reason})"
        print(f"[{self.done}/{self.total}] {point.id}: {status}; {in_flight} running, "
              f"elapsed {fmt_duration(elapsed)}, ETA {fmt_duration(eta)}", flush=True)


def lock_points(points_dir):
    """Two sweeps writing one point pool would redo and clobber each other's points."""
    f = open(os.path.join(points_dir, ".sweep.lock"), "w")
    try:
        fcntl.flock(f, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise SpecError(f"{points_dir}: another sweep is running on these points")
    return f


def run_sweep(spec, out, zngsim, executor, validate=True, dry_run=False, points_dir=None, rerun_stale=False,
              times=None):
    store = Store(out, points_dir)
    lock = lock_points(store.points_dir)
    try:
        return _run_locked(spec, store, zngsim, executor, validate, dry_run, rerun_stale, times)
    finally:
        lock.close()


def check_stale(spec, store, provenance, rerun_stale):
    """Finished points made by another binary, config or input are never reused
    silently: refused with the list, or discarded with --rerun-stale."""
    stale = []
    for p in spec.points:
        if store.is_done(p):
            what = differences(store.stored_provenance(p), provenance[p.id])
            if what:
                stale.append((p, what))
    if stale and not rerun_stale:
        listed = "\n".join(f"  {p.id}: {', '.join(what)} differs" for p, what in stale[:10])
        more = f"\n  ... and {len(stale) - 10} more" if len(stale) > 10 else ""
        raise SpecError(f"{store.points_dir}: {len(stale)} finished point(s) were made from another zngsim "
                        f"binary, config or input than this sweep would use:\n{listed}{more}\n"
                        "run them again with --rerun-stale, or give a fresh --points directory")
    for p, what in stale:
        store.discard(p)
    if stale:
        print(f"re-running {len(stale)} stale point(s) ({', '.join(sorted({w for _, ws in stale for w in ws}))} "
              "differs)", flush=True)


def _run_locked(spec, store, zngsim, executor, validate, dry_run, rerun_stale=False, times=None):
    table = ResultsTable(store, spec)
    executor.reclaim(store.points_dir)   # jobs of a killed sweep stop before their directories go
    left_over = store.remove_leftovers()
    if left_over:
        print(f"removed {len(left_over)} unfinished point(s) of an interrupted sweep", flush=True)
    provenance = {p.id: {} for p in spec.points}
    if not (dry_run and not os.access(zngsim, os.X_OK)):  # a dry run may list commands without a binary
        try:
            prov = Provenance(zngsim)
            provenance = {p.id: prov.of(p) for p in spec.points}
        except (OSError, RuntimeError) as e:
            raise SpecError(f"{spec.path}: cannot establish what the points are made from: {e}")
        check_stale(spec, store, provenance, rerun_stale)
    todo = [p for p in spec.points if not store.is_done(p)]
    if times is not None:
        todo = longest_first(todo, times)
    for p in spec.points:
        if store.is_done(p):
            table.add(p)
    print(f"sweep {spec.name}: {len(spec.points)} points, {len(spec.points) - len(todo)} already done, "
          f"{len(todo)} to run -> {store.out}", flush=True)
    if dry_run:
        for p in todo:
            print(" ".join(p.command(zngsim, store.running_dir(p))))
        return 0
    if todo and validate:
        check_workloads(spec, zngsim)
        validate_configs(spec, zngsim)
        check_metrics(spec, zngsim)

    progress = Progress(len(spec.points), len(spec.points) - len(todo))
    failures, queue, started = [], list(todo), {}
    try:
        while queue or executor.in_flight:
            while queue and executor.free_slots() > 0:
                p = queue.pop(0)
                d = store.running_dir(p)
                cmd = p.command(zngsim, d)
                store.prepare(p, cmd, provenance[p.id])
                executor.submit(Job(p, cmd, d, os.path.join(d, "log.txt")))
                started[p.id] = time.monotonic()
            for job, rc in executor.wait():
                p = job.point
                ok, d, reason = store.finish(p, rc)
                if ok:
                    table.add(p)
                    table.write()
                else:
                    failures.append((p, os.path.join(d, "log.txt"), reason))
                progress.ended(p, ok, reason, time.monotonic() - started.pop(p.id), executor.in_flight)
    except (KeyboardInterrupt, ExecutorError) as e:
        try:
            executor.cancel()
        except ExecutorError as e2:
            print(f"sweep: cannot cancel the points in flight: {e2}", file=sys.stderr)
        store.remove_leftovers()
        path, rows = table.write()
        write_stats_table(spec, store)
        why = "interrupted" if isinstance(e, KeyboardInterrupt) else f"stopped: {e}"
        print(f"\nsweep {spec.name}: {why}; {rows}/{len(spec.points)} points finished in {path}",
              file=sys.stderr)
        return 130 if isinstance(e, KeyboardInterrupt) else 2

    path, rows = table.write()
    write_stats_table(spec, store)
    print(f"sweep {spec.name}: {rows}/{len(spec.points)} points in {path}", flush=True)
    if failures:
        print(f"{len(failures)} point(s) failed:")
        for p, log, reason in failures:
            print(f"  {p.id} ({reason}): {log}")
        return 1
    return 0


# Longest interval between two queries of a cluster's job states: often enough for
# points of minutes, rare enough not to load the controller.
SLURM_POLL = 30.0


def make_executor(a, spec):
    """The engine --executor names; Slurm options from the command line override the spec's."""
    if a.executor == "local":
        return LocalExecutor(a.jobs or os.cpu_count() or 1)
    opts = dict(spec.slurm)
    for k in SLURM_OPTIONS:
        v = getattr(a, f"slurm_{k}")
        if v is not None:
            err = slurm_option_error(k, v)
            if err:
                raise SpecError(f"--slurm-{k}: {err}")
            opts[k] = v
    poll = SLURM_POLL if a.slurm_poll is None else a.slurm_poll
    if not poll > 0:
        raise SpecError(f"--slurm-poll {poll}: expected a positive number of seconds")
    return SlurmExecutor(partition=opts.get("partition"), account=opts.get("account"),
                         time_limit=opts.get("time"), mem=opts.get("mem"), max_in_flight=a.jobs,
                         poll=poll, job_name=f"zngsim-{spec.name}")


def write_stats_table(spec, store):
    """OUT/stats.csv: every scalar statistic, config value and coordinate of each
    finished point of the sweep, in spec order (sweeps/flat.py; collect.py loads it);
    OUT/series.csv too when the spec has a `series` key (sweeps/series.py)."""
    finished = [p for p in spec.points if store.is_done(p)]
    if spec.series:
        write_series([(p.id, p.label, p.workload, store.final_dir(p)) for p in finished], spec.series,
                     os.path.join(store.out, "series.csv"))
    return write_csv([point_row(store.final_dir(p), store.out) for p in finished],
                     os.path.join(store.out, "stats.csv"))


def stop_on_sigterm(signum, frame):
    """SIGTERM (a scheduler, `kill`) stops the sweep like Ctrl-C: children killed, CSV written."""
    raise KeyboardInterrupt


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("spec", help="sweep spec (YAML)")
    ap.add_argument("-j", "--jobs", type=int,
                    help=f"points run at once (default: local all cores, {os.cpu_count() or 1}; "
                         f"slurm {SlurmExecutor.MAX_ARRAY} in the queue)")
    ap.add_argument("--out", help="results directory (default: experiments/results/<spec name>)")
    ap.add_argument("--points", help="point directory pool, may be shared by several sweeps (default: OUT/points)")
    ap.add_argument("--preset", help="workload preset for every point (small|paper), overriding the spec")
    ap.add_argument("--zngsim", default=default_zngsim(), help="zngsim binary (default: $ZNGSIM, else build/zngsim, else the installed bin/zngsim)")
    ap.add_argument("--times", metavar="CSV",
                    help="results.csv of an earlier run of these points: start them longest first (default: spec order)")
    ap.add_argument("--dry-run", action="store_true", help="print the commands of the points still to run")
    ap.add_argument("--no-validate", action="store_true", help="skip `zngsim config validate` of each config")
    ap.add_argument("--yes", action="store_true",
                    help=f"run a product of more than {MAX_POINTS:,} points (refused without it)")
    ap.add_argument("--rerun-stale", action="store_true",
                    help="run again the finished points made from another zngsim binary, config or input")
    ap.add_argument("--executor", choices=("local", "slurm"), default="local",
                    help="where points run: child processes here, or Slurm job arrays (default: %(default)s)")
    for k, what in SLURM_OPTIONS.items():
        ap.add_argument(f"--slurm-{k}", metavar=k.upper(), help=f"{what}; overrides the spec's slurm.{k}")
    ap.add_argument("--slurm-poll", type=float, metavar="SECONDS",
                    help=f"longest interval between two queries of the jobs' states (default: {SLURM_POLL:g})")
    a = ap.parse_args(argv)
    signal.signal(signal.SIGTERM, stop_on_sigterm)
    try:
        if a.jobs is not None and a.jobs < 1:
            raise SpecError(f"-j {a.jobs}: expected at least 1")
        given = [f"--slurm-{k}" for k in (*SLURM_OPTIONS, "poll") if getattr(a, f"slurm_{k}") is not None]
        if a.executor != "slurm" and given:
            raise SpecError(f"{', '.join(given)}: only with --executor slurm")
        spec = load_spec(a.spec, a.preset, max_points=None if a.yes else MAX_POINTS)
        times = read_times(a.times) if a.times else None
        if not a.dry_run and not (os.path.isfile(a.zngsim) and os.access(a.zngsim, os.X_OK)):
            raise SpecError(f"--zngsim {a.zngsim}: no such executable (build it: cmake --build build)")
        # Absolute, so that a point's command means the same on a compute node.
        out = os.path.abspath(a.out or os.path.join(ROOT, "experiments", "results", spec.name))
        points_dir = os.path.abspath(a.points) if a.points else None
        executor = make_executor(a, spec)
        if not a.dry_run:
            executor.check()
        return run_sweep(spec, out, os.path.abspath(a.zngsim), executor,
                         validate=not a.no_validate, dry_run=a.dry_run, points_dir=points_dir,
                         rerun_stale=a.rerun_stale, times=times)
    except (SpecError, ExecutorError) as e:
        print(f"sweep: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
