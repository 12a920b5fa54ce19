// Which candidates of a sweep get counters and energy after their timing (--counters, --objective):
// chosen from this run's `ok` records, so that the report can explain the winner.
#pragma once

#include <string>
#include <vector>

#include "db/objective.h"
#include "db/query/records.h"

namespace tuner {

// off: none; leaders (the default): the leaders and one representative of each value of each
// parameter (the fastest's one-parameter neighbour with that value where there is one, else the
// fastest with that value); all: every `ok` candidate.
enum class CounterMode { kOff, kLeaders, kAll };

// "off", "leaders" or "all"; throws UsageError naming --counters and the value otherwise.
CounterMode ParseCounterMode(const std::string& text);

struct HardwareWork {
  std::size_t index = 0;  // into the records
  bool counters = false;
  bool energy = false;
};

// In the records' order. Energy is measured for the leaders unless --counters off, and for every
// `ok` candidate under --counters all or an energy objective (what "best" then compares).
std::vector<HardwareWork> PlanHardware(const std::vector<db::MeasurementRecord>& records,
                                       const std::vector<std::string>& leader_params, CounterMode mode,
                                       db::Objective objective);

}  // namespace tuner
