#include "reports/report_tables.h"

#include <map>
#include <tuple>

#include "reports/report_format.h"

namespace tuner::report {

namespace {

std::string CeilingText(const Run& run) {
  if (!run.Best()) return "-";
  return OfCeilingText(run.ceiling, run.Best()->measurement.perf_value);
}

std::string Occupancy(const db::MeasurementRecord& m) {
  return FormatPercent(m.occupancy) + " (" + std::to_string(m.blocks_per_sm) + " blocks, " + m.limiter + ")";
}

std::string Throughput(const db::MeasurementRecord& m) { return FormatNumber(m.perf_value) + " " + m.perf_unit; }

std::string Spread(const db::MeasurementRecord& m) {
  return FormatMs(m.time_ms_median) + " (IQR " + FormatPercent(m.time_ms_spread) + ", n=" + std::to_string(m.samples) +
         ")";
}

// The first lines of a compile log or error, on one line.
std::string Excerpt(const std::string& text, std::size_t max_chars) {
  std::string out;
  for (char c : text) {
    if (out.size() >= max_chars) return out + "\u2026";
    out += (c == '\n' || c == '\r' || c == '\t') ? ' ' : c;
  }
  return out;
}

}  // namespace

std::string StatusSummary(const Run& run) {
  std::map<std::string, std::size_t> counts;
  for (const db::MeasurementRow& row : run.rows) ++counts[ToText(row.measurement.status)];
  std::string others;
  for (const auto& [status, n] : counts)
    if (status != "ok") others += (others.empty() ? "" : ", ") + std::to_string(n) + " " + status;
  return std::to_string(run.CountOk()) + " ok of " + std::to_string(run.rows.size()) +
         (others.empty() ? "" : " (" + others + ")");
}

Table SummaryTable(const ReportData& data) {
  Table t{{"Kernel", "GPU", "Size", "Best parameters", "Time", "Throughput", "Of ceiling", "Candidates"},
          {},
          {false, false, false, false, true, true, true, false},
          {}};
  for (const KernelReport& kernel : data.kernels)
    for (const Run& run : kernel.runs) {
      if (run.stale) continue;
      const db::MeasurementRow* best = run.Best();
      t.rows.push_back({kernel.kernel, ShortGpuName(run.gpu.name), run.size_key,
                        best ? run.Params(best->measurement) : "no correct candidate",
                        best ? FormatMs(best->measurement.time_ms_median) : "-",
                        best ? Throughput(best->measurement) : "-", CeilingText(run), StatusSummary(run)});
      t.row_status.push_back(best ? "ok" : "fault");
    }
  return t;
}

Table BestTable(const KernelReport& kernel) {
  Table t{{"GPU", "UUID", "Size", "Best parameters", "Time (median)", "Throughput", "Of ceiling", "Occupancy",
           "Regs/thread", "Smem/block (B)"},
          {},
          {false, false, false, false, true, true, true, true, true, true},
          {}};
  for (const Run& run : kernel.runs) {
    const db::MeasurementRow* best = run.Best();
    const std::string size = run.size_key + (run.stale ? " (older template version)" : "");
    if (!best) {
      t.rows.push_back(
          {ShortGpuName(run.gpu.name), run.Cards(), size, "no correct candidate", "-", "-", "-", "-", "-", "-"});
      t.row_status.push_back("fault");
      continue;
    }
    const db::MeasurementRecord& m = best->measurement;
    t.rows.push_back({ShortGpuName(run.gpu.name), run.Cards(), size, run.Params(m), Spread(m), Throughput(m),
                      CeilingText(run), Occupancy(m), std::to_string(m.regs_per_thread), std::to_string(m.smem_bytes)});
    t.row_status.push_back("ok");
  }
  return t;
}

Table TopTable(const Run& run, std::size_t count) {
  Table t{{"#", "Parameters", "Time (median)", "Throughput", "vs best", "Occupancy", "Regs/thread", "Smem/block (B)",
           "Spill (B)"},
          {},
          {true, false, true, true, true, true, true, true, true},
          {}};
  const db::MeasurementRow* best = run.Best();
  for (std::size_t i = 0; i < run.rows.size() && t.rows.size() < count; ++i) {
    const db::MeasurementRecord& m = run.rows[i].measurement;
    if (!IsOk(m.status)) break;
    t.rows.push_back({std::to_string(i + 1), run.Params(m), Spread(m), Throughput(m),
                      FormatPercent(m.perf_value / best->measurement.perf_value), Occupancy(m),
                      std::to_string(m.regs_per_thread), std::to_string(m.smem_bytes), std::to_string(m.spill_bytes)});
    t.row_status.push_back("ok");
  }
  return t;
}

Table FailuresTable(const Run& run) {
  struct Group {
    std::size_t count = 0;
    std::string examples, detail;
  };
  std::map<std::tuple<std::string, std::string>, Group> groups;
  for (const db::MeasurementRow& row : run.rows) {
    const db::MeasurementRecord& m = row.measurement;
    if (IsOk(m.status)) continue;
    Group& g = groups[{ToText(m.status), m.reason}];
    if (++g.count <= 3) g.examples += (g.examples.empty() ? "" : "; ") + run.Params(m);
    if (g.detail.empty()) g.detail = Excerpt(m.error_text, 400);
  }
  Table t{{"Status", "Count", "Reason", "Examples", "First error text"}, {}, {false, true, false, false, false}, {}};
  for (const auto& [key, g] : groups) {
    const auto& [status, reason] = key;
    t.rows.push_back({status, std::to_string(g.count), reason.empty() ? "(none given)" : reason,
                      g.examples + (g.count > 3 ? "; \u2026" : ""), g.detail});
    t.row_status.push_back(status);
  }
  return t;
}

Table ProvenanceTable(const KernelReport& kernel) {
  Table t{{"Sweep started", "Ended", "Status", "GPU", "GPU UUID", "Arch", "Driver", "CUDA runtime", "NVRTC", "Tool",
           "Template version", "Rows", "Command"},
          {},
          {false, false, false, false, false, false, false, false, false, false, false, true, false},
          {}};
  for (const SweepInfo& s : kernel.sweeps) {
    t.rows.push_back({s.sweep.started_at, s.sweep.ended_at, s.sweep.status, s.gpu.name, s.gpu.uuid, s.gpu.Arch(),
                      s.gpu.driver_version, s.gpu.cuda_version, s.sweep.nvrtc_version, s.sweep.tool_version,
                      s.template_hash.substr(0, 12), std::to_string(s.rows), s.sweep.command});
    t.row_status.push_back("");
  }
  return t;
}

}  // namespace tuner::report
