#include "measure/sampling_policy.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "measure/sample_stats.h"

namespace tuner {

namespace {

std::string SlowerNote(const char* format, double ratio) {
  char text[112];
  std::snprintf(text, sizeof text, format, ratio);
  return text;
}

}  // namespace

int BatchLaunches(const SamplingPolicy& policy, double launch_ms) {
  if (!(launch_ms > 0)) return policy.max_batch_launches;
  const double power = std::round(std::log2(policy.batch_ms / launch_ms));
  const double launches = std::exp2(std::max(power, 0.0));
  return static_cast<int>(std::clamp(launches, 1.0, static_cast<double>(policy.max_batch_launches)));
}

Samples TakeSamples(const SamplingPolicy& policy, const SamplingStart& start, const std::function<double()>& sample,
                    const SampleClock& now) {
  if (start.estimate_only)  // a long checked launch is its own estimate; a short one may be mostly loading the module
    return {{start.checked_ms > policy.hopeless_min_ms ? start.checked_ms : sample()},
            "estimated from one launch (first pass); timed further only if close to the best"};
  if (start.best_ms > 0 && start.checked_ms > policy.hopeless * start.best_ms &&
      start.checked_ms > policy.hopeless_min_ms)
    return {{start.checked_ms},
            SlowerNote("timed once (the checked launch): %.1fx slower than the best so far",
                       start.checked_ms / start.best_ms)};
  const auto deadline = now() + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                    std::chrono::duration<double, std::milli>(policy.time_cap_ms));
  Samples samples{{sample()}, ""};
  const double ratio = start.best_ms > 0 ? samples.times_ms[0] / start.best_ms : 0;
  int wanted = policy.max_samples;
  if (ratio > policy.slower) {
    wanted = ratio > policy.far_slower ? 1 : policy.few_samples;
    samples.note = SlowerNote("sampled briefly: %.1fx slower than the best so far", ratio);
  }
  std::vector<double>& times = samples.times_ms;
  while (static_cast<int>(times.size()) < wanted) {
    times.push_back(sample());
    if (!samples.note.empty() || static_cast<int>(times.size()) < policy.min_samples) continue;
    if (now() > deadline || Summarise(times).spread < policy.target_spread) break;
  }
  return samples;
}

}  // namespace tuner
