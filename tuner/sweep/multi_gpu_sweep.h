// Sweeps on several GPUs at once (`tuner tune --gpus all|0,1`): one sweep per GPU, each in its own
// thread with its own worker, all writing through one Store. GPUs of one model share the
// candidates (GPU k of a model's n measures candidates k, k+n, ...), then each of them checks and
// times the model's three fastest in turns on its own card, since cards of one model differ by a
// few percent; different models each tune fully and get their own best.
#pragma once

#include <string>
#include <vector>

#include "cuda/device.h"
#include "db/query/gpu_model.h"
#include "db/query/store.h"
#include "sweep/sweep.h"

namespace tuner {

// --gpus checked for form, before any GPU is looked for: "all" gives an empty list, otherwise the
// indices. Throws UsageError naming --gpus.
std::vector<int> ParseGpuList(const std::string& text);

// "all" or a comma-separated list of indices. Throws NoGpuError without GPUs, UsageError for an
// index that is not a GPU of this machine or a malformed list.
std::vector<GpuInfo> SelectGpus(const std::string& text);

// One SweepOptions per GPU: `base` with the GPU's index, its share of its model's candidates and,
// for a shared model, the exchange where its cards meet to compare their leaders.
std::vector<SweepOptions> ShareByModel(const SweepOptions& base, const std::vector<GpuInfo>& gpus);

// Runs the sweeps concurrently; an error in one is rethrown after all have stopped.
std::vector<SweepOutcome> RunSweeps(const TemplateSpec& spec, const std::vector<SweepOptions>& sweeps,
                                    db::Store& store);

// The model of a card of this machine: GPUs of one model share the candidates, as they share what
// is stored when a sweep resumes.
db::GpuModel ModelOf(const GpuInfo& gpu);

}  // namespace tuner
