#include "db/query/tie_rule.h"

#include <algorithm>
#include <tuple>

namespace tuner::db {

namespace {

// The rule's key: the lower wins.
std::tuple<int, std::int64_t, std::size_t> RuleKey(const TieCandidate& c) {
  return {c.record.regs_per_thread, c.record.smem_bytes, c.order};
}

TieBreak BreakBetween(const MeasurementRecord& chosen, const MeasurementRecord& next) {
  if (chosen.regs_per_thread != next.regs_per_thread) return TieBreak::kFewerRegisters;
  if (chosen.smem_bytes != next.smem_bytes) return TieBreak::kLessSharedMemory;
  return TieBreak::kTemplateOrder;
}

double Noise(const MeasurementRecord& fastest, const std::vector<MeasurementRecord>& members) {
  double noise_ms = 0;
  for (const MeasurementRecord& m : members) noise_ms = std::max(noise_ms, NoiseMs(fastest, m));
  return noise_ms;
}

}  // namespace

double IqrMs(const MeasurementRecord& record) { return record.time_ms_spread * record.time_ms_median; }

double NoiseMs(const MeasurementRecord& a, const MeasurementRecord& b) {
  const double faster_ms = std::min(a.time_ms_median, b.time_ms_median);
  return std::max(IqrMs(a) + IqrMs(b), kReproducibleFraction * faster_ms);
}

bool WithinNoise(const MeasurementRecord& a, const MeasurementRecord& b) {
  if (a.samples < kMinSamplesToCompare || b.samples < kMinSamplesToCompare) return false;
  const double gap_ms =
      a.time_ms_median > b.time_ms_median ? a.time_ms_median - b.time_ms_median : b.time_ms_median - a.time_ms_median;
  return gap_ms <= NoiseMs(a, b);
}

std::string ToString(TieBreak rule) {
  switch (rule) {
    case TieBreak::kFewerRegisters:
      return "fewer_registers";
    case TieBreak::kLessSharedMemory:
      return "less_shared_memory";
    case TieBreak::kTemplateOrder:
      return "template_order";
  }
  return "";
}

std::string Describe(TieBreak rule) {
  switch (rule) {
    case TieBreak::kFewerRegisters:
      return "fewer registers";
    case TieBreak::kLessSharedMemory:
      return "less shared memory";
    case TieBreak::kTemplateOrder:
      return "the template's order";
  }
  return "";
}

std::optional<Tie> DecideTie(const std::vector<TieCandidate>& leaders) {
  std::vector<TieCandidate> ok;
  for (const TieCandidate& c : leaders)
    if (IsOk(c.record.status)) ok.push_back(c);
  if (ok.size() < 2) return std::nullopt;
  const auto fastest = std::min_element(ok.begin(), ok.end(), [](const TieCandidate& a, const TieCandidate& b) {
    return std::make_pair(a.record.time_ms_median, a.order) < std::make_pair(b.record.time_ms_median, b.order);
  });
  std::vector<TieCandidate> group;
  for (const TieCandidate& c : ok)
    if (&c == &*fastest || WithinNoise(c.record, fastest->record)) group.push_back(c);
  if (group.size() < 2) return std::nullopt;
  std::sort(group.begin(), group.end(),
            [](const TieCandidate& a, const TieCandidate& b) { return RuleKey(a) < RuleKey(b); });
  Tie tie;
  for (const TieCandidate& c : group) tie.members.push_back(c.record);
  tie.chosen_by = BreakBetween(tie.members[0], tie.members[1]);
  tie.time_ms = fastest->record.time_ms_median;
  tie.noise_ms = Noise(fastest->record, tie.members);
  return tie;
}

std::vector<MeasurementRecord> Stamped(const Tie& tie) {
  std::vector<MeasurementRecord> members = tie.members;
  for (std::size_t i = 0; i < members.size(); ++i) {
    members[i].tie_ms = tie.time_ms;
    members[i].tie_rank = static_cast<int>(i + 1);
  }
  return members;
}

std::optional<Tie> StoredTie(const std::vector<MeasurementRecord>& records) {
  Tie tie;
  for (const MeasurementRecord& r : records)
    if (r.tie_rank > 0 && IsOk(r.status)) tie.members.push_back(r);
  if (tie.members.size() < 2) return std::nullopt;
  std::sort(tie.members.begin(), tie.members.end(),
            [](const MeasurementRecord& a, const MeasurementRecord& b) { return a.tie_rank < b.tie_rank; });
  tie.chosen_by = BreakBetween(tie.members[0], tie.members[1]);
  tie.time_ms = tie.members[0].tie_ms;
  const auto fastest = std::min_element(
      tie.members.begin(), tie.members.end(),
      [](const MeasurementRecord& a, const MeasurementRecord& b) { return a.time_ms_median < b.time_ms_median; });
  tie.noise_ms = Noise(*fastest, tie.members);
  return tie;
}

}  // namespace tuner::db
