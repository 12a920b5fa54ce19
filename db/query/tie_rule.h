// The tie rule: when a sweep's leaders cannot be told apart by their timing noise, the lower median
// wins only by chance, so the winner among them is chosen by a fixed rule instead:
//   1. fewer registers per thread;
//   2. then less shared memory per block;
//   3. then the earlier configuration in the template's order (the order its search space
//      enumerates them in).
// The indistinguishable group is the fastest leader and every leader within the noise of it (both
// with at least kMinSamplesToCompare samples and their medians no further apart than NoiseMs: their
// interquartile ranges together, or the reproducibility floor when that is wider). The sweep decides the tie once its leaders are timed in turns and stores it
// with the members (tie_ms, tie_rank: db/query/records.h); every ranking (db/query/best.h, the
// store's best_per_gpu) then serves the chosen member, so `tune`, `query` and the library agree.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "db/query/records.h"

namespace tuner::db {

// Fewer samples than this say nothing about the spread: no tie (nor a verdict) is made of them.
inline constexpr int kMinSamplesToCompare = 5;

// The reproducibility floor: medians closer than this fraction of the faster one are within noise,
// however small their interquartile ranges. An IQR is the spread within one run; in the graph and
// back_to_back modes a sample is the mean of a batch of launches, so it is tiny (0.1-0.3%), while
// fresh processes differ by more: where the allocator placed the buffers, the clocks the GPU chose.
// On an H100 (bench/benchmarks.md, run E: 20 fresh processes per template) the winners that took
// each other's place between processes were about 1-3% apart, far more than their IQRs; 2% ties
// most of those without tying kernels that differ by more than a user would notice.
// bench/bench_reproducibility.sh prints each winner's spread across processes: the evidence to
// revisit this fraction with.
inline constexpr double kReproducibleFraction = 0.02;

// A record's interquartile range in milliseconds (spread x median).
double IqrMs(const MeasurementRecord& record);

// The noise between two records' medians (ms): their interquartile ranges together, or
// kReproducibleFraction of the faster median when that is wider. The tie, the "distinguishable"
// verdict (tuner/sweep/leader_summary.h) and revalidation's "beyond the noise" all use it.
double NoiseMs(const MeasurementRecord& a, const MeasurementRecord& b);

// Whether two ok records are within their noise: both have enough samples and their medians lie
// no further apart than NoiseMs.
bool WithinNoise(const MeasurementRecord& a, const MeasurementRecord& b);

// Which step of the rule chose between the first two members.
enum class TieBreak { kFewerRegisters, kLessSharedMemory, kTemplateOrder };
std::string ToString(TieBreak rule);  // "fewer_registers", "less_shared_memory", "template_order"
std::string Describe(TieBreak rule);  // "fewer registers", "less shared memory", "the template's order"

// A leader and its place in the template's order of configurations.
struct TieCandidate {
  MeasurementRecord record;
  std::size_t order = 0;
};

struct Tie {
  std::vector<MeasurementRecord> members;  // by the rule: the chosen one first
  TieBreak chosen_by = TieBreak::kTemplateOrder;
  double time_ms = 0;   // the fastest member's median: the time every member ranks at
  double noise_ms = 0;  // the widest noise within which a member lies of the fastest
};

// The tie among `leaders` (ok records; any order), if two or more of them are within the noise of
// the fastest; none when the fastest is told apart from the others or has too few samples.
std::optional<Tie> DecideTie(const std::vector<TieCandidate>& leaders);

// The members with their place in the tie stamped on them: tie_ms the tie's time, tie_rank 1, 2, ...
std::vector<MeasurementRecord> Stamped(const Tie& tie);

// The tie stored among `records` (their members: tie_rank > 0, by rank), if any.
std::optional<Tie> StoredTie(const std::vector<MeasurementRecord>& records);

}  // namespace tuner::db
