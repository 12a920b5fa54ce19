#!/usr/bin/env bash
# Runs the Python package's tests with the first Python that has pytest and NumPy (scripts/
# install-deps.sh installs Debian's python3-pytest and python3-numpy for /usr/bin/python3; a python3
# earlier on the PATH, say pyenv's, may lack them). Arguments go to pytest. CTest runs it
# (tests/CMakeLists.txt: python, python-gpu) with TUNER_BINARY naming the built tool.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
for python in "${TUNER_TEST_PYTHON:-}" python3 /usr/bin/python3; do
  [ -n "$python" ] || continue
  if "$python" -c 'import pytest, numpy' 2>/dev/null; then
    cd "$here"
    # -p no:cacheprovider: no .pytest_cache in the source tree; -rs: every skip with its reason.
    exec "$python" -m pytest -p no:cacheprovider -rs "$@" "$here"
  fi
done
echo "tests/python/run.sh: no Python with pytest and NumPy; run scripts/install-deps.sh (python3-pytest, python3-numpy)" >&2
exit 1
