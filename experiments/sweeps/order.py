"""The order a sweep starts its points in: longest first, from the times an earlier
run of the same points took (its results.csv: columns point and wall_seconds).

A sweep keeps -j points running; it ends when its last point does. Started in spec
order, a long point started last leaves the other slots idle while it runs; started
longest first, the points that end the sweep are the short ones (the longest-processing-
time rule). Points the file does not name take the mean of the sweep's points it does
name; equal times keep spec order. Point ids name what a point computes, not the
binary, so the times of a run with an older zngsim still rank the points.
"""
import csv
import math

from .spec import SpecError


def read_times(path):
    """{point id: wall seconds} from a results.csv; a clear error naming the file, the
    line and the column for anything else."""
    try:
        f = open(path, newline="")
    except OSError as e:
        raise SpecError(f"--times {path}: {e.strerror}")
    with f:
        reader = csv.DictReader(f)
        missing = [c for c in ("point", "wall_seconds") if c not in (reader.fieldnames or [])]
        if missing:
            raise SpecError(f"--times {path}: line 1: no column {', '.join(missing)} (a sweep's results.csv has both)")
        times = {}
        for row in reader:
            try:
                w = float(row["wall_seconds"])
            except (TypeError, ValueError):
                w = math.nan
            if not math.isfinite(w) or w < 0:
                raise SpecError(f"--times {path}: line {reader.line_num}: wall_seconds '{row['wall_seconds']}' "
                                "is not a number of seconds")
            times[row["point"]] = w
    return times


def longest_first(points, times):
    """`points` in the order to start them (a new list; sorted is stable)."""
    known = [times[p.id] for p in points if p.id in times]
    mean = sum(known) / len(known) if known else 0.0
    return sorted(points, key=lambda p: -times.get(p.id, mean))
