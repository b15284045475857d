#!/usr/bin/python3
"""Estimates the wall time of the whole reproduction (every figure spec, one shared
point pool) from measured per-point times.

usage: experiments/estimate_runtime.py --measured ROOT [--measured ROOT]... [--preset paper] [-j N]

Each ROOT is a results root of reproduce.sh (its points/ pool holds run.json files with
wall_seconds). A point of the target preset that was measured counts its own time.
Otherwise it takes the time of the same point measured at the other preset, times the
median paper/small ratio of the points measured at both; points never measured take
the mean of the predicted ones. The sum divided by -j is the estimate (points are
single-threaded processes; the sweep keeps -j of them running).
"""
import argparse
import glob
import json
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sweeps.spec import PRESETS, SpecError, load_spec  # noqa: E402

EXPERIMENTS = os.path.dirname(os.path.abspath(__file__))


def measured_times(roots):
    """{point id: wall seconds} over every finished point of the given results roots."""
    times = {}
    for root in roots:
        for run in glob.glob(os.path.join(root, "points", "*", "run.json")):
            with open(run) as f:
                times[os.path.basename(os.path.dirname(run))] = json.load(f)["wall_seconds"]
    return times


def unique_points(preset):
    points = {}
    for path in sorted(glob.glob(os.path.join(EXPERIMENTS, "fig*.yaml")) + glob.glob(os.path.join(EXPERIMENTS, "table*.yaml"))):
        for p in load_spec(path, preset).points:
            points[p.id] = p
    return points


def at_preset(point, preset):
    opts = dict(point.options)
    opts["preset"] = preset
    return type(point)(point.config, point.workload, point.label, tuple(sorted(opts.items())), point.set)


def estimate(preset, roots, jobs):
    times = measured_times(roots)
    other = [x for x in PRESETS if x != preset][0]
    points = unique_points(preset)
    pairs = [times[p.id] / times[at_preset(p, other).id] for p in points.values()
             if p.id in times and at_preset(p, other).id in times and times[at_preset(p, other).id] > 0]
    scale = statistics.median(pairs) if pairs else None
    own, scaled, unknown, total = 0, 0, 0, 0.0
    predicted = []
    for p in points.values():
        if p.id in times:
            own += 1
            total += times[p.id]
            predicted.append(times[p.id])
        elif scale is not None and at_preset(p, other).id in times:
            scaled += 1
            t = times[at_preset(p, other).id] * scale
            total += t
            predicted.append(t)
        else:
            unknown += 1
    if not predicted:
        raise SystemExit(f"estimate: no measured point of the {preset} preset (or of {other} with a scale) in "
                         f"{', '.join(roots)}")
    total += unknown * statistics.mean(predicted)
    return {"points": len(points), "measured": own, "scaled": scaled, "unknown": unknown,
            "scale": scale, "scale_pairs": len(pairs), "cpu_seconds": total, "wall_seconds": total / jobs}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--measured", action="append", required=True, help="results root with a points/ pool")
    ap.add_argument("--preset", default="paper", choices=PRESETS)
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
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
    return 0


if __name__ == "__main__":
    sys.exit(main())
