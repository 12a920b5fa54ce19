// Performance counters of kernel launches through CUPTI's range profiler (CUDA 13's
// cupti_range_profiler.h): several launches (a sweep's candidates) are profiled in one session, each
// its own range, and the session is replayed once per pass the metrics need, each launch's outputs
// prepared before it, outside its range. The host side (the metrics' configuration) is built once per
// process; the profiler is enabled at the first profile and kept so (enabling costs more than a
// profile): a sweep profiles only after all its timing, never inside a timed sample.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "profilers/cupti_library.h"

namespace tuner {

class RangeProfiler {
 public:
  // For CUDA device `device` and its `context` (CurrentContext() of the thread that launches): the
  // host side only, so it may be built on another thread. Throws CuptiError when CUPTI refuses (no
  // support for this GPU, insufficient privileges, an unknown metric).
  RangeProfiler(const CuptiApi& api, int device, CUcontext context, std::vector<std::string> metrics);

  // The driver's context of the calling thread's current device (made current if need be).
  static CUcontext CurrentContext();
  ~RangeProfiler();
  RangeProfiler(const RangeProfiler&) = delete;
  RangeProfiler& operator=(const RangeProfiler&) = delete;

  // Each metric's value for each of `count` launches: in every pass, for each launch i, `prepare()`
  // runs outside the ranges, then `launch(i)` launches kernel i once inside range i.
  std::vector<std::map<std::string, double>> Profile(std::size_t count, const std::function<void()>& prepare,
                                                     const std::function<void(std::size_t)>& launch);

  std::size_t passes() const { return passes_; }
  // Where the last Profile's time went, in ms: "enable" (the first profile only), "configure",
  // "replay", "decode", "evaluate"; the replay's parts: "replay_first_start", "replay_later_starts",
  // "replay_ranges" (preparing, launching and bracketing every candidate), "replay_stops".
  const std::map<std::string, double>& timing_ms() const { return timing_ms_; }

 private:
  CUpti_RangeProfiler_Object* Enabled();

  std::vector<std::uint8_t> CounterDataImage(CUpti_RangeProfiler_Object* range, std::size_t ranges) const;
  void ReplayPasses(CUpti_RangeProfiler_Object* range, std::size_t count, const std::function<void()>& prepare,
                    const std::function<void(std::size_t)>& launch);
  std::map<std::string, double> Evaluate(const std::vector<std::uint8_t>& data, std::size_t range_index) const;

  const CuptiApi& api_;
  CUcontext context_ = nullptr;
  std::vector<std::string> metrics_;
  std::vector<const char*> names_;
  CUpti_Profiler_Host_Object* host_ = nullptr;
  std::vector<std::uint8_t> config_;
  std::size_t passes_ = 0;
  std::map<std::string, double> timing_ms_;
  CUpti_RangeProfiler_Object* range_ = nullptr;  // enabled at the first Profile, disabled by the destructor
};

}  // namespace tuner
