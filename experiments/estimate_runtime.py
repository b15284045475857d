#!/usr/bin/python3
"""Estimates the wall time of the whole reproduction (reproduce.sh: every spec it runs,
in its order, on one shared point pool) from measured per-point times.

usage: experiments/estimate_runtime.py --measured ROOT [--measured ROOT]... [--preset paper] [-j N]

Each ROOT is a results root of reproduce.sh: the results.csv of each sweep (as committed)
and the run.json files of its points/ pool give wall_seconds per point. A point of the
target preset that was measured counts its own time. Otherwise it takes the time of the
same point measured at the other preset, times the median paper/small ratio of the points
measured at both; points never measured take the mean of the predicted ones.

The wall time follows what reproduce.sh does: the specs run one after another, each
starting the points the pool does not hold yet, longest first (its --times), -j at a
time (each point a single-threaded process), and ending when its last point does. So
a spec adds the finish of the last of its points, list-scheduled on -j slots, not
its points' time divided by -j.
"""
import argparse
import glob
import heapq
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweeps.order import longest_first, read_times  # noqa: E402
from sweeps.spec import PRESETS, SpecError, load_spec  # noqa: E402

EXPERIMENTS = os.path.dirname(os.path.abspath(__file__))


# The specs reproduce.sh runs, in its order (its loop over these globs).
SPEC_GLOBS = ("fig*.yaml", "table*.yaml", "cam_*.yaml", "gofs_*.yaml", "streamer_*.yaml", "cachevol_*.yaml")


def measured_times(roots):
    """{point id: wall seconds} over every finished point of the given results roots."""
    times = {}
    for root in roots:
        for results in sorted(glob.glob(os.path.join(root, "*", "results.csv"))):
            times.update(read_times(results))
        for run in glob.glob(os.path.join(root, "points", "*", "run.json")):
            with open(run) as f:
                times[os.path.basename(os.path.dirname(run))] = json.load(f)["wall_seconds"]
    return times


def reproduction_specs(preset):
    """[(spec name, its points)] in the order reproduce.sh runs them."""
    specs = []
    for pattern in SPEC_GLOBS:
        for path in sorted(glob.glob(os.path.join(EXPERIMENTS, pattern))):
            specs.append((os.path.basename(path)[:-len(".yaml")], load_spec(path, preset).points))
    return specs


def makespan(durations, jobs):
    """When the last of `durations` ends, started in this order on `jobs` slots, each on
    the slot free first."""
    slots = [0.0] * max(jobs, 1)
    for d in durations:
        heapq.heapreplace(slots, slots[0] + d)
    return max(slots)


def at_preset(point, preset):
    opts = dict(point.options)
    opts["preset"] = preset
    return type(point)(point.config, point.workload, point.label, tuple(sorted(opts.items())), point.set)


def estimate(preset, roots, jobs):
    times = measured_times(roots)
    other = [x for x in PRESETS if x != preset][0]
    specs = reproduction_specs(preset)
    points = {p.id: p for _, ps in specs for p in ps}
    pairs = [times[p.id] / times[at_preset(p, other).id] for p in points.values()
             if p.id in times and at_preset(p, other).id in times and times[at_preset(p, other).id] > 0]
    scale = statistics.median(pairs) if pairs else None
    predicted, unknown = {}, []
    own = scaled = 0
    for p in points.values():
        if p.id in times:
            own += 1
            predicted[p.id] = times[p.id]
        elif scale is not None and at_preset(p, other).id in times:
            scaled += 1
            predicted[p.id] = times[at_preset(p, other).id] * scale
        else:
            unknown.append(p.id)
    if not predicted:
        raise SystemExit(f"estimate: no measured point of the {preset} preset (or of {other} with a scale) in "
                         f"{', '.join(roots)}")
    mean = statistics.mean(predicted.values())
    for i in unknown:
        predicted[i] = mean
    done, wall, per_spec = set(), 0.0, []
    for name, spec_points in specs:
        todo = []
        for p in spec_points:  # a point listed twice in a spec runs once
            if p.id not in done:
                done.add(p.id)
                todo.append(p)
        span = makespan([predicted[p.id] for p in longest_first(todo, times)], jobs)
        per_spec.append((name, len(todo), span))
        wall += span
    return {"points": len(points), "measured": own, "scaled": scaled, "unknown": len(unknown),
            "scale": scale, "scale_pairs": len(pairs), "cpu_seconds": sum(predicted.values()),
            "wall_seconds": wall, "specs": per_spec}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--measured", action="append", required=True,
                    help="results root of reproduce.sh (its sweeps' results.csv, its points/ pool)")
    ap.add_argument("--preset", default="paper", choices=PRESETS)
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--by-spec", action="store_true", help="also print each spec's new points and wall time")
    a = ap.parse_args(argv)
    try:
        e = estimate(a.preset, a.measured, a.jobs)
    except SpecError as err:
        print(f"estimate: {err}", file=sys.stderr)
        return 2
    scale = f"{e['scale']:.1f}x from {e['scale_pairs']} points run at both presets" if e["scale"] else "none"
    print(f"{a.preset} preset: {e['points']} distinct points; {e['measured']} measured, {e['scaled']} scaled from "
          f"the other preset ({scale}), {e['unknown']} at the mean; {e['cpu_seconds'] / 3600:.2f} h of point time, "
          f"about {e['wall_seconds'] / 3600:.2f} h wall with -j {a.jobs}")
    if a.by_spec:
        for name, n, span in e["specs"]:
            print(f"  {name:<28} {n:4d} points  {span / 60:7.1f} min")
    return 0


if __name__ == "__main__":
    sys.exit(main())
