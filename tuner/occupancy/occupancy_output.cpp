// JSON keys beyond the four of occupancy_output.h: device{...}, kernel{...}, warps_per_block, max_warps_per_sm,
// limiters (every limit reached, ties included), blocks_by_{warps,registers,shared_memory,blocks,
// barriers} (null: that resource does not limit), regs_allocated_per_block,
// smem_allocated_per_block_bytes (with the reserve, rounded), valid, invalid_reason (null when valid),
// suggestions[{input, value, comparison, blocks_per_sm, occupancy, text}] and, with --vary,
// curve{input, points[{value, blocks_per_sm, warps_per_sm, occupancy, limiter}]} and, with --kernel,
// template{name, params, arch, block, regs_per_thread, static_smem_bytes, dynamic_smem_bytes,
// spill_bytes, violated_constraints}.
#include "occupancy/occupancy_output.h"

#include <climits>
#include <cstdio>
#include <string>

#include "base/percent_text.h"

namespace tuner {

namespace {

using nlohmann::json;

json Limit(int blocks) { return blocks == INT_MAX ? json(nullptr) : json(blocks); }

std::string LimitText(int blocks) { return blocks == INT_MAX ? "unlimited" : std::to_string(blocks); }

json LimitersJson(const OccupancyResult& r) {
  json limiters = json::array();
  for (Limiter l : r.limiters) limiters.push_back(ToString(l));
  return limiters;
}

json SuggestionJson(const Suggestion& s) {
  return {{"input", ToString(s.input)},
          {"value", s.value},
          {"comparison", s.input == VaryInput::kThreads ? "exactly" : "at_most"},
          {"blocks_per_sm", s.blocks_per_sm},
          {"occupancy", s.occupancy},
          {"text", s.text}};
}

json CurveJson(VaryInput input, const std::vector<CurvePoint>& curve) {
  json points = json::array();
  for (const CurvePoint& p : curve)
    points.push_back({{"value", p.value},
                      {"blocks_per_sm", p.result.blocks_per_sm},
                      {"warps_per_sm", p.result.warps_per_sm},
                      {"occupancy", p.result.occupancy},
                      {"limiter", ToString(p.result.limiter)}});
  return {{"input", ToString(input)}, {"points", points}};
}

void PrintLimits(const OccupancyResult& r, std::ostream& out) {
  const std::pair<const char*, int> rows[] = {{"warps", r.blocks_by_warps},
                                              {"registers", r.blocks_by_registers},
                                              {"shared memory", r.blocks_by_shared_memory},
                                              {"blocks", r.blocks_by_blocks},
                                              {"barriers", r.blocks_by_barriers}};
  out << "\nBlocks per SM each limit alone allows:\n";
  for (const auto& [name, blocks] : rows) {
    const std::string label = name;
    out << "  " << label << std::string(16 - label.size(), ' ') << LimitText(blocks) << "\n";
  }
}

// Curve rows merged where the answer does not change; a row covers (previous row's last value, last].
void PrintCurve(const OccupancyReport& report, std::ostream& out) {
  char header[160];
  std::snprintf(header, sizeof header, "  %-22s %9s %9s %10s  %s\n", ToString(*report.vary).c_str(), "blocks/SM",
                "warps/SM", "occupancy", "limiter");
  out << "\nOccupancy against " << ToString(*report.vary) << ":\n" << header;
  const std::vector<CurvePoint>& c = report.curve;
  long long low = c.empty() ? 0 : c.front().value;
  for (std::size_t i = 0; i < c.size(); ++i) {
    const OccupancyResult& r = c[i].result;
    const bool last = i + 1 == c.size();
    if (!last && c[i + 1].result.blocks_per_sm == r.blocks_per_sm && c[i + 1].result.warps_per_sm == r.warps_per_sm &&
        c[i + 1].result.limiter == r.limiter)
      continue;
    const std::string range =
        low == c[i].value ? std::to_string(low) : std::to_string(low) + "-" + std::to_string(c[i].value);
    char line[160];
    std::snprintf(line, sizeof line, "  %-22s %9d %9d %10s  %s\n", range.c_str(), r.blocks_per_sm, r.warps_per_sm,
                  PercentText(r.occupancy, 1).c_str(), r.blocks_per_sm == 0 ? "(cannot launch)" : ToString(r.limiter).c_str());
    out << line;
    low = c[i].value + 1;
  }
}

std::string TemplateText(const json& source) {
  std::string text = source.value("name", "");
  for (const auto& [name, value] : source["params"].items()) text += " " + name + "=" + value.dump();
  return text + " (" + source.value("arch", "") + " cubin: " + source["static_smem_bytes"].dump() + " bytes static + " +
         source["dynamic_smem_bytes"].dump() + " dynamic shared memory, " + source["spill_bytes"].dump() +
         " bytes spilled)";
}

}  // namespace

json DeviceJson(const DeviceLimits& d) {
  return {{"name", d.name},
          {"compute_capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor)},
          {"sm_count", d.sm_count},
          {"warp_size", d.warp_size},
          {"max_threads_per_block", d.max_threads_per_block},
          {"max_threads_per_sm", d.max_threads_per_sm},
          {"max_blocks_per_sm", d.max_blocks_per_sm},
          {"regs_per_sm", d.regs_per_sm},
          {"regs_per_block", d.regs_per_block},
          {"smem_per_sm_bytes", d.smem_per_sm_bytes},
          {"smem_per_block_bytes", d.smem_per_block_bytes},
          {"smem_per_block_optin_bytes", d.smem_per_block_optin_bytes},
          {"reserved_smem_per_block_bytes", d.reserved_smem_per_block_bytes}};
}

json OccupancyJson(const OccupancyReport& report) {
  const OccupancyResult& r = report.result;
  json doc = {{"device", DeviceJson(report.device)},
              {"kernel",
               {{"threads_per_block", report.kernel.threads_per_block},
                {"regs_per_thread", report.kernel.regs_per_thread},
                {"smem_bytes", report.kernel.smem_bytes}}},
              {"blocks_per_sm", r.blocks_per_sm},
              {"warps_per_sm", r.warps_per_sm},
              {"occupancy", r.occupancy},
              {"limiter", ToString(r.limiter)},
              {"limiters", LimitersJson(r)},
              {"warps_per_block", r.warps_per_block},
              {"max_warps_per_sm", r.max_warps_per_sm},
              {"blocks_by_warps", Limit(r.blocks_by_warps)},
              {"blocks_by_registers", Limit(r.blocks_by_registers)},
              {"blocks_by_shared_memory", Limit(r.blocks_by_shared_memory)},
              {"blocks_by_blocks", Limit(r.blocks_by_blocks)},
              {"blocks_by_barriers", Limit(r.blocks_by_barriers)},
              {"regs_allocated_per_block", r.regs_allocated_per_block},
              {"smem_allocated_per_block_bytes", r.smem_allocated_per_block_bytes},
              {"valid", r.invalid_reason.empty()},
              {"invalid_reason", r.invalid_reason.empty() ? json(nullptr) : json(r.invalid_reason)}};
  doc["suggestions"] = json::array();
  for (const Suggestion& s : report.suggestions) doc["suggestions"].push_back(SuggestionJson(s));
  if (report.vary) doc["curve"] = CurveJson(*report.vary, report.curve);
  if (!report.source.is_null()) doc["template"] = report.source;
  return doc;
}

void PrintOccupancy(const OccupancyReport& report, std::ostream& out) {
  const DeviceLimits& d = report.device;
  const KernelResources& k = report.kernel;
  const OccupancyResult& r = report.result;
  out << "Device     " << d.name << ", compute capability " << d.cc_major << "." << d.cc_minor << ": per SM "
      << d.max_threads_per_sm << " threads, " << d.max_blocks_per_sm << " blocks, " << d.regs_per_sm << " registers, "
      << d.smem_per_sm_bytes << " bytes of shared memory\n";
  if (!report.source.is_null()) out << "Template   " << TemplateText(report.source) << "\n";
  out << "Kernel     " << k.threads_per_block << " threads per block, " << k.regs_per_thread
      << " registers per thread, " << k.smem_bytes << " bytes of shared memory per block (the driver reserves "
      << d.reserved_smem_per_block_bytes << " more)\n\n";
  if (!r.invalid_reason.empty()) out << "Cannot launch: " << r.invalid_reason << "\n";
  out << "Blocks per SM  " << r.blocks_per_sm << "\n"
      << "Warps per SM   " << r.warps_per_sm << " of " << r.max_warps_per_sm << "\n"
      << "Occupancy      " << PercentText(r.occupancy, 1) << "\n"
      << "Limiter        " << ToString(r.limiter);
  for (std::size_t i = 1; i < r.limiters.size(); ++i) out << (i == 1 ? " (also " : ", ") << ToString(r.limiters[i]);
  out << (r.limiters.size() > 1 ? ")\n" : "\n");
  PrintLimits(r, out);
  if (!report.suggestions.empty())
    out << "\nTo raise occupancy:\n";
  else if (r.occupancy >= 1.0)
    out << "\nOccupancy is at its maximum.\n";
  else
    out << "\nNo single change of threads, registers or shared memory raises occupancy.\n";
  for (const Suggestion& s : report.suggestions) out << "  " << s.text << "\n";
  if (report.vary) PrintCurve(report, out);
}

}  // namespace tuner
