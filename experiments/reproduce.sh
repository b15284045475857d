#!/usr/bin/env bash
# Reproduces section V of the ZnG paper: runs every figure's sweep (experiments/fig*.yaml)
# and seed 000's (CAM), seed 001's (GoFS), seed 002's (SSDStreamer) and seed 004's (HDF5
# Cache VOL) sweeps (experiments/cam_*.yaml, gofs_*.yaml, streamer_*.yaml, cachevol_*.yaml)
# on one shared point pool, plots each figure and writes the claims report.
#
# usage: experiments/reproduce.sh [--preset paper|small] [-j N] [--results DIR] [--rerun-stale]
#   default: --preset paper, -j all cores, --results experiments/results-<preset>
#   --rerun-stale: run again the points of the pool made by another zngsim or config
#   (without it the sweeps refuse to reuse them; experiments/README.md, "Sweeps")
#
# Time on this 2-core machine: see experiments/README.md ("Run time"); estimate it for
# your own measurements with experiments/estimate_runtime.py.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=/usr/bin/python3
preset=paper
jobs=$(nproc)
results=""
stale=()
while [ $# -gt 0 ]; do
  case "$1" in
    --preset) preset="$2"; shift 2 ;;
    -j) jobs="$2"; shift 2 ;;
    --results) results="$2"; shift 2 ;;
    --rerun-stale) stale=(--rerun-stale); shift ;;
    *) echo "reproduce.sh: unknown option '$1' (known: --preset, -j, --results, --rerun-stale)" >&2; exit 2 ;;
  esac
done
case "$preset" in paper|small) ;; *) echo "reproduce.sh: --preset '$preset': expected paper or small" >&2; exit 2 ;; esac
results="${results:-experiments/results-$preset}"
zngsim="${ZNGSIM:-build/zngsim}"
if [ ! -x "$zngsim" ]; then
  echo "reproduce.sh: $zngsim not built; building it" >&2
  cmake -S . -B build >/dev/null && cmake --build build -j "$jobs" --target zngsim
fi

start=$(date +%s)
failed=()
for spec in experiments/fig*.yaml experiments/table*.yaml experiments/cam_*.yaml experiments/gofs_*.yaml \
            experiments/streamer_*.yaml experiments/cachevol_*.yaml; do
  name=$(basename "$spec" .yaml)
  echo "== sweep $name ($preset preset)"
  # Longest points first, as the committed run of this preset timed them: the sweep's
  # last points are then short ones, and a core seldom idles while one long point ends it.
  times=()
  [ -f "experiments/results-$preset/$name/results.csv" ] && times=(--times "experiments/results-$preset/$name/results.csv")
  $PY experiments/sweep.py "$spec" --preset "$preset" -j "$jobs" --zngsim "$zngsim" \
      --out "$results/$name" --points "$results/points" "${times[@]}" "${stale[@]}" || failed+=("$name")
done
for script in experiments/fig*.py experiments/table*.py; do
  $PY "$script" --results-root "$results" || failed+=("$(basename "$script" .py) (plot)")
done
reasons=()
# Why our values differ from the paper's where they do: written after analysing a run.
[ -f "experiments/reasons-$preset.yaml" ] && reasons=(--reasons "experiments/reasons-$preset.yaml")
$PY experiments/report.py --results-root "$results" "${reasons[@]}"
echo "reproduce.sh: $(( ($(date +%s) - start) / 60 )) min wall for the $preset preset; results in $results"
if [ ${#failed[@]} -gt 0 ]; then
  echo "reproduce.sh: incomplete: ${failed[*]} (see the failure lists above)" >&2
  exit 1
fi
