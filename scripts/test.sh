#!/usr/bin/env bash
# Installs, builds and runs the whole test suite. GPU tests skip themselves (and say so) where no
# GPU is usable.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
cd build
ctest --output-on-failure -j "$(nproc)" --timeout 1500
