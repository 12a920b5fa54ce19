// Where a sweep's wall time goes, so that a user sees whether a space is compile-bound or
// GPU-bound. The sweep's measuring thread accounts each stretch it spends to one part; the parts
// add up to the wall time (docs/concepts/timing.md, "Where the time goes").
#pragma once

#include <atomic>
#include <chrono>
#include <nlohmann/json.hpp>
#include <string>

namespace tuner {

struct SweepTime {
  double wall_s = 0;
  double compile_s = 0;          // the measuring thread waited for NVRTC
  double gpu_s = 0;              // a worker handled requests (measured by the worker, request to reply)
  double waiting_s = 0;          // waited for a worker beyond that, or for the other GPUs' sweeps
  double overhead_s = 0;         // the rest: the tuner's own work
  double compile_threads_s = 0;  // every compile's duration, summed over the compile threads (not a part)
  int compile_threads = 1;

  std::string BoundBy() const;  // "compile", "gpu", "waiting" or "overhead": the largest part
};

nlohmann::json ToJson(const SweepTime& time);
// One line: "time: 12.3 s: compile 1.2 s (10%), GPU work 9.0 s (73%), ...; GPU-bound; ..."
std::string Describe(const SweepTime& time);

// Accumulates a SweepTime from the moment it is made. Add and Time are for the measuring thread,
// except for kCompileWork, which any thread may add.
class SweepClock {
 public:
  // kCompileWork: a compile on any thread, summed apart from the wall time's parts.
  enum class Part { kCompile, kGpu, kWaiting, kCompileWork };
  using Clock = std::chrono::steady_clock;

  // Adds the time from its making to its end to a part.
  class Timer {
   public:
    Timer(SweepClock& clock, Part part) : clock_(clock), part_(part), start_(Clock::now()) {}
    ~Timer() { clock_.Add(part_, SecondsSince(start_)); }
    Timer(const Timer&) = delete;
    Timer& operator=(const Timer&) = delete;

   private:
    SweepClock& clock_;
    Part part_;
    Clock::time_point start_;
  };

  void Add(Part part, double seconds);
  Timer Time(Part part) { return Timer(*this, part); }
  // A call to a worker that took `call_s` and whose reply said it worked `worker_s` (0 when it
  // did not reply): the worker's time is GPU work, the rest waiting.
  void AddWorkerCall(double call_s, double worker_s);
  void SetCompileThreads(int threads) { compile_threads_ = threads; }
  // The split so far. The wall time is never less than the parts (overhead is never negative).
  SweepTime Split() const;

  static double SecondsSince(Clock::time_point start);

 private:
  Clock::time_point start_ = Clock::now();
  double compile_s_ = 0, gpu_s_ = 0, waiting_s_ = 0;
  std::atomic<long long> compile_work_ns_{0};
  int compile_threads_ = 1;  // the measuring thread's own compiles
};

}  // namespace tuner
