// The stored record of one candidate: what is known before the GPU runs it (launch, resources,
// occupancy, compile outcome) and the performance derived from its measured time.
#pragma once

#include <string>

#include "base/timing_mode.h"
#include "compile/cubin_cache.h"
#include "db/query/records.h"
#include "occupancy/occupancy.h"
#include "template/problem_size.h"
#include "template/search_space.h"
#include "template/template_spec.h"

namespace tuner {

// One candidate, ready for the GPU unless invalid_reason is set or the compile failed.
struct Compiled {
  ParamValues params;
  LaunchGeometry geometry;
  std::string invalid_reason;  // set before compiling when the launch cannot work
  CachedCompile compile;
};

class CandidateRecords {
 public:
  // Every record says it was timed in `timing`.
  CandidateRecords(const TemplateSpec& spec, const DeviceLimits& limits, const ProblemSize& size,
                   TimingMode timing = TimingMode::kIsolated)
      : spec_(spec), limits_(limits), size_(size), timing_(timing) {}

  // Parameters, launch, compile time and resources, and the status if the candidate cannot run
  // (invalid, compile_error); otherwise its status is for the GPU to decide.
  struct BaseRecord {
    db::MeasurementRecord record;
    bool for_the_gpu = true;  // false: record.status says why it cannot run
  };
  BaseRecord Base(const Compiled& compiled) const;
  // Registers, shared memory, blocks per SM, occupancy and limiter from these resources.
  OccupancyResult FillResources(db::MeasurementRecord& record, const Compiled& compiled, int regs,
                                long long static_smem) const;
  // perf_value and perf_unit from time_ms_median and the template's work (flops or bytes).
  void FillPerformance(db::MeasurementRecord& record) const;

 private:
  const TemplateSpec& spec_;
  const DeviceLimits& limits_;
  const ProblemSize& size_;
  TimingMode timing_;
};

}  // namespace tuner
