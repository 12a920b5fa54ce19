#include "sweep/leaders.h"

#include <algorithm>
#include <map>

#include "db/query/best.h"
#include "sweep/leader_summary.h"
#include "template/search_space.h"

namespace tuner {

std::vector<Leader> FastestFirst(std::vector<Leader> leaders, std::size_t count) {
  std::stable_sort(leaders.begin(), leaders.end(), [](const Leader& a, const Leader& b) {
    return db::RanksBefore({a.time_ms, a.time_ms, 0}, {b.time_ms, b.time_ms, 0});
  });
  if (leaders.size() > count) leaders.resize(count);
  return leaders;
}

std::vector<Leader> FastestLeaders(const std::vector<db::MeasurementRecord>& measured,
                                   const std::vector<Leader>& stored, std::size_t count) {
  std::vector<Leader> leaders;
  for (const db::MeasurementRecord& r : measured)
    if (IsOk(r.status)) leaders.push_back({r.params_json, r.time_ms_median});
  for (const Leader& s : stored)  // after this run's: a candidate's newest time counts
    if (std::none_of(leaders.begin(), leaders.end(), [&](const Leader& l) { return l.params_json == s.params_json; }))
      leaders.push_back(s);
  return FastestFirst(std::move(leaders), count);
}

std::vector<Leader> InTurns(std::vector<Leader> fastest) {
  std::size_t keep = std::min(fastest.size(), kLeaders);
  while (keep < std::min(fastest.size(), kMostLeadersInTurns) &&
         fastest[keep].time_ms <= (1 + kInTurnsReach) * fastest.front().time_ms)
    ++keep;
  fastest.resize(keep);
  return fastest;
}

std::vector<Leader> LeadersInTurns(const std::vector<db::MeasurementRecord>& measured,
                                   const std::vector<Leader>& stored) {
  return InTurns(FastestLeaders(measured, stored, kMostLeadersInTurns));
}

bool IsConfirmed(const db::MeasurementRecord& record) { return record.reason.rfind(kConfirmedReasonPrefix, 0) == 0; }

std::vector<Leader> ConfirmedLeaders(const std::vector<db::MeasurementRecord>& model, std::size_t count) {
  std::map<std::string, double> fastest;
  for (const db::MeasurementRecord& r : model) {
    if (!IsOk(r.status) || !IsConfirmed(r)) continue;
    const std::string params = CandidateIdentity(r.params_json);
    const auto known = fastest.find(params);
    if (known == fastest.end() || r.time_ms_median < known->second) fastest[params] = r.time_ms_median;
  }
  std::vector<Leader> leaders;
  for (const auto& [params, time_ms] : fastest) leaders.push_back({params, time_ms});
  return FastestFirst(std::move(leaders), count);
}

}  // namespace tuner
