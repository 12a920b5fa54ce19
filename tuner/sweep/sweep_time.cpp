#include "sweep/sweep_time.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "base/percent_text.h"
#include "common/text_table.h"

namespace tuner {

namespace {

std::vector<std::pair<std::string, double>> Parts(const SweepTime& time) {
  return {{"compile", time.compile_s}, {"gpu", time.gpu_s}, {"waiting", time.waiting_s}, {"overhead", time.overhead_s}};
}


}  // namespace

std::string SweepTime::BoundBy() const {
  const auto parts = Parts(*this);
  return std::max_element(parts.begin(), parts.end(), [](const auto& a, const auto& b) { return a.second < b.second; })
      ->first;
}

nlohmann::json ToJson(const SweepTime& time) {
  return {{"wall_s", time.wall_s},
          {"compile_s", time.compile_s},
          {"gpu_s", time.gpu_s},
          {"waiting_s", time.waiting_s},
          {"overhead_s", time.overhead_s},
          {"bound_by", time.BoundBy()},
          {"compile_threads_s", time.compile_threads_s},
          {"compile_threads", time.compile_threads}};
}

std::string Describe(const SweepTime& time) {
  const std::string bound = time.BoundBy();
  std::string line = "time: " + Fixed(time.wall_s, 1) + " s: compile " + Fixed(time.compile_s, 1) + " s (" +
                     PercentOf(time.compile_s, time.wall_s, 0) + "), GPU work " + Fixed(time.gpu_s, 1) + " s (" +
                     PercentOf(time.gpu_s, time.wall_s, 0) + "), waiting " + Fixed(time.waiting_s, 1) + " s (" +
                     PercentOf(time.waiting_s, time.wall_s, 0) + "), overhead " + Fixed(time.overhead_s, 1) + " s (" +
                     PercentOf(time.overhead_s, time.wall_s, 0) + "); ";
  line += bound == "gpu" ? "GPU-bound" : bound == "compile" ? "compile-bound" : "mostly " + bound;
  line += "; the compiles took " + Fixed(time.compile_threads_s, 1) + " s on " + std::to_string(time.compile_threads) +
          " thread" + (time.compile_threads == 1 ? "" : "s");
  return line;
}

void SweepClock::Add(Part part, double seconds) {
  switch (part) {
    case Part::kCompile:
      compile_s_ += seconds;
      break;
    case Part::kGpu:
      gpu_s_ += seconds;
      break;
    case Part::kWaiting:
      waiting_s_ += seconds;
      break;
    case Part::kCompileWork:
      compile_work_ns_ += static_cast<long long>(seconds * 1e9);
      break;
  }
}

void SweepClock::AddWorkerCall(double call_s, double worker_s) {
  const double gpu_s = std::clamp(worker_s, 0.0, call_s);  // two clocks: never more than the call
  Add(Part::kGpu, gpu_s);
  Add(Part::kWaiting, call_s - gpu_s);
}

SweepTime SweepClock::Split() const {
  SweepTime time;
  time.compile_s = compile_s_;
  time.gpu_s = gpu_s_;
  time.waiting_s = waiting_s_;
  time.wall_s = std::max(SecondsSince(start_), compile_s_ + gpu_s_ + waiting_s_);
  time.overhead_s = time.wall_s - (compile_s_ + gpu_s_ + waiting_s_);
  time.compile_threads_s = static_cast<double>(compile_work_ns_.load()) * 1e-9;
  time.compile_threads = compile_threads_;
  return time;
}

double SweepClock::SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

}  // namespace tuner
