#include "sweep/hardware_plan.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "common/errors.h"
#include "db/objective.h"
#include "template/search_space.h"

namespace tuner {

CounterMode ParseCounterMode(const std::string& text) {
  if (text == "off") return CounterMode::kOff;
  if (text == "leaders") return CounterMode::kLeaders;
  if (text == "all") return CounterMode::kAll;
  throw UsageError("--counters '" + text + "' is not one of all, leaders, off");
}

namespace {

bool Ok(const db::MeasurementRecord& r) { return db::IsOk(r.status); }

// How many parameters two candidates differ in (of the same template: same names, same order).
std::size_t Differences(const ParamValues& a, const ParamValues& b) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) count += a[i].second != b[i].second;
  return count + (a.size() > b.size() ? a.size() - b.size() : b.size() - a.size());
}

// The parameter in which `a` differs from `fastest` when it is the only one, else nullopt.
std::optional<std::string> OnlyDifference(const ParamValues& a, const ParamValues& fastest) {
  if (a.size() != fastest.size() || Differences(a, fastest) != 1) return std::nullopt;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].second != fastest[i].second) return a[i].first;
  return std::nullopt;
}

// The leaders, and one representative of each value of each parameter: the fastest's one-parameter
// neighbour with that value (so the winner's card can compare every neighbour in counters), the
// fastest itself for its own values, else the fastest candidate with that value (for the charts).
std::set<std::size_t> Explaining(const std::vector<db::MeasurementRecord>& records,
                                 const std::vector<std::string>& leader_params) {
  std::set<std::size_t> chosen;
  std::vector<ParamValues> params(records.size());
  const std::optional<std::size_t> fastest = db::BestIndex(records, db::Objective::kTime);
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (!Ok(records[i])) continue;
    params[i] = ParamsFromJson(records[i].params_json);
    if (std::find(leader_params.begin(), leader_params.end(), records[i].params_json) != leader_params.end())
      chosen.insert(i);
  }
  if (!fastest) return chosen;
  // (parameter, value) -> (0: the fastest or its neighbour in that parameter, 1: another; the time), the index.
  std::map<std::pair<std::string, long long>, std::pair<std::pair<int, double>, std::size_t>> representative;
  const auto offer = [&](const std::pair<std::string, long long>& value, int rank, std::size_t i) {
    const std::pair<int, double> key{rank, records[i].time_ms_median};
    const auto known = representative.find(value);
    if (known == representative.end() || key < known->second.first) representative[value] = {key, i};
  };
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (!Ok(records[i])) continue;
    const std::optional<std::string> differs_in = OnlyDifference(params[i], params[*fastest]);
    for (const auto& value : params[i])
      offer(value, i == *fastest || (differs_in && *differs_in == value.first) ? 0 : 1, i);
  }
  for (const auto& [value, ranked] : representative) chosen.insert(ranked.second);
  return chosen;
}

}  // namespace

std::vector<HardwareWork> PlanHardware(const std::vector<db::MeasurementRecord>& records,
                                       const std::vector<std::string>& leader_params, CounterMode mode,
                                       db::Objective objective) {
  const bool energy_for_all = mode == CounterMode::kAll || objective != db::Objective::kTime;
  if (mode == CounterMode::kOff && !energy_for_all) return {};
  const std::set<std::size_t> explaining =
      mode == CounterMode::kLeaders ? Explaining(records, leader_params) : std::set<std::size_t>{};
  std::vector<HardwareWork> plan;
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (!Ok(records[i])) continue;
    const bool leader =
        std::find(leader_params.begin(), leader_params.end(), records[i].params_json) != leader_params.end();
    HardwareWork work{i, mode == CounterMode::kAll || explaining.count(i) > 0,
                      energy_for_all || (leader && mode != CounterMode::kOff)};
    if (work.counters || work.energy) plan.push_back(work);
  }
  return plan;
}

}  // namespace tuner
