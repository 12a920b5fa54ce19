// The fixed set of CUPTI metrics collected per candidate, and the counters derived from them
// (db/counters.h names the derived ones): sectors per request, bank conflicts per request, ...
#pragma once

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace tuner {

// The range profiler's metric names (Nsight Compute's names for sm_70 and newer): hardware counters
// only. Metrics that patch the kernel's SASS (`sass__*`, CUPTI's SASS metrics API) would patch every
// module, which costs more than the counters themselves; divergence shows in the threads per warp
// instruction instead. The `smsp__sass_thread_inst_executed_op_*` counts of the roofline are
// hardware counters (CUPTI's host API schedules them in its passes).
// Passes on a GH100 by CUPTI's host API (no GPU needed): 6 without the speed of light and the
// roofline, 14 with the speed of light (sm__throughput alone adds 7: it is the maximum of many SM
// sub-throughputs; the memory side and the tensor pipes add none), 15 with the roofline too.
std::vector<std::string> RawMetrics();

// How many warp-stall reasons the counters keep (the largest).
inline constexpr std::size_t kTopStalls = 3;

// The counters of one launch from the raw metric values: every key of db::CounterFields() whose
// inputs were measured (a ratio with a zero denominator is left out: no requests of that kind), plus
// "stalls" ([reason, warps stalled per issued instruction], the kTopStalls largest) and
// "profiled_ms" (the profiled launch's duration), the speed of light's shares and the roofline's
// counts and peaks (db/speed_of_light.h names them). The worker adds "passes" (replays).
nlohmann::json DeriveCounters(const std::map<std::string, double>& raw);

}  // namespace tuner
