#!/usr/bin/env bash
# Builds the libFuzzer targets (fuzz/: config, trace_reader, accelsim, macsim) with clang
# under ASan+UBSan in their own build directory, then runs each over its seeds: configs/,
# fuzz/corpus/<target>, and the real traces of ../shared/testdata packed by
# fuzz/pack_seeds.py when that directory is there.
#
# Usage: scripts/fuzz.sh [--time SECONDS | --runs N] [--timeout S] [--parallel] [--build-only] [TARGET...]
#   --time S     run each target for S seconds (default 25)
#   --runs N     run each target for N inputs instead
#   --timeout S  wall-clock seconds an input may take (default 10; raise it on a loaded
#                machine, the CPU-time limit below still holds)
#   --parallel   run the targets at the same time instead of one after another
#   --build-only configure and build, run nothing
# Environment: ZNG_FUZZ_BUILD_DIR (default build-fuzz), ZNG_SHARED_DIR (default ../shared),
#   ZNG_FUZZ_JOBS (build parallelism, default nproc), CXX_FUZZ (default clang++-14).
#
# An input that crashes, trips a sanitizer, throws anything but the loader's own error,
# uses more than 10 s of CPU time (fuzz::CpuTimeLimit) or of wall-clock time (-timeout), or
# makes the process use more than 512 MiB (-rss_limit_mb, which also caps any single
# allocation) is a finding: it is saved under
# <build>/fuzz/findings/<target>/ and the script exits 1. Inputs that reach new code are
# kept in <build>/fuzz/corpus/<target>/, so later runs start from them.
set -euo pipefail
cd "$(dirname "$0")/.."
src=$(pwd)

mode=(-max_total_time=25)
build_only=0
parallel=0
timeout=10
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --time) mode=(-max_total_time="$2"); shift 2 ;;
    --runs) mode=(-runs="$2"); shift 2 ;;
    --timeout) timeout="$2"; shift 2 ;;
    --build-only) build_only=1; shift ;;
    --parallel) parallel=1; shift ;;
    config|trace_reader|accelsim|macsim) targets+=("$1"); shift ;;
    *) echo "fuzz.sh: unknown argument '$1' (see the header of scripts/fuzz.sh)" >&2; exit 2 ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=(config trace_reader accelsim macsim)

build=${ZNG_FUZZ_BUILD_DIR:-build-fuzz}
shared=${ZNG_SHARED_DIR:-$src/../shared}
cxx=${CXX_FUZZ:-clang++-14}
launcher=()
command -v ccache > /dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

# -O2 with line tables (-g1): fast fuzzers whose reports name source lines; full debug
# information (-g) would add about 15% to the compile time.
mkdir -p "$build"
cmake -S . -B "$build" -DCMAKE_CXX_COMPILER="$cxx" -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_FLAGS=-g1 \
  -DZNG_FUZZ=ON -DZNG_BUILD_TESTS=OFF -DZNG_BUILD_BENCH=OFF \
  "${launcher[@]}" > "$build/configure.log" 2>&1 || { cat "$build/configure.log"; exit 1; }
build_targets=("${targets[@]/#/fuzz_}")
# The config target's dictionary is made from the schema, by the zngsim of this build.
[[ " ${targets[*]} " == *" config "* ]] && build_targets+=(zngsim)
cmake --build "$build" -j "${ZNG_FUZZ_JOBS:-$(nproc)}" --target "${build_targets[@]}"
[ "$build_only" -eq 0 ] || exit 0

seeds=$(mktemp -d)   # read by the fuzzers when they start only
trap 'rm -rf "$seeds"' EXIT
if [ -d "$shared/testdata" ]; then
  python3 fuzz/pack_seeds.py "$shared/testdata" "$seeds"
else
  echo "fuzz.sh: $shared/testdata not found; fuzzing from the seeds in fuzz/corpus only" >&2
fi
if [[ " ${targets[*]} " == *" config "* ]]; then
  ASAN_OPTIONS=detect_leaks=0 "$build/zngsim" config describe --format markdown |
    python3 fuzz/config_dict.py > "$build/fuzz/config.dict"
fi

# No suppressions: a leak or an undefined-behaviour report is a finding like a crash.
# The 512 MiB limit is on the whole process, so ASan's own holdings must stay small beside
# it: with its default 256 MiB quarantine of freed blocks (and freed pages kept from the
# system), a long config run passed 512 MiB after ~58 K inputs with 28 MiB live, while the
# input it stopped on peaks at 46 MiB when run alone. A 32 MiB quarantine still catches
# use-after-free of recently freed blocks; freed pages go back to the system each second.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1:quarantine_size_mb=32:allocator_release_to_os_interval_ms=1000}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

# Runs one target; prints one line on how it went; fails on a finding.
run_target() {
  local t=$1 corpus="$build/fuzz/corpus/$1" findings="$build/fuzz/findings/$1" log="$build/fuzz/$1.log"
  mkdir -p "$corpus" "$findings"
  local seed_dirs=() options=() status=0 start=$SECONDS
  [ -d "fuzz/corpus/$t" ] && seed_dirs+=("fuzz/corpus/$t")
  [ -d "$seeds/$t" ] && seed_dirs+=("$seeds/$t")
  [ "$t" = config ] && { seed_dirs+=(configs); options+=(-dict="$build/fuzz/config.dict"); }
  touch "$build/fuzz/$t.start"  # findings newer than this are this run's
  "$build/fuzz/fuzz_$t" "${mode[@]}" "${options[@]}" -rss_limit_mb=512 -timeout="$timeout" -print_final_stats=1 \
    -artifact_prefix="$findings/" "$corpus" "${seed_dirs[@]}" > "$log" 2>&1 || status=$?
  local runs
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  if [ "$status" -ne 0 ]; then
    echo "fuzz $t: FINDING after ${runs:-?} inputs, $((SECONDS - start)) s (exit $status); input in $findings/, log $log" >&2
    # libFuzzer's own errors are "==PID== ERROR: libFuzzer: ...", the sanitizers' "==PID==ERROR: ...".
    grep -E "^(==[0-9]+== ?ERROR|SUMMARY|.*unexpected exception)" "$log" | head -5 >&2 || true
    # The input itself, so that a finding on a machine whose files are gone (a CI run) can
    # be replayed: base64 -d > input; build-fuzz/fuzz/fuzz_<target> input.
    local input
    find "$findings" -type f -newer "$build/fuzz/$t.start" | while read -r input; do
      if [ "$(stat -c %s "$input")" -le 65536 ]; then
        echo "fuzz $t: $(basename "$input") in base64: $(base64 -w0 "$input")" >&2
      else
        echo "fuzz $t: $(basename "$input") is $(stat -c %s "$input") B, too large to print" >&2
      fi
    done
    return 1
  fi
  echo "fuzz $t: ${runs:-?} inputs in $((SECONDS - start)) s, no finding ($(ls "$corpus" | wc -l) inputs in the corpus)"
}

failed=()
if [ "$parallel" -eq 1 ]; then
  pids=()
  for t in "${targets[@]}"; do run_target "$t" & pids+=($!); done
  for i in "${!pids[@]}"; do wait "${pids[$i]}" || failed+=("${targets[$i]}"); done
else
  for t in "${targets[@]}"; do run_target "$t" || failed+=("$t"); done
fi
[ ${#failed[@]} -eq 0 ] || { echo "fuzz.sh: findings in ${failed[*]}" >&2; exit 1; }
