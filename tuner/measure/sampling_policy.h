// How long one candidate is timed: how many samples, when to stop, the time cap. It runs in the
// worker, beside the samples it decides on (worker_protocol.h says why); the supervisor sends only
// the best time so far and whether this is a first pass's estimate.
#pragma once

#include <chrono>
#include <functional>
#include <string>
#include <vector>

namespace tuner {

struct SamplingPolicy {
  double time_cap_ms = 300;  // for the samples of one candidate
  int min_samples = 5;
  int max_samples = 200;
  double target_spread = 0.01;  // stop once (p75 - p25) / median is below this
  // Candidates far slower than the best so far cannot win, so they get few samples.
  double far_slower = 3.0;  // one sample
  double slower = 1.5;      // a few samples
  int few_samples = 3;
  // A candidate whose checked launch alone takes this much longer than the best, and long enough
  // that loading the module cannot account for it, is not timed again.
  double hopeless = 5.0;
  double hopeless_min_ms = 2.0;
  // back_to_back and graph: a batch lasts about this long. The events around it resolve about half
  // a microsecond and a graph's replay costs a few microseconds of its own, so a millisecond keeps
  // both under 1% of the batch while a sample still takes no longer than a flushed launch of a
  // millisecond kernel.
  double batch_ms = 1.0;
  // ... with at most this many launches: the graph of a 1 us kernel (512 nodes) still instantiates
  // in a few milliseconds.
  int max_batch_launches = 512;
};

// What the sampling of one candidate starts from.
struct SamplingStart {
  double checked_ms = 0;       // the checked (first) launch, which also loaded the module; 0: none
  double best_ms = 0;          // the best median so far; 0: none yet
  bool estimate_only = false;  // one timed launch: the first pass of a two-pass sweep
};

struct Samples {
  std::vector<double> times_ms;
  std::string note;  // why the candidate was timed less than fully; "" when it was not
};

using SampleClock = std::function<std::chrono::steady_clock::time_point()>;

// The launches of one batch, from a launch's time back to back (`launch_ms`): the power of two
// nearest batch_ms / launch_ms (on a log scale), between 1 (a kernel of a millisecond or more) and
// max_batch_launches (also for a time of 0 or less). A power of two, so that the few percent a
// kernel's time varies between processes does not change the batch, and with it the graph's
// replay overhead each launch carries: fresh processes time the same thing.
int BatchLaunches(const SamplingPolicy& policy, double launch_ms);

// The launches to time together to know a launch's time back to back: while `batch_ms(n)` of n
// launches stays under this, n grows eightfold (so a 2 us kernel is timed over 512 launches, not
// one, whose time is mostly the launch's own latency).
inline constexpr double kCalibrationMs = 0.1;

// Takes the samples the policy asks for from `sample` (one timed run, in milliseconds).
Samples TakeSamples(const SamplingPolicy& policy, const SamplingStart& start, const std::function<double()>& sample,
                    const SampleClock& now = std::chrono::steady_clock::now);

}  // namespace tuner
