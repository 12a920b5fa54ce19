#include "profilers/metric_set.h"

#include <algorithm>
#include <optional>

namespace tuner {

namespace {

constexpr const char* kStallPrefix = "smsp__average_warps_issue_stalled_";
constexpr const char* kStallSuffix = "_per_issue_active.ratio";
// The reasons that explain the shipped templates' kernels (memory latency and throttles, barriers,
// math); each more costs counters, and the counters cost replays.
const char* const kStallReasons[] = {"long_scoreboard", "short_scoreboard",   "barrier", "mio_throttle",
                                     "lg_throttle",     "math_pipe_throttle", "wait",    "membar"};

std::optional<double> Get(const std::map<std::string, double>& raw, const std::string& name) {
  const auto found = raw.find(name);
  if (found == raw.end()) return std::nullopt;
  return found->second;
}

// numerator / denominator, when both were measured and the denominator is not zero.
void PutRatio(nlohmann::json& out, const char* key, std::optional<double> numerator, std::optional<double> denominator,
              double scale = 1) {
  if (numerator && denominator && *denominator > 0) out[key] = *numerator / *denominator * scale;
}

std::optional<double> Sum(std::optional<double> a, std::optional<double> b) {
  if (!a || !b) return std::nullopt;
  return *a + *b;
}

nlohmann::json TopStallsOf(const std::map<std::string, double>& raw) {
  std::vector<std::pair<std::string, double>> stalls;
  for (const char* reason : kStallReasons)
    if (const auto value = Get(raw, std::string(kStallPrefix) + reason + kStallSuffix); value && *value > 0)
      stalls.emplace_back(reason, *value);
  std::stable_sort(stalls.begin(), stalls.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  if (stalls.size() > kTopStalls) stalls.resize(kTopStalls);
  nlohmann::json out = nlohmann::json::array();
  for (const auto& [reason, value] : stalls) out.push_back({reason, value});
  return out;
}

}  // namespace

std::vector<std::string> RawMetrics() {
  std::vector<std::string> metrics = {
      "gpu__time_duration.sum",
      "dram__throughput.avg.pct_of_peak_sustained_elapsed",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
      "smsp__inst_executed_op_global_ld.sum",
      "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
      "smsp__inst_executed_op_global_st.sum",
      "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum",
      "smsp__inst_executed_op_shared_ld.sum",
      "smsp__inst_executed_op_shared_st.sum",
      "smsp__inst_executed_op_shared_ld_pred_off_all.sum",
      "sm__warps_active.avg.pct_of_peak_sustained_active",
      "smsp__thread_inst_executed.sum",
      "smsp__thread_inst_executed_pred_on.sum",
      "smsp__inst_executed.sum",
  };
  for (const char* reason : kStallReasons) metrics.push_back(std::string(kStallPrefix) + reason + kStallSuffix);
  return metrics;
}

nlohmann::json DeriveCounters(const std::map<std::string, double>& raw) {
  nlohmann::json out = nlohmann::json::object();
  if (const auto dram = Get(raw, "dram__throughput.avg.pct_of_peak_sustained_elapsed"))
    out["dram_throughput_pct"] = *dram;
  PutRatio(out, "load_sectors_per_request", Get(raw, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
           Get(raw, "smsp__inst_executed_op_global_ld.sum"));
  PutRatio(out, "store_sectors_per_request", Get(raw, "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"),
           Get(raw, "smsp__inst_executed_op_global_st.sum"));
  PutRatio(out, "shared_bank_conflicts_per_request", Get(raw, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum"),
           Sum(Get(raw, "smsp__inst_executed_op_shared_ld.sum"), Get(raw, "smsp__inst_executed_op_shared_st.sum")));
  if (const auto occupancy = Get(raw, "sm__warps_active.avg.pct_of_peak_sustained_active"))
    out["achieved_occupancy_pct"] = *occupancy;
  PutRatio(out, "warp_efficiency_pct", Get(raw, "smsp__thread_inst_executed.sum"), Get(raw, "smsp__inst_executed.sum"),
           100.0 / 32);
  PutRatio(out, "predicated_on_pct", Get(raw, "smsp__thread_inst_executed_pred_on.sum"),
           Get(raw, "smsp__inst_executed.sum"), 100.0 / 32);
  PutRatio(out, "shared_loads_all_off_pct", Get(raw, "smsp__inst_executed_op_shared_ld_pred_off_all.sum"),
           Get(raw, "smsp__inst_executed_op_shared_ld.sum"), 100.0);
  out["stalls"] = TopStallsOf(raw);
  if (const auto ns = Get(raw, "gpu__time_duration.sum")) out["profiled_ms"] = *ns * 1e-6;
  return out;
}

}  // namespace tuner
