// How a sweep's fastest candidates compare: how many samples each median comes from, their spread,
// and whether the winner is told apart from the runner-up by more than the timing noise.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "db/query/records.h"
#include "db/query/tie_rule.h"

namespace tuner {

// The reason a leader timed again in turns with the others carries (sweep.cpp writes it).
inline constexpr const char* kConfirmedReasonPrefix = "confirmed:";

// Fewer samples than this say nothing about the spread.
inline constexpr int kMinSamplesToCompare = db::kMinSamplesToCompare;

struct LeaderStanding {
  db::MeasurementRecord record;
  double iqr_ms = 0;       // interquartile range: spread x median
  bool confirmed = false;  // timed again in turns with the other leaders
};

enum class Separation {
  kNoRunnerUp,       // fewer than two ok candidates
  kTooFewSamples,    // the winner or the runner-up has fewer than kMinSamplesToCompare samples
  kDistinguishable,  // gap > db::NoiseMs: their interquartile ranges cannot overlap, nor is the gap
                     // within what fresh processes vary by (db::kReproducibleFraction)
  kWithinNoise,      // otherwise: another run may rank them the other way round
};

struct LeaderSummary {
  std::vector<LeaderStanding> leaders;  // best first (db/query/best.h: a tie's chosen member first)
  Separation separation = Separation::kNoRunnerUp;
  double gap_ms = 0;           // between the winner's and the runner-up's medians
  double noise_ms = 0;         // db::NoiseMs: the IQRs together, at least the reproducibility floor
  std::optional<db::Tie> tie;  // the tie its sweep stored, when the leaders were within their noise
};

// The `count` best `ok` records, how the first two compare, and their tie.
LeaderSummary SummariseLeaders(const std::vector<db::MeasurementRecord>& records, std::size_t count = 3);

// "distinguishable", "within_noise", "too_few_samples", "no_runner_up" (the JSON contract).
std::string ToString(Separation separation);

// One sentence on the winner against the runner-up, for the text summary; for a tie,
// "tie of 3 within noise (±1.2%): chosen by fewer registers: {...}".
std::string DescribeSeparation(const LeaderSummary& summary);

// The leaders as a table (rank, parameters, median, IQR, samples, confirmed), then that sentence.
void PrintLeaders(const LeaderSummary& summary, std::ostream& out);

// {"leaders": [{params, time_ms, iqr_ms, spread, samples, confirmed}, ...], "winner_vs_runner_up":
// {"separation", "distinguishable", "gap_ms", "noise_ms"}, "tie": null or {"members": [{params,
// time_ms, spread, samples, regs_per_thread, smem_bytes}, ...] (chosen first), "chosen": params,
// "rule": "fewer_registers" | "less_shared_memory" | "template_order", "rule_order": [those three],
// "time_ms", "noise_ms", "noise_percent"}}.
nlohmann::json ToJson(const LeaderSummary& summary);

}  // namespace tuner
