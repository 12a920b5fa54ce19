#!/usr/bin/env bash
# Search-space construction, which must stay fast and small on spaces of 10^8 combinations:
# synthetic templates of 6 and 8 parameters of 10 values each (10^6 and 10^8 combinations) with four
# and five GEMM-like constraints, written into a scratch folder by bench/space_benchmark.cpp. Prints
# the Cartesian size, the valid count, the seconds to build the valid candidates as tune and explore
# do (and to count them alone), the peak memory, and, on the 10^6 space, the enumeration tuner used
# before (every constraint parsed for every combination) timed in the same run, with a check that
# both give the same candidates in the same order. Then the shares of `tune --shard K/N` of the 10^8
# space over 8 nodes: their sizes and the seconds a node takes to find its own. CPU only: no GPU
# needed.
# Usage: bench/bench_space.sh [build-dir]
set -euo pipefail
source "$(dirname "$0")/bench_common.sh"
bench_init bench_space "$@"
bench_positional_args "$@"
build=${1:-build}
[ -d "$build" ] || bench_usage "no build folder '$build' (build with scripts/build.sh, or pass its path)"
cmake --build "$build" --target space_benchmark >/dev/null || bench_die "cannot build space_benchmark in '$build'"
# The parameters take the values 1, 2, 4, ..., 512 (bench/space_benchmark.cpp writes the templates).
six='"A * B <= 1024", "C % B == 0 && C <= 256", "D * E <= 64", "F <= A"'
eight="$six, \"G * H <= 16 && G <= H\""

bench_header
echo "CPU: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| space | combinations | valid | build s | count only s | peak RSS MiB | before (parse per combination) s | same candidates, same order |"
echo "|---|---:|---:|---:|---:|---:|---:|---|"
for space in space6 space8; do
  if [ $space = space6 ]; then args=(--synthetic 6 "$six" --baseline); else args=(--synthetic 8 "$eight" --shards 8); fi
  json=$("$build/bin/space_benchmark" --templates "$work" --kernel $space "${args[@]}") || bench_die "space_benchmark failed on $space"
  python3 - "$json" <<'PY'
import json, sys
r = json.loads(sys.argv[1])
ran = "baseline_s" in r
before = "%.1f" % r["baseline_s"] if ran else "not run (about 45 us x combinations)"
same = ("yes" if r["baseline_same"] else "NO") if ran else "-"
print("| %s | {:,} | {:,} | %.2f | %.2f | %.0f | %s | %s |".format(r["combinations"], r["valid"])
      % (r["kernel"], r["build_s"], r["count_s"], r["peak_rss_mib"], before, same))
if "shard_sizes" in r:
    sizes = r["shard_sizes"]
    print("\n%s over %d nodes (--shard K/%d): shares of %s candidates (%s in all), %.2f s for a node to find its own"
          % (r["kernel"], len(sizes), len(sizes), " / ".join("{:,}".format(n) for n in sizes), "{:,}".format(sum(sizes)),
             r["shard_s"]))
PY
done
