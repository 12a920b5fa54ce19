#include "db/row_json.h"

#include <stdexcept>

namespace tuner::db {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

// Reads one field, naming it when missing or of the wrong type.
template <typename T>
void Get(const json& object, const char* key, T* value) {
  const auto found = object.find(key);
  if (found == object.end()) throw std::invalid_argument(std::string("missing field '") + key + "'");
  try {
    *value = found->get<T>();
  } catch (const json::exception&) {
    throw std::invalid_argument(std::string("field '") + key + "' has the wrong type");
  }
}

const json& Object(const json& parent, const char* key) {
  const auto found = parent.find(key);
  if (found == parent.end() || !found->is_object())
    throw std::invalid_argument(std::string("missing object '") + key + "'");
  return *found;
}

}  // namespace

ordered_json ToJson(const GpuRecord& g) {
  return {{"uuid", g.uuid},
          {"name", g.name},
          {"cc_major", g.cc_major},
          {"cc_minor", g.cc_minor},
          {"sm_count", g.sm_count},
          {"memory_bytes", g.memory_bytes},
          {"driver_version", g.driver_version},
          {"cuda_version", g.cuda_version},
          {"sm_clock_mhz", g.sm_clock_mhz}};
}

ordered_json ToJson(const MeasurementRecord& m) {
  return {{"params_json", m.params_json},
          {"launch_json", m.launch_json},
          {"status", ToText(m.status)},
          {"reason", m.reason},
          {"time_ms_median", m.time_ms_median},
          {"time_ms_min", m.time_ms_min},
          {"time_ms_max", m.time_ms_max},
          {"time_ms_spread", m.time_ms_spread},
          {"samples", m.samples},
          {"perf_value", m.perf_value},
          {"perf_unit", m.perf_unit},
          {"regs_per_thread", m.regs_per_thread},
          {"smem_bytes", m.smem_bytes},
          {"spill_bytes", m.spill_bytes},
          {"blocks_per_sm", m.blocks_per_sm},
          {"occupancy", m.occupancy},
          {"limiter", m.limiter},
          {"compile_ms", m.compile_ms},
          {"error_text", m.error_text},
          {"measured_at", m.measured_at},
          {"worker_kills", m.worker_kills},
          {"counters_json", m.counters_json},
          {"energy_j", m.energy_j},
          {"power_w", m.power_w},
          {"energy_launch_ms", m.energy_launch_ms},
          {"perf_per_joule", m.perf_per_joule}};
}

ordered_json ToJson(const MeasurementRow& row) {
  const SweepRecord& s = row.sweep;
  return {{"gpu", ToJson(row.gpu)},
          {"template", {{"name", row.templ.name}, {"hash", row.templ.hash}, {"first_seen", row.templ.first_seen}}},
          {"sweep",
           {{"uid", s.uid},
            {"command", s.command},
            {"strategy", s.strategy},
            {"budget", s.budget},
            {"size_key", s.size_key},
            {"status", s.status},
            {"tool_version", s.tool_version},
            {"nvrtc_version", s.nvrtc_version},
            {"started_at", s.started_at},
            {"ended_at", s.ended_at},
            {"copy_gbps", s.copy_gbps}}},
          {"size_key", row.size_key},
          {"measurement", ToJson(row.measurement)}};
}

MeasurementRow RowFromJson(const json& line) {
  MeasurementRow row;
  const json& g = Object(line, "gpu");
  Get(g, "uuid", &row.gpu.uuid);
  Get(g, "name", &row.gpu.name);
  Get(g, "cc_major", &row.gpu.cc_major);
  Get(g, "cc_minor", &row.gpu.cc_minor);
  Get(g, "sm_count", &row.gpu.sm_count);
  Get(g, "memory_bytes", &row.gpu.memory_bytes);
  Get(g, "driver_version", &row.gpu.driver_version);
  Get(g, "cuda_version", &row.gpu.cuda_version);
  if (g.contains("sm_clock_mhz")) Get(g, "sm_clock_mhz", &row.gpu.sm_clock_mhz);  // absent before schema 3
  const json& t = Object(line, "template");
  Get(t, "name", &row.templ.name);
  Get(t, "hash", &row.templ.hash);
  Get(t, "first_seen", &row.templ.first_seen);
  const json& s = Object(line, "sweep");
  Get(s, "uid", &row.sweep.uid);
  Get(s, "command", &row.sweep.command);
  Get(s, "strategy", &row.sweep.strategy);
  Get(s, "budget", &row.sweep.budget);
  Get(s, "size_key", &row.sweep.size_key);
  Get(s, "status", &row.sweep.status);
  Get(s, "tool_version", &row.sweep.tool_version);
  Get(s, "nvrtc_version", &row.sweep.nvrtc_version);
  Get(s, "started_at", &row.sweep.started_at);
  Get(s, "ended_at", &row.sweep.ended_at);
  if (s.contains("copy_gbps")) Get(s, "copy_gbps", &row.sweep.copy_gbps);
  Get(line, "size_key", &row.size_key);
  const json& m = Object(line, "measurement");
  MeasurementRecord& r = row.measurement;
  Get(m, "params_json", &r.params_json);
  Get(m, "launch_json", &r.launch_json);
  std::string status;
  Get(m, "status", &status);
  Get(m, "reason", &r.reason);
  Get(m, "time_ms_median", &r.time_ms_median);
  Get(m, "time_ms_min", &r.time_ms_min);
  Get(m, "time_ms_max", &r.time_ms_max);
  Get(m, "time_ms_spread", &r.time_ms_spread);
  Get(m, "samples", &r.samples);
  Get(m, "perf_value", &r.perf_value);
  Get(m, "perf_unit", &r.perf_unit);
  Get(m, "regs_per_thread", &r.regs_per_thread);
  Get(m, "smem_bytes", &r.smem_bytes);
  Get(m, "spill_bytes", &r.spill_bytes);
  Get(m, "blocks_per_sm", &r.blocks_per_sm);
  Get(m, "occupancy", &r.occupancy);
  Get(m, "limiter", &r.limiter);
  Get(m, "compile_ms", &r.compile_ms);
  Get(m, "error_text", &r.error_text);
  Get(m, "measured_at", &r.measured_at);
  if (!status.empty()) r.status = CandidateStatusFromText(status);
  // Absent in exports of schema 3, where a fault or timeout had killed its worker once.
  if (m.contains("worker_kills"))
    Get(m, "worker_kills", &r.worker_kills);
  else
    r.worker_kills = KillsWorker(r.status) ? 1 : 0;
  // Absent in exports before schema 6: nothing measured.
  for (const auto& [key, value] : {std::pair{"energy_j", &r.energy_j},
                                   {"power_w", &r.power_w},
                                   {"energy_launch_ms", &r.energy_launch_ms},
                                   {"perf_per_joule", &r.perf_per_joule}})
    if (m.contains(key)) Get(m, key, value);
  if (m.contains("counters_json")) Get(m, "counters_json", &r.counters_json);
  if (!r.counters_json.empty() && !json::parse(r.counters_json, nullptr, false).is_object())
    throw std::invalid_argument("measurement.counters_json must be empty or a JSON object as a string");
  if (row.gpu.uuid.empty() || row.templ.name.empty() || r.params_json.empty() || status.empty())
    throw std::invalid_argument("gpu.uuid, template.name, measurement.params_json and status must not be empty");
  return row;
}

ordered_json ParseStoredJson(const std::string& text) {
  if (text.empty()) return nullptr;
  try {
    return ordered_json::parse(text);
  } catch (const json::exception&) {
    return nullptr;
  }
}

}  // namespace tuner::db
