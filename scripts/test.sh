#!/usr/bin/env bash
# Sets zngsim up (packages + build) and runs the whole test suite. CI runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh "$@"
ctest --test-dir "${ZNG_BUILD_DIR:-build}" --output-on-failure -j "$(nproc)"
