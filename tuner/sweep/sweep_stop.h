// Why a sweep ends before its candidates do. Ctrl-C stops every sweep of the command, which then
// says what it stored and exits 130; a sweep that fails stops the other GPUs' sweeps of its
// command, which then fails with that sweep's error. Either way a stopped sweep kills its worker,
// does not store the candidate in flight, and is stored as interrupted.
#pragma once

#include <atomic>

namespace tuner {

// Set by the SIGINT handler (common/interrupt.h): Ctrl-C and nothing else.
extern std::atomic<bool> g_sweep_interrupted;  // lock-free, so a signal handler may set it

enum class StopReason { kNone, kInterrupted, kGpuFailed };

// Shared by the sweeps of one command (SweepOptions::stop).
class SweepStop {
 public:
  // A sweep of the command failed: the others stop.
  void GpuFailed() { gpu_failed_ = true; }
  // Ctrl-C first: the user's stop is what the command reports.
  StopReason Reason() const;
  bool Requested() const { return Reason() != StopReason::kNone; }

 private:
  std::atomic<bool> gpu_failed_{false};
};

}  // namespace tuner
