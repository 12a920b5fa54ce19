// Sweeps on several GPUs at once (`tuner tune --gpus all|0,1`): one sweep per GPU, each in its own
// thread with its own worker, all writing through one Store. GPUs of one model share the
// candidates (GPU k of a model's n measures candidates k, k+n, ...), then each of them checks and
// times the model's three fastest in turns on its own card, since cards of one model differ by a
// few percent; different models each tune fully and get their own best.
#pragma once

#include <vector>

#include "cuda/device.h"
#include "db/query/store.h"
#include "sweep/sweep.h"

namespace tuner {

// One GPU's sweep of several: the GPU, found once by the command, and its options.
struct GpuSweep {
  GpuInfo gpu;
  SweepOptions options;
};

// One sweep per GPU: `base` with the GPU's share of its model's candidates and, for a shared model,
// the exchange where its cards meet to compare their leaders.
std::vector<GpuSweep> ShareByModel(const SweepOptions& base, const std::vector<GpuInfo>& gpus);

// Runs the sweeps concurrently; an error in one is rethrown after all have stopped.
std::vector<SweepOutcome> RunSweeps(const SweepTarget& target, const std::vector<GpuSweep>& sweeps, db::Store& store);

}  // namespace tuner
