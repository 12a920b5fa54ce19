#include "exchange/t4_export.h"

#include <map>
#include <stdexcept>

namespace tuner {

namespace {

using nlohmann::ordered_json;

// Kernel Tuner's unit of time in T4 files.
constexpr const char* kMilliseconds = "ms";

ordered_json Measurement(const std::string& name, const ordered_json& value, const std::string& unit) {
  return {{"name", name}, {"value", value}, {"unit", unit}};
}

// What was measured: the time (the median of the samples, T4's objective) and what explains it.
ordered_json Measurements(const db::MeasurementRecord& m) {
  ordered_json list = ordered_json::array();
  if (!IsOk(m.status)) {
    if (!m.reason.empty()) list.push_back(Measurement("reason", m.reason, ""));
    return list;
  }
  list.push_back(Measurement("time", m.time_ms_median, kMilliseconds));
  list.push_back(Measurement("time_min", m.time_ms_min, kMilliseconds));
  list.push_back(Measurement("time_max", m.time_ms_max, kMilliseconds));
  list.push_back(Measurement("time_spread", m.time_ms_spread, ""));  // (p75 - p25) / median
  list.push_back(Measurement("samples", m.samples, ""));
  if (!m.perf_unit.empty()) list.push_back(Measurement("throughput", m.perf_value, m.perf_unit));
  list.push_back(Measurement("registers_per_thread", m.regs_per_thread, ""));
  list.push_back(Measurement("shared_memory", m.smem_bytes, "bytes"));
  list.push_back(Measurement("occupancy", m.occupancy, ""));
  return list;
}

ordered_json Result(const db::MeasurementRecord& m) {
  const bool ok = IsOk(m.status);
  return {{"timestamp", m.measured_at},
          {"configuration", ordered_json::parse(m.params_json)},
          {"objectives", {"time"}},
          {"times",
           {{"compilation_time", m.compile_ms},
            {"runtimes", ok ? ordered_json::array({m.time_ms_median}) : ordered_json::array()}}},
          {"invalidity", T4Invalidity(m.status)},
          {"correctness", m.status == CandidateStatus::kWrongResult ? 0 : 1},
          {"measurements", Measurements(m)}};
}

// Where the results come from, shaped as the T4 metadata schema's `environment`, plus tuner's own.
ordered_json Metadata(const db::MeasurementRow& first, std::size_t results, std::size_t left_out) {
  const db::GpuRecord& gpu = first.gpu;
  ordered_json requirements = {"tuner " + first.sweep.tool_version};
  if (!first.sweep.nvrtc_version.empty()) requirements.push_back("NVRTC " + first.sweep.nvrtc_version);
  return {{"environment",
           {{"device_query",
             {{"name", gpu.name},
              {"compute_capability", std::to_string(gpu.cc_major) + "." + std::to_string(gpu.cc_minor)},
              {"multiprocessors", gpu.sm_count},
              {"memory_bytes", gpu.memory_bytes},
              {"driver_version", gpu.driver_version},
              {"cuda_version", gpu.cuda_version}}},
            {"requirements", requirements}}},
          {"tuner",
           {{"kernel", first.templ.name},
            {"template_hash", first.templ.hash},
            {"problem_size", first.size_key},
            {"objective", "time"},
            {"time_unit", "milliseconds"},
            {"results", results},
            {"skipped_left_out", left_out}}}};
}

}  // namespace

std::string T4Invalidity(CandidateStatus status) {
  switch (status) {
    case CandidateStatus::kOk:
      return "correct";
    case CandidateStatus::kWrongResult:
      return "correctness";
    case CandidateStatus::kCompileError:
      return "compile";
    case CandidateStatus::kInvalid:
      return "constraints";
    case CandidateStatus::kLaunchError:
    case CandidateStatus::kFault:
      return "runtime";
    case CandidateStatus::kTimeout:
      return "timeout";
    case CandidateStatus::kSkipped:
      break;
  }
  throw std::invalid_argument(std::string("no T4 invalidity for status '") + ToText(status) + "'");
}

ordered_json T4Document(const std::vector<db::MeasurementRow>& rows) {
  std::map<std::string, const db::MeasurementRow*> newest;  // params_json -> its newest measurement
  std::size_t skipped = 0;
  for (const db::MeasurementRow& row : rows) {
    if (row.measurement.status == CandidateStatus::kSkipped) {
      ++skipped;
      continue;
    }
    const db::MeasurementRow*& kept = newest[row.measurement.params_json];
    if (!kept || row.measurement.measured_at > kept->measurement.measured_at) kept = &row;
  }
  ordered_json results = ordered_json::array();
  for (const db::MeasurementRow& row : rows) {
    const auto it = newest.find(row.measurement.params_json);
    if (it != newest.end() && it->second == &row) results.push_back(Result(row.measurement));
  }
  ordered_json doc = {{"schema_version", kT4SchemaVersion}};
  if (!rows.empty()) doc["metadata"] = Metadata(rows.front(), results.size(), skipped);
  doc["results"] = std::move(results);
  return doc;
}

}  // namespace tuner
