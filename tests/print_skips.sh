#!/usr/bin/env bash
# Run by ctest after the tests (CTEST_CUSTOM_POST_TEST): lists every skipped test with the reason
# its GTEST_SKIP gave, so the summary says why GPU tests did not run. Always exits 0.
log="${1:-Testing/Temporary/LastTest.log}"
# This run's log: ctest 3.25 renames LastTest.log.tmp only after this script, other versions name
# it otherwise; the newest LastTest file is this run's, never an older run's LastTest.log.
log=$(ls -t "$(dirname "$log")"/LastTest*.log* 2>/dev/null | grep -v '\.skips$' | head -n 1)
[ -n "$log" ] && [ -r "$log" ] || exit 0
awk '
  /^[0-9]+\/[0-9]+ Test: / { name = $3 }
  /: Skipped$/ { reading = 1; reason = ""; next }
  reading && /^\[  SKIPPED \]/ { reading = 0; why[name] = reason; next }
  reading { reason = reason (reason == "" ? "" : " ") $0 }
  END { for (n in why) print "\t" n ": " why[n] }
' "$log" | sort > "${log}.skips"
if [ -s "${log}.skips" ]; then
  echo "Skipped, and why (TUNER_REQUIRE_GPU=1 turns a GPU skip into a failure):"
  cat "${log}.skips"
fi
rm -f "${log}.skips"
exit 0
