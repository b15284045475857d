#!/usr/bin/env bash
# Sets zngsim up (packages + build) and runs the whole test suite; then a short smoke run
# of every fuzz target (scripts/fuzz.sh) and the suite again, built under AddressSanitizer
# and UndefinedBehaviorSanitizer in build-asan. CI runs exactly this.
# ZNG_CI_FUZZ_SECONDS (default 25) is the smoke's time per fuzz target; 0 skips it.
# ZNG_CI_ASAN=0 skips the sanitized suite; CXX_ASAN (default clang++-14) compiles it.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh "$@"
ctest --test-dir "${ZNG_BUILD_DIR:-build}" --output-on-failure -j "$(nproc)"

fuzz_seconds=${ZNG_CI_FUZZ_SECONDS:-25}
if [ "$fuzz_seconds" != 0 ]; then
  scripts/fuzz.sh --time "$fuzz_seconds"
fi

if [ "${ZNG_CI_ASAN:-1}" != 0 ]; then
  asan=${ZNG_ASAN_BUILD_DIR:-build-asan}
  # Release flags as the suite is normally built; -g1 gives reports source lines. Built
  # with clang (the fuzz targets' compiler, installed by setup.sh): it compiles the
  # instrumented suite in about half of GCC's time (13 against 25 min on two cores).
  ZNG_BUILD_DIR=$asan scripts/setup.sh -DCMAKE_CXX_COMPILER="${CXX_ASAN:-clang++-14}" \
    -DZNG_SANITIZE=ON -DZNG_BUILD_BENCH=OFF -DCMAKE_CXX_FLAGS=-g1
  # Every report aborts the process that makes it (a test, or a zngsim a test runs) and
  # is also written to $reports, so that a report in a subprocess whose exit status a
  # test does not look at still fails CI.
  reports=$(cd "$asan" && pwd)/sanitizer-reports
  rm -rf "$reports" && mkdir -p "$reports"
  export ASAN_OPTIONS="detect_leaks=1:abort_on_error=1:log_path=$reports/asan"
  export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:abort_on_error=1:log_path=$reports/ubsan"
  status=0
  ctest --test-dir "$asan" --output-on-failure -j "$(nproc)" || status=$?
  if [ -n "$(ls -A "$reports")" ]; then
    echo "test.sh: sanitizer reports under $reports:" >&2
    for f in "$reports"/*; do echo "== $f" >&2; cat "$f" >&2; done
    status=1
  fi
  [ "$status" -eq 0 ] || { echo "test.sh: the suite under ASan+UBSan failed" >&2; exit 1; }
  echo "test.sh: the suite under ASan+UBSan passed"
fi
