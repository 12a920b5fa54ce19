#include "sweep/sweep_stop.h"

namespace tuner {

std::atomic<bool> g_sweep_interrupted{false};

StopReason SweepStop::Reason() const {
  if (g_sweep_interrupted) return StopReason::kInterrupted;
  return gpu_failed_ ? StopReason::kGpuFailed : StopReason::kNone;
}

}  // namespace tuner
