// Replaying a complete stored sweep without a GPU: each strategy's evaluations are answered from
// the stored measurements, to count how many evaluations it needs to come within a tolerance
// (5%) of the sweep's optimum, and to score it as the community's methodology does
// (methodology_score.h), each evaluation charged the compile and run time the sweep records.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "db/query/records.h"
#include "search/methodology_space.h"
#include "search/search_strategy.h"
#include "template/search_space.h"
#include "template/template_spec.h"

namespace tuner {

// The stored sweep does not cover every candidate; the message says how many are missing.
struct IncompleteSweepError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Every candidate of a sweep and its stored outcome.
struct Landscape {
  std::vector<ParamValues> candidates;
  std::vector<ParamSpec> params;
  std::vector<std::optional<double>> time_ms;  // nullopt: the candidate did not succeed
  // What evaluating each candidate cost, as stored: its compile time and its timed runs (samples x
  // median). All 0 when the store does not know (then there is no methodology score).
  std::vector<double> cost_ms;
  std::vector<double> compile_ms;  // of that, the compile's (0 where unknown)

  std::optional<std::size_t> Optimum() const;  // the fastest ok candidate
  std::size_t OkCount() const;
};

// The candidates are the template's, in enumeration order; every one needs a stored record other
// than `skipped`. Throws IncompleteSweepError otherwise.
Landscape LandscapeFromRecords(std::vector<ParamValues> candidates, std::vector<ParamSpec> params,
                               const std::vector<db::MeasurementRecord>& records);
// Without the template: the stored candidates are the space, each parameter's values ascending,
// the candidates in odometer order over those values (brute force's order).
Landscape LandscapeFromRecordsOnly(const std::vector<db::MeasurementRecord>& records);

// How a sweep feeds the strategy, as tune does it: `first_sample` candidates proposed first
// (tune --strategy auto's estimate sample, search/first_sample.h, with the run's seed and warm
// start), and `look_ahead` proposals asked for before a result is in (the compile threads a guided
// search keeps busy, sweep/guided_search.h; 1: one proposal, one result).
// With `compile_threads` > 0 the replay is timed as tune runs it: each proposal compiles for its
// stored compile time on the first free one of those threads from when it is proposed, the GPU
// measures whichever proposal compiled first, for its stored runs plus `gpu_floor_s`; the sample
// compiles from time 0 and the strategy proposes from `search_starts_s(sample)` (the estimate
// settled). 0: untimed, the proposals evaluated in order.
struct ReplayShape {
  std::size_t first_sample = 0;
  std::size_t look_ahead = 1;
  int compile_threads = 0;
  double gpu_floor_s = 0;
  std::function<double(const std::vector<std::size_t>& sample)> search_starts_s{};
};

// One seeded run of a strategy until it stops.
struct SimulatedRun {
  std::size_t evaluations = 0;
  std::optional<std::size_t> evaluations_to_target;  // counting the one that reached it
  std::optional<double> seconds_to_target;           // a timed replay's (ReplayShape::compile_threads)
  double seconds = 0;                                // a timed replay's, until the last evaluation
  std::optional<double> best_ms;
  std::vector<std::size_t> order;  // the candidates in the order evaluated
};
SimulatedRun SimulateRun(const Landscape& landscape, const StrategyOptions& options, double target_ms,
                         const ReplayShape& shape = {});

struct StrategySummary {
  std::string strategy;
  std::size_t runs = 0;
  std::size_t reached = 0;  // runs that came within the tolerance before stopping
  // Over the runs that reached the target; empty when none did.
  std::optional<double> mean_to_target, median_to_target;
  std::optional<std::size_t> min_to_target, max_to_target;
  double mean_evaluations = 0;  // until the strategy stopped
  // A timed replay's: over the runs that reached the target, and over all runs until they stopped.
  std::optional<double> mean_seconds_to_target;
  double mean_seconds = 0;
  double mean_best_ratio = 0;   // best time found / optimum, over runs that found an ok candidate
  // The community's score over the runs (methodology_score.h); empty when the sweep's costs are
  // unknown, with the reason in score_note.
  std::optional<double> methodology_score;
  std::string score_note;
  std::vector<std::vector<std::size_t>> orders;  // each run's candidates in the order evaluated
};

// What evaluating a stored candidate cost: compile_ms plus samples x time_ms_median (0 if unknown).
double EvaluationCostMs(const db::MeasurementRecord& record);

// `runs` runs with seeds options.seed, options.seed + 1, ..., `run_done` called after each (for
// progress). Throws std::invalid_argument when the landscape has no ok candidate.
StrategySummary SimulateStrategy(const Landscape& landscape, const StrategyOptions& options, std::size_t runs,
                                 double tolerance = 0.05, const std::function<void()>& run_done = {},
                                 const MethodologySettings& score_settings = {}, const ReplayShape& shape = {});

}  // namespace tuner
