#!/usr/bin/env bash
# Whole-run speed: runs the real `zngsim run` on a built-in workload (default: PageRank,
# small preset, 12.1 M warp instructions, on the ideal platform) and prints simulated
# warp instructions per wall second and peak resident memory, read from run.json.
#
#   scripts/bench_run.sh                                 # pr on configs/ideal.yaml
#   scripts/bench_run.sh --config configs/zng.yaml --workload bfs1 --repeat 3
#   scripts/bench_run.sh --preset paper -- --set gpu.l2.size=24MiB
#   scripts/bench_run.sh --benchmark-set                 # the whole-run benchmark set
#
# --benchmark-set runs the three points the README's figures come from, one after the
# other: zng on bfs1 (paper preset), hybridgpu on back (paper preset) and ideal on pr
# (small preset); --repeat applies to each. It takes a few minutes on one core.
#
# The workload's trace is written to a file first (`zngsim trace gen`), so the timed
# runs stream it: wall time and peak memory are the simulation's, not the generator's.
# Options after -- go to `zngsim run`. Uses the build in $ZNG_BUILD_DIR (default build/).
set -euo pipefail
cd "$(dirname "$0")/.."

config=configs/ideal.yaml
workload=pr
preset=small
repeat=1
benchmark_set=0
extra=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --config) config="$2"; shift 2 ;;
        --workload) workload="$2"; shift 2 ;;
        --preset) preset="$2"; shift 2 ;;
        --repeat) repeat="$2"; shift 2 ;;
        --benchmark-set) benchmark_set=1; shift ;;
        --) shift; extra=("$@"); break ;;
        -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "bench_run.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
done
[[ "$repeat" =~ ^[1-9][0-9]*$ ]] || { echo "bench_run.sh: --repeat needs a positive count" >&2; exit 2; }

zngsim="${ZNG_BUILD_DIR:-build}/zngsim"
[[ -x "$zngsim" ]] || { echo "bench_run.sh: $zngsim not built (run scripts/setup.sh)" >&2; exit 2; }
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

# A number from run.json (one "key": value pair per line).
field() { sed -n "s/^ *\"$1\": *\\([0-9.eE+-]*\\),\\{0,1\\}$/\\1/p" "$out/run/run.json"; }

# Runs `workload` at `preset` on `config` $repeat times and prints one line per run.
bench_point() {
    local config="$1" workload="$2" preset="$3"
    local msg
    if ! msg=$("$zngsim" trace gen --workload "$workload" --preset "$preset" -o "$out/trace.ztr" 2>&1); then
        echo "$msg" >&2
        exit 1
    fi
    local best=0 i instr rate wall rss
    for ((i = 1; i <= repeat; ++i)); do
        "$zngsim" run --config "$config" --trace "$out/trace.ztr" --quiet --out "$out/run" "${extra[@]}"
        instr=$(field warp_instructions)
        rate=$(field warp_instructions_per_second)
        wall=$(field wall_seconds)
        rss=$(field peak_rss_mib)
        printf '%s (%s) on %s: %d warp instructions in %.2f s wall = %.3f M warp instr/s, peak RSS %.1f MiB\n' \
            "$workload" "$preset" "$config" "$instr" "$wall" "$(awk -v r="$rate" 'BEGIN { print r / 1e6 }')" "$rss"
        best=$(awk -v a="$best" -v b="$rate" 'BEGIN { print (b > a ? b : a) }')
    done
    if ((repeat > 1)); then
        printf 'best of %d: %.3f M warp instr/s\n' "$repeat" "$(awk -v r="$best" 'BEGIN { print r / 1e6 }')"
    fi
    rm -f "$out/trace.ztr"
}

if ((benchmark_set)); then
    bench_point configs/zng.yaml bfs1 paper
    bench_point configs/hybridgpu.yaml back paper
    bench_point configs/ideal.yaml pr small
else
    bench_point "$config" "$workload" "$preset"
fi
