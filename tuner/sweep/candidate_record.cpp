#include "sweep/candidate_record.h"

#include <filesystem>

#include "compile/compile_failure.h"
#include "compile/compiler.h"
#include "expression/expression.h"

namespace tuner {

CandidateRecords::BaseRecord CandidateRecords::Base(const Compiled& compiled) const {
  BaseRecord base;
  db::MeasurementRecord& record = base.record;
  record.params_json = ParamsJson(compiled.params);
  record.launch_json = compiled.geometry.Json();
  record.measured_at = db::NowUtc();
  record.timing_mode = ToText(timing_);
  const CompileResult& c = compiled.compile.result;
  record.compile_ms = compiled.compile.cache_hit ? 0 : c.compile_ms;
  record.spill_bytes = c.info.spill_bytes;
  const OccupancyResult occupancy = FillResources(record, compiled, c.info.regs_per_thread, c.info.static_smem_bytes);
  base.for_the_gpu = false;
  if (!compiled.invalid_reason.empty()) {
    record.status = CandidateStatus::kInvalid;
    record.reason = compiled.invalid_reason;
  } else if (!c.ok) {
    record.status = CandidateStatus::kCompileError;
    // Only what NVRTC said about the template's own files is stored and published: it quotes lines
    // of every file it reads.
    record.error_text = LogInsideFolder(c.log, std::filesystem::path(spec_.source_path).parent_path().string());
    record.reason = CompileFailureReason(record.error_text, spec_.source_path);
  } else if (!occupancy.invalid_reason.empty()) {
    record.status = CandidateStatus::kInvalid;
    record.reason = occupancy.invalid_reason;
  } else {
    base.for_the_gpu = true;
  }
  return base;
}

OccupancyResult CandidateRecords::FillResources(db::MeasurementRecord& record, const Compiled& compiled, int regs,
                                                long long static_smem) const {
  record.regs_per_thread = regs;
  record.smem_bytes = static_smem + compiled.geometry.shared_bytes;
  const OccupancyResult occupancy = ComputeOccupancy(limits_, {static_cast<int>(compiled.geometry.ThreadsPerBlock()),
                                                               regs, static_cast<std::size_t>(record.smem_bytes)});
  record.blocks_per_sm = occupancy.blocks_per_sm;
  record.occupancy = occupancy.occupancy;
  record.limiter = ToString(occupancy.limiter);
  return occupancy;
}

void CandidateRecords::FillPerformance(db::MeasurementRecord& record) const {
  const Variables vars = MakeVariables(size_, {});
  const bool flops = !spec_.work.flops.empty();
  const double work = Evaluate(flops ? spec_.work.flops : spec_.work.bytes, vars);
  record.perf_unit = flops ? "GFLOP/s" : "GB/s";
  record.perf_value = work / (record.time_ms_median * 1e6);
}

}  // namespace tuner
