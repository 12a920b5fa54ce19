#!/usr/bin/env bash
# The main job on a fresh machine: install, build, and tune the transpose kernel on GPU 0 into the
# default database. Without a GPU it says so and explores the candidates for sm_90 offline instead.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh --tool  # the tool alone: scripts/test.sh builds the tests
if build/bin/tuner devices --json | grep -q '"uuid"'; then
  build/bin/tuner tune transpose --size 8192x8192 "$@"
else
  build/bin/tuner devices
  echo
  echo "No GPU here, so instead of tuning: every transpose candidate compiled for sm_90 (H100/H200)."
  build/bin/tuner explore transpose --arch sm_90
fi
