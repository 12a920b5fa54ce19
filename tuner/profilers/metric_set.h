// The fixed set of CUPTI metrics collected per candidate, and the counters derived from them
// (db/counters.h names the derived ones): sectors per request, bank conflicts per request, ...
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace tuner {

// The range profiler's metric names (Nsight Compute's names for sm_70 and newer): hardware counters
// only. SASS metrics (branch targets) would patch every kernel module, which costs more than the
// counters themselves; divergence shows in the threads per warp instruction instead.
std::vector<std::string> RawMetrics();

// How many warp-stall reasons the counters keep (the largest).
inline constexpr std::size_t kTopStalls = 3;

// The counters of one launch from the raw metric values: every key of db::CounterFields() whose
// inputs were measured (a ratio with a zero denominator is left out: no requests of that kind), plus
// "stalls" ([reason, warps stalled per issued instruction], the kTopStalls largest) and
// "profiled_ms" (the profiled launch's duration). The worker adds "passes" (replays).
nlohmann::json DeriveCounters(const std::map<std::string, double>& raw);

}  // namespace tuner
