#!/usr/bin/env bash
# Installs what is missing, then configures and builds the portable release build into build/.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
export PATH="/usr/local/cuda/bin:$PATH"
# Rebuilds of several checkouts share object files when ccache is installed.
if command -v ccache >/dev/null && [ -z "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ]; then
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache
fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build build -j "$(nproc)"
