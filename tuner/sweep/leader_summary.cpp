#include "sweep/leader_summary.h"

#include <algorithm>
#include <cmath>

#include "base/percent_text.h"
#include "common/text_table.h"
#include "db/query/best.h"
#include "db/row_json.h"
#include "reports/report_format.h"

namespace tuner {

namespace {

LeaderStanding StandingOf(const db::MeasurementRecord& record) {
  return {record, db::IqrMs(record), record.reason.rfind(kConfirmedReasonPrefix, 0) == 0};
}

// Whether the runner-up's 25th percentile lies above the winner's 75th whatever the skew (each
// quartile lies within one IQR of its median, so a gap above both IQRs together separates them)
// and the gap exceeds the reproducibility floor, which fresh processes vary by (db/query/tie_rule.h:
// the same test makes a tie).
Separation Compare(const LeaderStanding& winner, const LeaderStanding& runner_up) {
  if (winner.record.samples < kMinSamplesToCompare || runner_up.record.samples < kMinSamplesToCompare)
    return Separation::kTooFewSamples;
  return db::WithinNoise(winner.record, runner_up.record) ? Separation::kWithinNoise : Separation::kDistinguishable;
}


}  // namespace

LeaderSummary SummariseLeaders(const std::vector<db::MeasurementRecord>& records, std::size_t count) {
  std::vector<db::MeasurementRecord> ok;
  for (const db::MeasurementRecord& r : records)
    if (IsOk(r.status)) ok.push_back(r);
  std::stable_sort(ok.begin(), ok.end(), db::FasterRecord);
  if (ok.size() > count) ok.resize(count);
  LeaderSummary summary;
  for (const db::MeasurementRecord& r : ok) summary.leaders.push_back(StandingOf(r));
  if (summary.leaders.size() < 2) return summary;
  const LeaderStanding& winner = summary.leaders[0];
  const LeaderStanding& runner_up = summary.leaders[1];
  summary.gap_ms = std::fabs(runner_up.record.time_ms_median - winner.record.time_ms_median);
  summary.noise_ms = db::NoiseMs(winner.record, runner_up.record);
  summary.separation = Compare(winner, runner_up);
  summary.tie = db::StoredTie(records);
  return summary;
}

std::string ToString(Separation separation) {
  switch (separation) {
    case Separation::kNoRunnerUp:
      return "no_runner_up";
    case Separation::kTooFewSamples:
      return "too_few_samples";
    case Separation::kDistinguishable:
      return "distinguishable";
    case Separation::kWithinNoise:
      return "within_noise";
  }
  return "";
}

namespace {

std::string DescribeTie(const db::Tie& tie) {
  return "tie of " + std::to_string(tie.members.size()) + " within noise (±" + PercentOf(tie.noise_ms, tie.time_ms, 1) +
         "): chosen by " + db::Describe(tie.chosen_by) + ": " + report::ParamsText(tie.members[0].params_json) +
         " (rule: fewer registers, then less shared memory, then the template's order)";
}

}  // namespace

std::string DescribeSeparation(const LeaderSummary& s) {
  if (s.tie) return DescribeTie(*s.tie);
  if (s.separation == Separation::kNoRunnerUp)
    return "only one candidate passed: no runner-up to compare the winner with";
  const double winner_ms = s.leaders[0].record.time_ms_median;
  const std::string apart = Fixed(s.gap_ms, 4) + " ms (" + PercentOf(s.gap_ms, winner_ms, 1) + ") apart";
  const std::string noise = "the noise (" + Fixed(s.noise_ms, 4) +
                            " ms: their interquartile ranges together, at least " +
                            Fixed(100 * db::kReproducibleFraction, 0) + "% of the faster)";
  switch (s.separation) {
    case Separation::kDistinguishable:
      return "winner distinguishable from the runner-up: " + apart + ", more than " + noise;
    case Separation::kWithinNoise:
      return "winner NOT distinguishable from the runner-up: " + apart + ", within " + noise +
             "; another run may rank them the other way round";
    default:
      return "winner and runner-up " + apart + ", but one has fewer than " + std::to_string(kMinSamplesToCompare) +
             " samples: their spread is unknown";
  }
}

void PrintLeaders(const LeaderSummary& s, std::ostream& out) {
  if (s.leaders.empty()) return;
  TextTable table({"#", "PARAMS", "MEDIAN ms", "IQR ms", "SPREAD", "SAMPLES", "TIMED IN TURNS"});
  for (std::size_t i = 0; i < s.leaders.size(); ++i) {
    const LeaderStanding& l = s.leaders[i];
    table.Add({std::to_string(i + 1), report::ParamsText(l.record.params_json), Fixed(l.record.time_ms_median, 4),
               Fixed(l.iqr_ms, 4), PercentOf(l.iqr_ms, l.record.time_ms_median, 1), std::to_string(l.record.samples),
               l.confirmed ? "yes" : "no"});
  }
  out << "leaders:\n";
  table.Print(out);
  out << DescribeSeparation(s) << "\n";
}

namespace {

// A leader's keys in the summary of `tune --json`.
const std::vector<db::JsonKey>& LeaderJsonKeys() {
  using R = db::MeasurementRecord;
  static const std::vector<db::JsonKey> keys = {{&R::params_json, "/params"},
                                                {&R::time_ms_median, "/time_ms"},
                                                {&R::time_ms_spread, "/spread"},
                                                {&R::samples, "/samples"}};
  return keys;
}

}  // namespace

namespace {

nlohmann::json TieJson(const db::Tie& tie) {
  using R = db::MeasurementRecord;
  static const std::vector<db::JsonKey> keys = {
      {&R::params_json, "/params"}, {&R::time_ms_median, "/time_ms"},          {&R::time_ms_spread, "/spread"},
      {&R::samples, "/samples"},    {&R::regs_per_thread, "/regs_per_thread"}, {&R::smem_bytes, "/smem_bytes"}};
  nlohmann::json members = nlohmann::json::array();
  for (const db::MeasurementRecord& m : tie.members) {
    nlohmann::json member = db::RecordJson(m, keys);
    members.push_back(member);
  }
  nlohmann::json rule_order = nlohmann::json::array();
  for (db::TieBreak rule :
       {db::TieBreak::kFewerRegisters, db::TieBreak::kLessSharedMemory, db::TieBreak::kTemplateOrder})
    rule_order.push_back(db::ToString(rule));
  return {{"members", members},
          {"chosen", members[0]["params"]},
          {"rule", db::ToString(tie.chosen_by)},
          {"rule_order", rule_order},
          {"time_ms", tie.time_ms},
          {"noise_ms", tie.noise_ms},
          {"noise_percent", tie.time_ms > 0 ? 100 * tie.noise_ms / tie.time_ms : 0}};
}

}  // namespace

nlohmann::json ToJson(const LeaderSummary& s) {
  nlohmann::json leaders = nlohmann::json::array();
  for (const LeaderStanding& l : s.leaders) {
    nlohmann::json leader = db::RecordJson(l.record, LeaderJsonKeys());
    leader["iqr_ms"] = l.iqr_ms;
    leader["confirmed"] = l.confirmed;
    leaders.push_back(leader);
  }
  return {{"leaders", leaders},
          {"winner_vs_runner_up",
           {{"separation", ToString(s.separation)},
            {"distinguishable", s.separation == Separation::kDistinguishable},
            {"gap_ms", s.gap_ms},
            {"noise_ms", s.noise_ms}}},
          {"tie", s.tie ? TieJson(*s.tie) : nlohmann::json()}};
}

}  // namespace tuner
