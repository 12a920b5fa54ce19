#include "reports/csv_report.h"

#include <cstdio>
#include <vector>

#include "reports/report_format.h"

namespace tuner::report {

namespace {

const char* const kColumns[] = {"kernel",        "template_hash",    "stale",
                                "gpu_name",      "gpu_uuid",         "arch",
                                "sm_count",      "driver_version",   "cuda_version",
                                "size",          "params_json",      "launch_json",
                                "status",        "reason",           "time_ms_median",
                                "time_ms_min",   "time_ms_max",      "time_ms_spread",
                                "samples",       "perf_value",       "perf_unit",
                                "ceiling_value", "ceiling_fraction", "regs_per_thread",
                                "smem_bytes",    "spill_bytes",      "blocks_per_sm",
                                "occupancy",     "limiter",          "compile_ms",
                                "measured_at",   "sweep_uid",        "sweep_started_at",
                                "tool_version",  "nvrtc_version",    "error_text"};

std::string Number(double value) {
  char buffer[40];
  std::snprintf(buffer, sizeof buffer, "%.9g", value);
  return buffer;
}

std::vector<std::string> Fields(const Run& run, const db::MeasurementRow& row) {
  const db::MeasurementRecord& m = row.measurement;
  const bool ok = db::IsOk(m.status);
  const bool ceiling = ok && run.ceiling.known() && m.perf_unit == run.ceiling.unit;
  return {row.templ.name,
          row.templ.hash,
          row.stale ? "1" : "0",
          row.gpu.name,
          row.gpu.uuid,
          row.gpu.Arch(),
          std::to_string(row.gpu.sm_count),
          row.gpu.driver_version,
          row.gpu.cuda_version,
          row.size_key,
          m.params_json,
          m.launch_json,
          db::ToText(m.status),
          m.reason,
          Number(m.time_ms_median),
          Number(m.time_ms_min),
          Number(m.time_ms_max),
          Number(m.time_ms_spread),
          std::to_string(m.samples),
          Number(m.perf_value),
          m.perf_unit,
          ceiling ? Number(run.ceiling.value) : "",
          ceiling ? Number(m.perf_value / run.ceiling.value) : "",
          std::to_string(m.regs_per_thread),
          std::to_string(m.smem_bytes),
          std::to_string(m.spill_bytes),
          std::to_string(m.blocks_per_sm),
          Number(m.occupancy),
          m.limiter,
          Number(m.compile_ms),
          m.measured_at,
          row.sweep.uid,
          row.sweep.started_at,
          row.sweep.tool_version,
          row.sweep.nvrtc_version,
          m.error_text};
}

std::string Line(const std::vector<std::string>& fields) {
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) line += (i ? "," : "") + CsvField(fields[i]);
  return line + "\r\n";
}

}  // namespace

std::string CsvField(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string RenderCsv(const ReportData& data) {
  std::string out = Line(std::vector<std::string>(std::begin(kColumns), std::end(kColumns)));
  for (const KernelReport& kernel : data.kernels)
    for (const Run& run : kernel.runs)
      for (const db::MeasurementRow& row : run.rows) out += Line(Fields(run, row));
  return out;
}

}  // namespace tuner::report
