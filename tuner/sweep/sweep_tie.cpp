#include "sweep/sweep_tie.h"

#include <algorithm>
#include <cmath>

#include "db/query/tie_rule.h"

namespace tuner {

namespace {

std::size_t OrderOf(const std::string& params_json, const std::vector<ParamValues>& enumeration) {
  const auto found = std::find_if(enumeration.begin(), enumeration.end(),
                                  [&](const ParamValues& p) { return ParamsJson(p) == params_json; });
  return static_cast<std::size_t>(found - enumeration.begin());  // not enumerated: after every one
}

std::optional<std::size_t> EntryOf(const std::vector<db::MeasurementRecord>& measured, const std::string& params_json) {
  const auto found = std::find_if(measured.begin(), measured.end(),
                                  [&](const db::MeasurementRecord& r) { return r.params_json == params_json; });
  if (found == measured.end()) return std::nullopt;
  return static_cast<std::size_t>(found - measured.begin());
}

}  // namespace

std::vector<std::pair<std::size_t, db::MeasurementRecord>> StampedTie(
    const std::vector<db::MeasurementRecord>& measured, const std::vector<Leader>& leaders,
    const std::vector<ParamValues>& enumeration) {
  // Only times taken in turns by this run are compared: a stored leader (another run's time) or one
  // that became a leader only through the times in turns cannot join the tie; one that is faster
  // than every leader timed in turns wins by its time, with no tie.
  std::vector<db::TieCandidate> candidates;
  double fastest_elsewhere_ms = HUGE_VAL;
  for (const Leader& leader : leaders) {
    const std::optional<std::size_t> entry = EntryOf(measured, leader.params_json);
    if (entry && IsConfirmed(measured[*entry]))
      candidates.push_back({measured[*entry], OrderOf(leader.params_json, enumeration)});
    else
      fastest_elsewhere_ms = std::min(fastest_elsewhere_ms, leader.time_ms);
  }
  const std::optional<db::Tie> tie = db::DecideTie(candidates);
  if (!tie || fastest_elsewhere_ms < tie->time_ms) return {};
  std::vector<std::pair<std::size_t, db::MeasurementRecord>> stamped;
  for (db::MeasurementRecord& member : db::Stamped(*tie))
    stamped.emplace_back(*EntryOf(measured, member.params_json), std::move(member));
  return stamped;
}

}  // namespace tuner
