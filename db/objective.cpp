#include "db/objective.h"

#include <map>
#include <tuple>

#include "db/query/errors.h"

namespace tuner::db {

Objective ParseObjective(const std::string& text) {
  if (text == "time") return Objective::kTime;
  if (text == "energy") return Objective::kEnergy;
  if (text == "edp") return Objective::kEdp;
  throw UsageError("--objective '" + text + "' is not one of time, energy, edp");
}

const char* ToString(Objective objective) {
  switch (objective) {
    case Objective::kTime:
      return "time";
    case Objective::kEnergy:
      return "energy";
    case Objective::kEdp:
      return "edp";
  }
  return "time";
}

std::optional<double> ObjectiveValue(const MeasurementRecord& r, Objective objective) {
  if (!IsOk(r.status)) return std::nullopt;
  if (objective == Objective::kTime) return r.time_ms_median;
  if (!(r.energy_j > 0)) return std::nullopt;
  return objective == Objective::kEnergy ? r.energy_j : r.energy_j * r.time_ms_median * 1e-3;
}

std::optional<MeasurementRecord> BestBy(const std::vector<MeasurementRecord>& records, Objective objective) {
  std::optional<MeasurementRecord> best;
  std::optional<double> best_value;
  for (const MeasurementRecord& r : records) {
    const std::optional<double> value = ObjectiveValue(r, objective);
    if (value && (!best_value || *value < *best_value)) {
      best = r;
      best_value = value;
    }
  }
  return best;
}

std::vector<MeasurementRow> BestRowsBy(const std::vector<MeasurementRow>& rows, Objective objective) {
  std::map<std::tuple<std::string, std::string, std::string>, const MeasurementRow*> best;
  for (const MeasurementRow& row : rows) {
    const std::optional<double> value = ObjectiveValue(row.measurement, objective);
    if (!value) continue;
    const MeasurementRow*& kept = best[{row.gpu.uuid, row.templ.hash, row.size_key}];
    if (!kept || *value < *ObjectiveValue(kept->measurement, objective)) kept = &row;
  }
  std::vector<MeasurementRow> out;
  for (const auto& entry : best) out.push_back(*entry.second);
  return out;
}

double PerfPerJoule(const MeasurementRecord& r) {
  if (!(r.energy_j > 0)) return 0;
  return r.perf_value * r.time_ms_median * 1e-3 / r.energy_j;
}

std::string PerJouleUnit(const std::string& perf_unit) {
  const auto slash = perf_unit.rfind("/s");
  return slash == std::string::npos ? perf_unit + "/J" : perf_unit.substr(0, slash) + "/J";
}

}  // namespace tuner::db
