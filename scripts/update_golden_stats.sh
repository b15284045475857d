#!/usr/bin/env bash
# Rewrites the golden statistics (tests/e2e/golden/*.json) from the points listed in
# tests/e2e/golden/points.txt, with the zngsim of the build directory. Run it only for a
# change meant to change results, and commit the files in a commit of their own saying why.
# usage: scripts/update_golden_stats.sh [build dir, default build]
set -euo pipefail
cd "$(dirname "$0")/.."
zngsim="${1:-build}/zngsim"
[ -x "$zngsim" ] || { echo "update_golden_stats: $zngsim not built" >&2; exit 2; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
grep -v '^#' tests/e2e/golden/points.txt | while read -r config workload; do
  [ -n "$config" ] || continue
  ZNGSIM_CACHE="$out/cache" "$zngsim" run --config "configs/$config.yaml" --workload "$workload" -q \
      --out "$out/$config-$workload"
  # The version names the build, not the model: left out so that only statistics compare.
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d.pop("zngsim_version", None); json.dump(d, open(sys.argv[2], "w"), indent=1, sort_keys=False); open(sys.argv[2], "a").write("\n")' \
      "$out/$config-$workload/stats.json" "tests/e2e/golden/${config}__${workload}.json"
  echo "golden: ${config}__${workload}.json"
done
