#!/usr/bin/env bash
# Downloads the wheels of bench/kernel_tuner_wheels.txt (Kernel Tuner 1.5.0 and the pure-Python and
# compiled packages it imports for the CuPy backend and brute force) into .whl, where the network
# is, for an offline GPU node: bench/bench_sweep_speed.sh installs them there with
# `pip install --no-index --no-deps --target DIR` when kernel_tuner is not importable.
#
#   bench/fetch_kernel_tuner_wheels.sh [--python-version 3.12] [--dest .whl]
# The version is the GPU node's Python (the compiled wheels are built for one version).
set -euo pipefail
source "$(dirname "$0")/bench_common.sh"
bench_init fetch_kernel_tuner_wheels "$@"
python_version=3.12 dest=.whl
while (($#)); do
  case "$1" in
    --python-version) python_version=${2:?}; shift 2 ;;
    --dest) dest=${2:?}; shift 2 ;;
    -h|--help) bench_help; exit 0 ;;
    *) bench_usage "unknown argument '$1'" ;;
  esac
done
[[ "$python_version" =~ ^3\.[0-9]+$ ]] || bench_usage "--python-version '$python_version': expected e.g. 3.12"
mkdir -p "$dest"
python3 -m pip download --quiet --no-deps --only-binary=:all: --python-version "$python_version" \
  --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 --platform manylinux_2_28_x86_64 \
  --platform any -d "$dest" -r bench/kernel_tuner_wheels.txt || bench_die "pip download failed"
echo "$(ls "$dest"/*.whl | wc -l) wheels, $(du -sh "$dest" | cut -f1) in $dest:"
ls "$dest"
