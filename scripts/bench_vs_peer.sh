#!/usr/bin/env bash
# Whole-process speed against another simulator on the same instruction stream: runs one
# MacSim or Accel-Sim trace on the peer binary you give and the same trace on zngsim
# (which imports it: `zngsim run --trace-format macsim|accelsim --trace ...`), one after
# the other, N times, and prints each one's median wall time, its largest peak resident
# memory (/usr/bin/time -v) and the ratio of the medians (peer / zngsim: how many times
# faster zngsim is).
#
#   scripts/bench_vs_peer.sh --macsim BIN TRACE_DIR      # TRACE_DIR holds kernel_config.txt
#   scripts/bench_vs_peer.sh --accelsim BIN TRACE        # TRACE: kernelslist.g or its folder
#   options: --repeat N (default 3)  --config FILE (zngsim platform, default configs/ideal.yaml)
#            --zngsim BIN (default $ZNG_BUILD_DIR/zngsim, else build/zngsim)
#            --peer-file FILE (copied into the peer's working folder; repeatable)
#            -- ARGS...  (passed to the peer after the arguments below)
#
# Each peer run starts in a fresh working folder. MacSim reads its trace list there: the
# script writes `trace_file_list` (one application: TRACE_DIR/kernel_config.txt); give
# MacSim's `params.in` with --peer-file. Accel-Sim is run as `BIN -trace KERNELSLIST
# ARGS...` (give its -config files after --). Runs alternate (peer, zngsim, peer, ...)
# so that a change of machine load falls on both. Nothing of the peers is kept here.
set -euo pipefail
cd "$(dirname "$0")/.."

usage_error() {
    echo "bench_vs_peer.sh: $*" >&2
    exit 2
}

kind=""
peer=""
trace=""
repeat=3
config=configs/ideal.yaml
zngsim="${ZNG_BUILD_DIR:-build}/zngsim"
peer_files=()
peer_args=()
while [[ $# -gt 0 ]]; do
    case "$1" in
        --macsim | --accelsim)
            [[ -z "$kind" ]] || usage_error "give one of --macsim and --accelsim, not both"
            kind="${1#--}"
            [[ $# -ge 3 && "$2" != --* && "$3" != --* ]] || usage_error "$1 needs BIN and a trace (see --help)"
            peer="$2"
            trace="$3"
            shift 3
            ;;
        --repeat)
            [[ $# -ge 2 && "$2" =~ ^[1-9][0-9]*$ ]] || usage_error "--repeat needs a positive count"
            repeat="$2"
            shift 2
            ;;
        --config)
            [[ $# -ge 2 && -f "$2" ]] || usage_error "--config needs a platform file that exists"
            config="$2"
            shift 2
            ;;
        --zngsim)
            [[ $# -ge 2 && -x "$2" && -f "$2" ]] || usage_error "--zngsim needs an executable zngsim"
            zngsim="$2"
            shift 2
            ;;
        --peer-file)
            [[ $# -ge 2 && -f "$2" ]] || usage_error "--peer-file needs a file that exists"
            peer_files+=("$(realpath "$2")")
            shift 2
            ;;
        --)
            shift
            peer_args=("$@")
            break
            ;;
        -h | --help)
            sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'
            exit 0
            ;;
        *) usage_error "unknown option '$1' (see --help)" ;;
    esac
done

[[ -n "$kind" ]] || usage_error "one of --macsim BIN TRACE_DIR or --accelsim BIN TRACE is required"
[[ -f "$peer" && -x "$peer" ]] || usage_error "--$kind: '$peer' is not an executable file"
peer="$(realpath "$peer")"
if [[ "$kind" == macsim ]]; then
    [[ -f "$trace/kernel_config.txt" ]] || usage_error "--macsim: '$trace' holds no kernel_config.txt"
    trace="$(realpath "$trace")"
else
    [[ -d "$trace" ]] && trace="$trace/kernelslist.g"
    [[ -f "$trace" ]] || usage_error "--accelsim: '$trace' is not a kernelslist.g (or a folder holding one)"
    trace="$(realpath "$trace")"
fi
[[ -x "$zngsim" ]] || usage_error "$zngsim not built (run scripts/setup.sh, or give --zngsim)"
[[ -x /usr/bin/time ]] || usage_error "/usr/bin/time (GNU time) is needed for peak memory (apt-get install time)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# Runs "$@" in folder $1 (the rest: the command) under /usr/bin/time -v; appends its wall
# seconds to $work/$name.wall and its peak RSS (KiB) to $work/$name.rss. A failing run
# stops the comparison: a crashed or refused run has no meaningful time.
timed() {
    local name="$1" dir="$2"
    shift 2
    local start end rc=0
    start=$(date +%s%N)
    (cd "$dir" && /usr/bin/time -v -o "$work/time.txt" "$@" >"$work/$name.log" 2>&1) || rc=$?
    end=$(date +%s%N)
    if ((rc != 0)); then
        echo "bench_vs_peer.sh: the $name run failed (exit $rc): $*" >&2
        tail -n 20 "$work/$name.log" >&2
        exit 1
    fi
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.6f\n", (b - a) / 1e9 }' >>"$work/$name.wall"
    sed -n 's/^[[:space:]]*Maximum resident set size (kbytes): *\([0-9]*\)$/\1/p' "$work/time.txt" >>"$work/$name.rss"
}

median() { sort -g "$1" | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
largest() { sort -g "$1" | tail -n 1; }

for ((i = 1; i <= repeat; ++i)); do
    run_dir="$work/peer-run-$i"
    mkdir -p "$run_dir"
    for f in "${peer_files[@]+"${peer_files[@]}"}"; do cp "$f" "$run_dir/"; done
    if [[ "$kind" == macsim ]]; then
        printf '1\n%s\n' "$trace/kernel_config.txt" >"$run_dir/trace_file_list"
        timed peer "$run_dir" "$peer" "${peer_args[@]+"${peer_args[@]}"}"
    else
        timed peer "$run_dir" "$peer" -trace "$trace" "${peer_args[@]+"${peer_args[@]}"}"
    fi
    timed zngsim "$PWD" "$zngsim" run --config "$config" --trace-format "$kind" --trace "$trace" --quiet \
        --out "$work/zngsim-out"
done

peer_wall=$(median "$work/peer.wall")
zng_wall=$(median "$work/zngsim.wall")
peer_rss=$(largest "$work/peer.rss")
zng_rss=$(largest "$work/zngsim.rss")
printf '%s (%s): median %.4f s wall of %d runs, peak RSS %.1f MiB\n' "$kind" "$peer" "$peer_wall" "$repeat" \
    "$(awk -v k="$peer_rss" 'BEGIN { print k / 1024 }')"
printf 'zngsim (%s): median %.4f s wall of %d runs, peak RSS %.1f MiB\n' "$config" "$zng_wall" "$repeat" \
    "$(awk -v k="$zng_rss" 'BEGIN { print k / 1024 }')"
printf 'ratio %s / zngsim: %.2fx\n' "$kind" "$(awk -v a="$peer_wall" -v b="$zng_wall" 'BEGIN { print a / b }')"
