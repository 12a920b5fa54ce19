#!/usr/bin/env bash
# Installs the Debian packages the build needs (idempotent):
#   scripts/install-deps.sh --tool   what building the tool needs (scripts/quickstart.sh)
#   scripts/install-deps.sh          that and what the tests and the packages need (scripts/test.sh)
# The CUDA toolkit (nvcc, NVRTC, cudart) is expected at /usr/local/cuda, as on the project's
# machines. Without root (and no sudo), or on a system without apt, it prints what to install.
set -euo pipefail

tool_packages=(
  build-essential cmake
  libboost-program-options-dev
  libsqlite3-dev
  nlohmann-json3-dev
  libtomlplusplus-dev
  libeigen3-dev  # the Gaussian process of --strategy bayesian (header-only)
  zlib1g-dev     # gzipped results files (tuner import)
)
test_packages=(
  libgtest-dev
  python3   # scripts/fuzz_cli.py, whose short run is a CTest test; exchange_test's Python eval
  xz-utils  # the stored example sweeps (bench/examples/*.jsonl.xz), read by a test and bench_search.sh
  chromium  # tests/reports/report_browser_test.cpp renders the HTML report headless
  help2man  # the man pages, made from each command's --help (packaging/man_pages.cmake); install_test checks them
  python3-venv  # scripts/build_wheel.sh and scripts/package_smoke.sh (the Python wheel)
  slurmctld slurmd slurm-client munge  # tests/slurm/slurm_test.sh starts a single-host Slurm (docs/hpc.md)
  python3-pytest python3-numpy  # tests/python: the wheel's package, cuda_tuner (PyTorch and CuPy tests skip without them)
)

case "${1:-}" in
  --tool) packages=("${tool_packages[@]}") ;;
  "") packages=("${tool_packages[@]}" "${test_packages[@]}") ;;
  *) echo "usage: scripts/install-deps.sh [--tool]" >&2; exit 2 ;;
esac

cuda_check() {
  if [ ! -x /usr/local/cuda/bin/nvcc ] && ! command -v nvcc >/dev/null; then
    echo "install-deps: the CUDA toolkit was not found at /usr/local/cuda; install it (tested with CUDA 13.0):" \
      "https://developer.nvidia.com/cuda-downloads" >&2
    exit 1
  fi
}

if ! command -v dpkg-query >/dev/null || ! command -v apt-get >/dev/null; then
  # Not Debian or Ubuntu: nothing is installed, the configure step names what it cannot find.
  echo "install-deps: no apt here; install the equivalents of: ${packages[*]}" >&2
  echo "install-deps: on RHEL, Rocky or Alma: dnf install gcc-c++ make cmake boost-devel sqlite-devel zlib-devel," \
    "and from EPEL json-devel eigen3-devel tomlplusplus-devel; then build with -DTUNER_PORTABLE=OFF" \
    "(docs/getting-started.md, \"Building on RHEL-family clusters\")" >&2
  cuda_check
  exit 0
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then
    if ! command -v sudo >/dev/null; then
      echo "install-deps: these packages are missing and installing them needs root:" >&2
      echo "  apt-get install --no-install-recommends ${missing[*]}" >&2
      echo "install-deps: run that as root (or ask your administrator), then run this script again" >&2
      exit 1
    fi
    sudo_cmd=(sudo)
  fi
  echo "install-deps: installing ${missing[*]}" >&2
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi
cuda_check
