// Performance counters of one kernel launch through CUPTI's range profiler (CUDA 13's
// cupti_range_profiler.h): the launch is replayed once per pass the metrics need, its outputs
// prepared before each replay. Enabled at the first launch it profiles and kept so (enabling costs
// more than a profile): a sweep profiles only after all its timing, never inside a timed sample.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "measure/cupti_library.h"

namespace tuner {

class RangeProfiler {
 public:
  // For the current CUDA device and context; throws CuptiError when CUPTI refuses (no support for
  // this GPU, insufficient privileges, an unknown metric).
  RangeProfiler(const CuptiApi& api, int device, std::vector<std::string> metrics);
  ~RangeProfiler();
  RangeProfiler(const RangeProfiler&) = delete;
  RangeProfiler& operator=(const RangeProfiler&) = delete;

  // Each metric's value for one launch: `prepare` runs before every replay (outside the range),
  // `launch` launches the kernel once.
  std::map<std::string, double> Profile(const std::function<void()>& prepare, const std::function<void()>& launch);

  std::size_t passes() const { return passes_; }

 private:
  CUpti_RangeProfiler_Object* Enabled();

  std::vector<std::uint8_t> CounterDataImage(CUpti_RangeProfiler_Object* range) const;
  void ReplayPasses(CUpti_RangeProfiler_Object* range, const std::function<void()>& prepare,
                    const std::function<void()>& launch) const;

  const CuptiApi& api_;
  CUcontext context_ = nullptr;
  std::vector<std::string> metrics_;
  std::vector<const char*> names_;
  CUpti_Profiler_Host_Object* host_ = nullptr;
  std::vector<std::uint8_t> config_;
  std::size_t passes_ = 0;
  CUpti_RangeProfiler_Object* range_ = nullptr;  // enabled at the first Profile, disabled by the destructor
};

}  // namespace tuner
