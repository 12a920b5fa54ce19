#include "sweep/hardware_plan.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "base/errors.h"
#include "db/objective.h"
#include "template/search_space.h"

namespace tuner {

CounterMode ParseCounterMode(const std::string& text) {
  if (text == "off") return CounterMode::kOff;
  if (text == "winner") return CounterMode::kWinner;
  if (text == "explain") return CounterMode::kExplain;
  if (text == "all") return CounterMode::kAll;
  const std::string former = text == "leaders" ? " ('leaders', the former default, is now 'explain')" : "";
  throw UsageError("--counters '" + text + "' is not one of all, explain, off, winner" + former);
}

namespace {

bool Ok(const db::MeasurementRecord& r) { return IsOk(r.status); }

// How many parameters two candidates differ in (of the same template: same names, same order).
std::size_t Differences(const ParamValues& a, const ParamValues& b) {
  std::size_t count = 0;
  for (std::size_t i = 0; i < a.size() && i < b.size(); ++i) count += a[i].second != b[i].second;
  return count + (a.size() > b.size() ? a.size() - b.size() : b.size() - a.size());
}

// The parameter in which `a` differs from `winner` when it is the only one, else nullopt.
std::optional<std::string> OnlyDifference(const ParamValues& a, const ParamValues& winner) {
  if (a.size() != winner.size() || Differences(a, winner) != 1) return std::nullopt;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (a[i].second != winner[i].second) return a[i].first;
  return std::nullopt;
}

// The `ok` records' parameters and the fastest of them, the winner whose card the counters explain.
struct Field {
  const std::vector<db::MeasurementRecord>& records;
  std::vector<ParamValues> params;
  std::size_t winner = 0;
};

// The winner's one-parameter neighbours in the order their counters are worth most: in turns over
// the parameters, each parameter's slowest first (its card's most telling comparison: the largest
// speedup, where a counter most likely differs), the slower first within a turn.
std::vector<std::size_t> NeighboursByWorth(const Field& field) {
  std::map<std::string, std::vector<std::size_t>> by_parameter;
  for (std::size_t i = 0; i < field.records.size(); ++i)
    if (Ok(field.records[i]) && i != field.winner)
      if (const auto name = OnlyDifference(field.params[i], field.params[field.winner])) by_parameter[*name].push_back(i);
  const auto slower = [&](std::size_t a, std::size_t b) {
    return field.records[a].time_ms_median > field.records[b].time_ms_median;
  };
  std::vector<std::pair<std::size_t, std::size_t>> turns;  // (turn, index)
  for (auto& [name, group] : by_parameter) {
    std::stable_sort(group.begin(), group.end(), slower);
    for (std::size_t turn = 0; turn < group.size(); ++turn) turns.emplace_back(turn, group[turn]);
  }
  std::stable_sort(turns.begin(), turns.end(), [&](const auto& a, const auto& b) {
    return a.first != b.first ? a.first < b.first : slower(a.second, b.second);
  });
  std::vector<std::size_t> neighbours;
  for (const auto& turn : turns) neighbours.push_back(turn.second);
  return neighbours;
}

// The winner, the runners-up among the leaders, then its neighbours by worth: kWinnerCounted
// distinct configurations at most.
std::set<std::size_t> WinnerAndComparisons(const Field& field, const std::vector<std::string>& leader_params) {
  std::vector<std::size_t> order{field.winner};
  for (const std::string& leader : leader_params)
    for (std::size_t i = 0; i < field.records.size(); ++i)
      if (Ok(field.records[i]) && field.records[i].params_json == leader) order.push_back(i);
  for (std::size_t i : NeighboursByWorth(field)) order.push_back(i);
  std::set<std::size_t> chosen;
  std::set<std::string> configurations;
  for (std::size_t i : order) {
    if (chosen.size() == kWinnerCounted) break;
    if (configurations.insert(field.records[i].params_json).second) chosen.insert(i);
  }
  return chosen;
}

// One representative of each value of each parameter: the winner's one-parameter neighbour with
// that value (so the winner's card can compare every neighbour in counters), the winner itself for
// its own values, else the fastest candidate with that value (for the charts).
std::set<std::size_t> Representatives(const Field& field) {
  // (parameter, value) -> (0: the winner or its neighbour in that parameter, 1: another; the time), the index.
  std::map<std::pair<std::string, long long>, std::pair<std::pair<int, double>, std::size_t>> representative;
  const auto offer = [&](const std::pair<std::string, long long>& value, int rank, std::size_t i) {
    const std::pair<int, double> key{rank, field.records[i].time_ms_median};
    const auto known = representative.find(value);
    if (known == representative.end() || key < known->second.first) representative[value] = {key, i};
  };
  for (std::size_t i = 0; i < field.records.size(); ++i) {
    if (!Ok(field.records[i])) continue;
    const std::optional<std::string> differs_in = OnlyDifference(field.params[i], field.params[field.winner]);
    for (const auto& value : field.params[i])
      offer(value, i == field.winner || (differs_in && *differs_in == value.first) ? 0 : 1, i);
  }
  std::set<std::size_t> chosen;
  for (const auto& [value, ranked] : representative) chosen.insert(ranked.second);
  return chosen;
}

// What gets counters under winner or explain (none without an `ok` record).
std::set<std::size_t> Counted(const std::vector<db::MeasurementRecord>& records,
                              const std::vector<std::string>& leader_params, CounterMode mode) {
  const std::optional<std::size_t> fastest = db::BestIndex(records, db::Objective::kTime);
  if (!fastest) return {};
  Field field{records, std::vector<ParamValues>(records.size()), *fastest};
  for (std::size_t i = 0; i < records.size(); ++i)
    if (Ok(records[i])) field.params[i] = ParamsFromJson(records[i].params_json);
  std::set<std::size_t> counted = WinnerAndComparisons(field, leader_params);
  if (mode == CounterMode::kExplain)
    for (std::size_t i : Representatives(field)) counted.insert(i);
  return counted;
}

}  // namespace

std::vector<HardwareWork> PlanHardware(const std::vector<db::MeasurementRecord>& records,
                                       const std::vector<std::string>& leader_params, CounterMode mode,
                                       db::Objective objective) {
  const bool energy_for_all = mode == CounterMode::kAll || objective != db::Objective::kTime;
  if (mode == CounterMode::kOff && !energy_for_all) return {};
  const bool chosen_few = mode == CounterMode::kWinner || mode == CounterMode::kExplain;
  const std::set<std::size_t> counted = chosen_few ? Counted(records, leader_params, mode) : std::set<std::size_t>{};
  const std::optional<std::size_t> winner =
      mode == CounterMode::kOff ? std::nullopt : db::BestIndex(records, db::Objective::kTime);
  std::vector<HardwareWork> plan;
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (!Ok(records[i])) continue;
    HardwareWork work{i, mode == CounterMode::kAll || counted.count(i) > 0, energy_for_all || winner == i};
    if (work.counters || work.energy) plan.push_back(work);
  }
  return plan;
}

}  // namespace tuner
