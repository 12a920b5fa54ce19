// A sweep's leaders: its fastest candidates, which are timed again in turns (timing_plan.h), and
// the leaders a GPU model's cards confirmed before.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "db/query/records.h"
#include "db/query/tie_rule.h"

namespace tuner {

// How many leaders are timed in turns at least (and measured again by a revalidation).
constexpr std::size_t kLeaders = 3;
// ... and at most: beyond kLeaders, those that may tie with the fastest (InTurns). 16: on an H100 the
// reduction at 4M elements had more than 8 configurations within 2% (bench/benchmarks.md, run G).
constexpr std::size_t kMostLeadersInTurns = 16;
// How close to the fastest a leader beyond kLeaders must be to be timed in turns: twice the
// reproducibility floor that makes a tie (db/query/tie_rule.h), since the times it is chosen by
// were taken at different moments of the sweep, between which the clocks may drift.
constexpr double kInTurnsReach = 2 * db::kReproducibleFraction;

// A candidate among the fastest of a sweep.
struct Leader {
  std::string params_json;
  double time_ms = 0;
};

// For sweeps on several GPUs of one model: takes this sweep's leaders, waits until every sweep of
// the model has handed in its own (or the command is stopped) and returns all of them, fastest
// first, so that each card times the model's leaders in turns, not only its own.
using LeaderExchange = std::function<std::vector<Leader>(const std::vector<Leader>& own)>;

// The first `count` of `leaders`, fastest first; equal times keep their order (the rule of "best",
// db/query/best.h, for candidates known by params and time alone).
std::vector<Leader> FastestFirst(std::vector<Leader> leaders, std::size_t count);

// The `count` fastest ok candidates of this run's records and then of `stored` (a candidate's time
// in this run counts over its stored one, and among stored ones the first), fastest first.
std::vector<Leader> FastestLeaders(const std::vector<db::MeasurementRecord>& measured,
                                   const std::vector<Leader>& stored, std::size_t count);

// The leaders timed in turns out of `fastest` (fastest first): the kLeaders fastest, then each
// further one within kInTurnsReach of the fastest, kMostLeadersInTurns at most. A tie holds only
// leaders timed in turns together, so one timed alone could never join it, and the tie would
// change with which few were timed in turns.
std::vector<Leader> InTurns(std::vector<Leader> fastest);

// InTurns of this run's and the stored fastest (FastestLeaders).
std::vector<Leader> LeadersInTurns(const std::vector<db::MeasurementRecord>& measured,
                                   const std::vector<Leader>& stored);

// Whether the record was timed in turns with the other leaders.
bool IsConfirmed(const db::MeasurementRecord& record);

// The leaders of a model as its cards confirmed them: the `count` fastest such candidates, each at
// its best card's time. Each card or shard confirms its own fastest, so the model's true fastest
// are among them: the leaders the next run on one card of the model times when it never measured
// one of them (after a merge of shards).
std::vector<Leader> ConfirmedLeaders(const std::vector<db::MeasurementRecord>& model, std::size_t count);

}  // namespace tuner
