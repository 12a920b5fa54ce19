#include "sweep/leader_summary.h"

#include <algorithm>

#include "common/text_table.h"
#include "db/query/best.h"
#include "db/row_json.h"
#include "reports/report_format.h"

namespace tuner {

namespace {

LeaderStanding StandingOf(const db::MeasurementRecord& record) {
  return {record, record.time_ms_spread * record.time_ms_median, record.reason.rfind(kConfirmedReasonPrefix, 0) == 0};
}

// Whether the runner-up's 25th percentile lies above the winner's 75th whatever the skew: each
// quartile lies within one IQR of its median, so a gap above both IQRs together separates them.
Separation Compare(const LeaderStanding& winner, const LeaderStanding& runner_up, double gap_ms, double noise_ms) {
  if (winner.record.samples < kMinSamplesToCompare || runner_up.record.samples < kMinSamplesToCompare)
    return Separation::kTooFewSamples;
  return gap_ms > noise_ms ? Separation::kDistinguishable : Separation::kWithinNoise;
}

std::string Percent(double part, double whole) { return whole > 0 ? Fixed(100 * part / whole, 1) + "%" : "-"; }

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
  summary.gap_ms = runner_up.record.time_ms_median - winner.record.time_ms_median;
  summary.noise_ms = winner.iqr_ms + runner_up.iqr_ms;
  summary.separation = Compare(winner, runner_up, summary.gap_ms, summary.noise_ms);
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

std::string DescribeSeparation(const LeaderSummary& s) {
  if (s.separation == Separation::kNoRunnerUp)
    return "only one candidate passed: no runner-up to compare the winner with";
  const double winner_ms = s.leaders[0].record.time_ms_median;
  const std::string apart = Fixed(s.gap_ms, 4) + " ms (" + Percent(s.gap_ms, winner_ms) + ") apart";
  const std::string noise = "their interquartile ranges together (" + Fixed(s.noise_ms, 4) + " ms)";
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
               Fixed(l.iqr_ms, 4), Percent(l.iqr_ms, l.record.time_ms_median), std::to_string(l.record.samples),
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
            {"noise_ms", s.noise_ms}}}};
}

}  // namespace tuner
