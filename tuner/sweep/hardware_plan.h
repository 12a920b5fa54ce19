// Which candidates of a sweep get counters and energy after their timing (--counters, --objective):
// chosen from this run's `ok` records, so that the report can explain the winner.
#pragma once

#include <string>
#include <vector>

#include "db/objective.h"
#include "db/query/records.h"

namespace tuner {

// off: none; winner (the default): the winner, the runners-up and the winner's one-parameter
// neighbours (those its card compares it with), kWinnerCounted at most, so that one CUPTI session
// of a few ranges pays for them; explain: those and one representative of each value of each
// parameter (the winner's neighbour with that value where there is one, else the fastest with that
// value), for the report's charts; all: every `ok` candidate.
enum class CounterMode { kOff, kWinner, kExplain, kAll };

// How many candidates --counters winner counts at most.
constexpr std::size_t kWinnerCounted = 6;

// "off", "winner", "explain" or "all"; throws UsageError naming --counters and the value otherwise.
CounterMode ParseCounterMode(const std::string& text);

struct HardwareWork {
  std::size_t index = 0;  // into the records
  bool counters = false;
  bool energy = false;
};

// In the records' order. `leader_params` are the sweep's leaders, fastest first. The winner is the
// fastest `ok` record (an energy objective's winner is not known before its energy). Energy is
// measured for the winner unless --counters off, and for every `ok` candidate under --counters all
// or an energy objective (what "best" then compares).
std::vector<HardwareWork> PlanHardware(const std::vector<db::MeasurementRecord>& records,
                                       const std::vector<std::string>& leader_params, CounterMode mode,
                                       db::Objective objective);

}  // namespace tuner
