#include "sweep/sweep_tie.h"

#include <algorithm>

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
  std::vector<db::TieCandidate> candidates;
  for (const Leader& leader : leaders) {
    const std::optional<std::size_t> entry = EntryOf(measured, leader.params_json);
    if (!entry || !IsConfirmed(measured[*entry])) return {};  // times of different runs are not compared
    candidates.push_back({measured[*entry], OrderOf(leader.params_json, enumeration)});
  }
  const std::optional<db::Tie> tie = db::DecideTie(candidates);
  if (!tie) return {};
  std::vector<std::pair<std::size_t, db::MeasurementRecord>> stamped;
  for (db::MeasurementRecord& member : db::Stamped(*tie))
    stamped.emplace_back(*EntryOf(measured, member.params_json), std::move(member));
  return stamped;
}

}  // namespace tuner
