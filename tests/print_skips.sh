#!/usr/bin/env bash
# Run by ctest after the tests (CTEST_CUSTOM_POST_TEST): prints the GPU tests that skipped and why,
# from the list the skipping tests wrote (gpu_test_support.h), since CTest's summary names a skipped
# test but not the reason. Always exits 0.
record="$1"
[ -s "$record" ] || exit 0
echo "GPU tests skipped, and why (TUNER_REQUIRE_GPU=1 turns such a skip into a failure):"
sort -u "$record" | sed 's/^/\t/'
exit 0
