#include "db/objective.h"

#include <map>
#include <tuple>

#include "base/errors.h"

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
  if (objective == Objective::kTime) return RankingMs(r);  // a tie's members rank at the tie's time
  if (!(r.energy_j > 0)) return std::nullopt;
  return objective == Objective::kEnergy ? r.energy_j : r.energy_j * r.time_ms_median * 1e-3;
}

Standing StandingOf(const MeasurementRecord& record, Objective objective) {
  return {ObjectiveValue(record, objective), RankingMs(record), record.id, record.tie_rank};
}

std::optional<std::size_t> BestIndex(const std::vector<MeasurementRecord>& records, Objective objective) {
  std::optional<std::size_t> best;
  std::optional<Standing> best_standing;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const Standing standing = StandingOf(records[i], objective);
    if (CanWin(standing) && (!best_standing || RanksBefore(standing, *best_standing))) {
      best = i;
      best_standing = standing;
    }
  }
  return best;
}

std::optional<MeasurementRecord> BestBy(const std::vector<MeasurementRecord>& records, Objective objective) {
  const std::optional<std::size_t> best = BestIndex(records, objective);
  if (!best) return std::nullopt;
  return records[*best];
}

std::vector<MeasurementRow> BestRowsBy(const std::vector<MeasurementRow>& rows, Objective objective) {
  std::map<std::tuple<std::string, std::string, std::string>, const MeasurementRow*> best;
  for (const MeasurementRow& row : rows) {
    const Standing standing = StandingOf(row.measurement, objective);
    if (!CanWin(standing)) continue;
    const MeasurementRow*& kept = best[{row.gpu.uuid, row.templ.hash, row.size_key}];
    if (!kept || RanksBefore(standing, StandingOf(kept->measurement, objective))) kept = &row;
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
