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

// Nsight Compute's speed of light (its SpeedOfLight section's metrics) and the share of the tensor
// pipes: each a percentage of the unit's peak, under the key db/speed_of_light.h reads.
const std::pair<const char*, const char*> kSpeedOfLight[] = {
    {"sm__throughput.avg.pct_of_peak_sustained_elapsed", "sm_throughput_pct"},
    {"sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_active", "tensor_pipe_pct"},
    {"gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed", "memory_throughput_pct"},
    {"lts__throughput.avg.pct_of_peak_sustained_elapsed", "l2_throughput_pct"},
    {"l1tex__throughput.avg.pct_of_peak_sustained_active", "l1_throughput_pct"},
};

// The roofline's inputs, as Nsight Compute's SpeedOfLight_RooflineChart section counts them: the
// floating-point operations (an FMA is two), the DRAM bytes, and the peaks of both from the GPU's
// own per-cycle peaks and clocks.
constexpr const char* kOp = "smsp__sass_thread_inst_executed_op_";
constexpr const char* kPredOnSum = "_pred_on.sum";
constexpr const char* kDramBytes = "dram__bytes.sum";
constexpr const char* kDramPeakPerCycle = "dram__bytes.sum.peak_sustained";
constexpr const char* kDramClock = "dram__cycles_elapsed.avg.per_second";
constexpr const char* kSmClock = "sm__cycles_elapsed.avg.per_second";
const char* const kFp32Ops[] = {"fadd", "fmul", "ffma"};
const char* const kFp64Ops[] = {"dadd", "dmul", "dfma"};

std::string OpMetric(const char* op) { return std::string(kOp) + op + kPredOnSum; }
// The whole GPU's peak of `fma` thread instructions per SM cycle.
std::string FmaPeakMetric(const char* fma) {
  return std::string("sm__sass_thread_inst_executed_op_") + fma + "_pred_on.sum.peak_sustained";
}

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

// a * b * scale, when both were measured and are positive (a peak per cycle times a clock).
void PutProduct(nlohmann::json& out, const char* key, std::optional<double> a, std::optional<double> b, double scale) {
  if (a && b && *a > 0 && *b > 0) out[key] = *a * *b * scale;
}

// Additions, multiplications and twice the FMAs of one precision's thread instructions.
std::optional<double> FlopCount(const std::map<std::string, double>& raw, const char* const* ops) {
  const auto add = Get(raw, OpMetric(ops[0])), mul = Get(raw, OpMetric(ops[1])), fma = Get(raw, OpMetric(ops[2]));
  if (!add || !mul || !fma) return std::nullopt;
  return *add + *mul + 2 * *fma;
}

void PutSpeedOfLight(nlohmann::json& out, const std::map<std::string, double>& raw) {
  for (const auto& [metric, key] : kSpeedOfLight)
    if (const auto value = Get(raw, metric)) out[key] = *value;
}

void PutRoofline(nlohmann::json& out, const std::map<std::string, double>& raw) {
  if (const auto flops = FlopCount(raw, kFp32Ops)) out["fp32_flop_count"] = *flops;
  if (const auto flops = FlopCount(raw, kFp64Ops)) out["fp64_flop_count"] = *flops;
  if (const auto bytes = Get(raw, kDramBytes)) out["dram_bytes"] = *bytes;
  const auto sm_hz = Get(raw, kSmClock);
  PutProduct(out, "fp32_peak_gflops", Get(raw, FmaPeakMetric("ffma")), sm_hz, 2e-9);
  PutProduct(out, "fp64_peak_gflops", Get(raw, FmaPeakMetric("dfma")), sm_hz, 2e-9);
  PutProduct(out, "dram_peak_gbps", Get(raw, kDramPeakPerCycle), Get(raw, kDramClock), 1e-9);
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
  for (const auto& [metric, key] : kSpeedOfLight) metrics.push_back(metric);
  for (const auto* ops : {kFp32Ops, kFp64Ops})
    for (int i = 0; i < 3; ++i) metrics.push_back(OpMetric(ops[i]));
  for (const char* fma : {"ffma", "dfma"}) metrics.push_back(FmaPeakMetric(fma));
  for (const char* metric : {kDramBytes, kDramPeakPerCycle, kDramClock, kSmClock}) metrics.push_back(metric);
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
  PutSpeedOfLight(out, raw);
  PutRoofline(out, raw);
  out["stalls"] = TopStallsOf(raw);
  if (const auto ns = Get(raw, "gpu__time_duration.sum")) out["profiled_ms"] = *ns * 1e-6;
  return out;
}

}  // namespace tuner
