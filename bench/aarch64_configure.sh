#!/usr/bin/env bash
# The aarch64 check of the CMake logic, on an x86_64 Debian machine: configures the tool for
# aarch64 with Debian's cross compiler and Debian's arm64 libraries, and prints what it found.
# The arm64 packages are downloaded into a scratch folder and unpacked there (dpkg-deb -x), so
# nothing is installed on the machine but the cross compiler. A configure only: the CUDA toolkit
# for aarch64 is not here, so nothing that needs CUDA is compiled.
#   bench/aarch64_configure.sh [SCRATCH]   (default: a new folder under /tmp, removed after)
set -euo pipefail
case "${1:-}" in
  -h | --help) sed -n '2,7s/^# \{0,1\}//p' "$0"; exit 0 ;;
  -*) echo "aarch64_configure: unknown option $1 (see --help)" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/.."
command -v aarch64-linux-gnu-g++ >/dev/null ||
  { echo "aarch64_configure: install the cross compiler first: apt-get install g++-aarch64-linux-gnu" >&2; exit 1; }
scratch=${1:-$(mktemp -d)}
[ -n "${1:-}" ] || trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/state/lists/partial" "$scratch/cache/archives/partial" "$scratch/debs" "$scratch/root"
touch "$scratch/state/status"
apt_options=(-o "Dir::State=$scratch/state" -o "Dir::Cache=$scratch/cache" -o "Dir::State::status=$scratch/state/status"
  -o APT::Architecture=arm64 -o APT::Architectures::=arm64 -o APT::Sandbox::User=root)
apt-get "${apt_options[@]}" update -qq
(cd "$scratch/debs" && apt-get "${apt_options[@]}" download -qq libsqlite3-dev:arm64 libboost1.74-dev:arm64 \
  libboost-program-options1.74-dev:arm64 zlib1g-dev:arm64 2>/dev/null)
for deb in "$scratch"/debs/*.deb; do dpkg-deb -x "$deb" "$scratch/root"; done
cat >"$scratch/aarch64.cmake" <<TOOLCHAIN
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_FIND_ROOT_PATH $scratch/root)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
TOOLCHAIN
PATH="/usr/local/cuda/bin:$PATH" cmake -S . -B "$scratch/build" -DCMAKE_TOOLCHAIN_FILE="$scratch/aarch64.cmake" \
  -DTUNER_BUILD_TESTS=OFF >"$scratch/configure.log" 2>&1 || { cat "$scratch/configure.log" >&2; exit 1; }
echo "aarch64_configure: configured; the static libraries and package names it chose:"
grep -E '^(SQLite3_LIBRARY|TUNER_ZLIB_ARCHIVE|Boost_PROGRAM_OPTIONS_LIBRARY_RELEASE)[:=]' "$scratch/build/CMakeCache.txt"
grep -E 'CPACK_PACKAGE_FILE_NAME|CPACK_DEBIAN_PACKAGE_ARCHITECTURE' "$scratch/build/CPackConfig.cmake"
