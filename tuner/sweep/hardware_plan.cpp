#include "sweep/hardware_plan.h"

#include <algorithm>
#include <map>
#include <set>

#include "common/errors.h"
#include "template/search_space.h"

namespace tuner {

CounterMode ParseCounterMode(const std::string& text) {
  if (text == "off") return CounterMode::kOff;
  if (text == "leaders") return CounterMode::kLeaders;
  if (text == "all") return CounterMode::kAll;
  throw UsageError("--counters '" + text + "' is not one of all, leaders, off");
}

namespace {

bool Ok(const db::MeasurementRecord& r) { return r.status == "ok"; }

// How many parameters two candidates differ in (of the same template: same names, same order).
std::size_t Differences(const ParamValues& a, const ParamValues& b) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) count += a[i].second != b[i].second;
  return count + (a.size() > b.size() ? a.size() - b.size() : b.size() - a.size());
}

// The leaders, the fastest's one-parameter neighbours, and the fastest of each parameter value.
std::set<std::size_t> Explaining(const std::vector<db::MeasurementRecord>& records, const std::vector<std::string>& leader_params) {
  std::set<std::size_t> chosen;
  std::vector<ParamValues> params(records.size());
  std::optional<std::size_t> fastest;
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (!Ok(records[i])) continue;
    params[i] = ParamsFromJson(records[i].params_json);
    if (std::find(leader_params.begin(), leader_params.end(), records[i].params_json) != leader_params.end()) chosen.insert(i);
    if (!fastest || records[i].time_ms_median < records[*fastest].time_ms_median) fastest = i;
  }
  if (!fastest) return chosen;
  std::map<std::pair<std::string, long long>, std::size_t> fastest_of_value;
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (!Ok(records[i])) continue;
    if (Differences(params[i], params[*fastest]) <= 1) chosen.insert(i);
    for (const auto& value : params[i]) {
      const auto known = fastest_of_value.find(value);
      if (known == fastest_of_value.end() || records[i].time_ms_median < records[known->second].time_ms_median)
        fastest_of_value[value] = i;
    }
  }
  for (const auto& [value, index] : fastest_of_value) chosen.insert(index);
  return chosen;
}

}  // namespace

std::vector<HardwareWork> PlanHardware(const std::vector<db::MeasurementRecord>& records,
                                       const std::vector<std::string>& leader_params, CounterMode mode,
                                       db::Objective objective) {
  const bool energy_for_all = mode == CounterMode::kAll || objective != db::Objective::kTime;
  if (mode == CounterMode::kOff && !energy_for_all) return {};
  const std::set<std::size_t> explaining = mode == CounterMode::kLeaders ? Explaining(records, leader_params) : std::set<std::size_t>{};
  std::vector<HardwareWork> plan;
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (!Ok(records[i])) continue;
    const bool leader = std::find(leader_params.begin(), leader_params.end(), records[i].params_json) != leader_params.end();
    HardwareWork work{i, mode == CounterMode::kAll || explaining.count(i) > 0,
                      energy_for_all || (leader && mode != CounterMode::kOff)};
    if (work.counters || work.energy) plan.push_back(work);
  }
  return plan;
}

}  // namespace tuner
