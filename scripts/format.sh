#!/usr/bin/env bash
# Formats the tool's C++ files with .clang-format (clang-format 14, Debian's `clang-format`).
# The kernel templates are left as their authors wrote them.
set -euo pipefail
cd "$(dirname "$0")/.."
git ls-files '*.cpp' '*.h' | grep -v '^kernel_templates/' | xargs clang-format -i
