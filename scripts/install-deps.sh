#!/usr/bin/env bash
# Installs the Debian packages the build and the tests need (idempotent). The CUDA toolkit (nvcc,
# NVRTC, cudart) is expected at /usr/local/cuda, as on the project's machines.
set -euo pipefail

packages=(
  build-essential cmake
  libboost-program-options-dev
  libsqlite3-dev
  nlohmann-json3-dev
  libtomlplusplus-dev
  libeigen3-dev  # the Gaussian process of --strategy bayesian (header-only)
  libgtest-dev
  zlib1g-dev
  python3   # scripts/fuzz_cli.py, whose short run is a CTest test
  xz-utils  # the stored example sweeps (bench/examples/*.jsonl.xz), read by a test and bench_search.sh
  chromium  # tests/reports/report_browser_test.cpp renders the HTML report headless
  help2man  # the man pages, made from each command's --help at build time (packaging/man_pages.cmake)
  python3-venv  # scripts/build_wheel.sh and scripts/package_smoke.sh (the Python wheel)
  slurmctld slurmd slurm-client munge  # tests/slurm/slurm_test.sh starts a single-host Slurm (docs/hpc.md)
  python3-pytest python3-numpy  # tests/python: the wheel's package, cuda_tuner (PyTorch and CuPy tests skip without them)
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  echo "install-deps: installing ${missing[*]}" >&2
  $sudo_cmd apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

if [ ! -x /usr/local/cuda/bin/nvcc ] && ! command -v nvcc >/dev/null; then
  echo "install-deps: the CUDA toolkit was not found at /usr/local/cuda; install it (tested with CUDA 13.0)" >&2
  exit 1
fi
