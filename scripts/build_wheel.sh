#!/usr/bin/env bash
# Builds the Python wheel (packaging/python) into build/wheels/. scikit-build-core, from PyPI, is
# installed into a virtual environment of its own (build/wheel-venv), and builds in the build folder
# of scripts/build.sh, so only the wheel's binary is linked (target tuner_wheel: the same objects
# with an RPATH to the nvidia-cuda-nvrtc wheel's libnvrtc).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f build/CMakeCache.txt ] || scripts/build.sh
venv=build/wheel-venv
[ -x "$venv/bin/pip" ] || python3 -m venv "$venv"
"$venv/bin/pip" install -q 'scikit-build-core>=0.11'
export PATH="/usr/local/cuda/bin:$PATH"
export CMAKE_GENERATOR="Unix Makefiles"  # the generator build/ was made with
# The compiler build/ was configured with: scikit-build-core sets CXX to Python's own (g++) where
# CXX is unset, and CMake, seeing another compiler than its cache's, would empty the cache and
# rebuild every object (9 minutes instead of seconds, and the tests' objects stale after it).
CXX=$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' build/CMakeCache.txt)
[ -n "$CXX" ] || { echo "build_wheel: build/CMakeCache.txt names no CMAKE_CXX_COMPILER" >&2; exit 1; }
export CXX
if command -v ccache >/dev/null && [ -z "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ]; then
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache
fi
# Tagged for the glibc the binary needs (docs/getting-started.md): its newest GLIBC_ symbol version.
[ -x build/bin/tuner ] || cmake --build build -j "$(nproc)" --target tuner
glibc=$(objdump -T build/bin/tuner | grep -o 'GLIBC_[0-9.]*' | sort -V | tail -1 | sed 's/GLIBC_//; s/\./_/g')
# ... and for the machine the build is for (x86_64, aarch64), as CMake found it.
machine=$(sed -n 's/^set(CMAKE_SYSTEM_PROCESSOR "\(.*\)")$/\1/p' build/CMakeFiles/[0-9]*/CMakeSystem.cmake | head -1)
[ -n "$machine" ] || { echo "build_wheel: build/CMakeFiles/*/CMakeSystem.cmake names no CMAKE_SYSTEM_PROCESSOR" >&2; exit 1; }
rm -f build/wheels/cuda_tuner-*.whl
"$venv/bin/pip" wheel -q --no-build-isolation --no-deps -w build/wheels -C build-dir="$PWD/build" \
  -C wheel.tags="py3-none-manylinux_${glibc}_${machine}" packaging/python
ls build/wheels/cuda_tuner-*.whl
