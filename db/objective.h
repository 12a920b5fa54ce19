// What "best" means (--objective of tune and query): the shortest time, the least energy per
// launch, or the least energy-delay product (joules x seconds per launch). Energy is measured only
// for some candidates, so the energy objectives choose among those.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "db/query/best.h"
#include "db/query/records.h"
#include "db/query/store.h"

namespace tuner::db {

enum class Objective { kTime, kEnergy, kEdp };

// "time", "energy" or "edp"; throws UsageError naming --objective and the value otherwise.
Objective ParseObjective(const std::string& text);
const char* ToString(Objective objective);

// The objective's value of an `ok` record (lower is better; the time is RankingMs, db/query/best.h), or nullopt when it
// lacks what the objective needs (not ok, or no energy measured).
std::optional<double> ObjectiveValue(const MeasurementRecord& record, Objective objective);

// A record's standing by the objective (db/query/best.h: the one rule of "best").
Standing StandingOf(const MeasurementRecord& record, Objective objective);

// The best of `records` by the rule (equal standings: the earlier in the list), if any has the
// objective's value; its index or a copy.
std::optional<std::size_t> BestIndex(const std::vector<MeasurementRecord>& records, Objective objective);
std::optional<MeasurementRecord> BestBy(const std::vector<MeasurementRecord>& records, Objective objective);

// The best row by the rule of each (GPU card, template version, size) among `rows` (ok rows with
// what the objective needs; ties: the lower measurement id): the input of SelectBest
// (db/query/selection.h) for --objective.
std::vector<MeasurementRow> BestRowsBy(const std::vector<MeasurementRow>& rows, Objective objective);

// perf_value (per second) over joules: the work of one launch per joule, GB/J or GFLOP/J (0 when
// no energy was measured), and the unit ("GB/s" becomes "GB/J").
double PerfPerJoule(const MeasurementRecord& record);
std::string PerJouleUnit(const std::string& perf_unit);

}  // namespace tuner::db
