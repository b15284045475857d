#!/usr/bin/env bash
# Sets zngsim up on a Debian 12 machine: installs the Debian packages that are missing
# (apt-get, through sudo when not root), then configures and builds in ./build (Release).
# Usage: scripts/setup.sh [extra cmake arguments]    e.g. -DZNG_SANITIZE=ON
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(
  build-essential cmake pkg-config git
  libyaml-cpp-dev libfmt-dev libboost-program-options-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  libzstd-dev liblzma-dev zlib1g-dev nlohmann-json3-dev libdivide-dev libxxhash-dev libdeflate-dev
  python3 python3-matplotlib python3-yaml python3-pandas
  # The sweep's Slurm executor is tested against a private single-node Slurm
  # (tests/experiments/slurm_local_cluster.sh); without these that test is skipped.
  slurm-wlm munge
  clang-14 libclang-rt-14-dev libfuzzer-14-dev   # the fuzz targets (scripts/fuzz.sh), run by CI
)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

build_dir=${ZNG_BUILD_DIR:-build}
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release "$@" > "$build_dir.configure.log" 2>&1 || {
  cat "$build_dir.configure.log"; exit 1; }
cmake --build "$build_dir" -j "$(nproc)"
echo "setup: built $build_dir/zngsim"
