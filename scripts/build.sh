#!/usr/bin/env bash
# Installs what is missing, then configures and builds the portable release build into build/:
#   scripts/build.sh --tool   the tool alone, build/bin/tuner (scripts/quickstart.sh): no tests,
#                             no man pages, only the packages the tool needs
#   scripts/build.sh          everything: the tool, its libraries, the man pages and the test suite
set -euo pipefail
cd "$(dirname "$0")/.."
case "${1:-}" in
  --tool) scripts/install-deps.sh --tool; tests=OFF; targets=(--target tuner) ;;
  "") scripts/install-deps.sh; tests=ON; targets=() ;;
  *) echo "usage: scripts/build.sh [--tool]" >&2; exit 2 ;;
esac
export PATH="/usr/local/cuda/bin:$PATH"
# Rebuilds of several checkouts share object files when ccache is installed.
if command -v ccache >/dev/null && [ -z "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ]; then
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache
fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DTUNER_BUILD_TESTS=$tests >/dev/null
cmake --build build -j "$(nproc)" "${targets[@]}"
