// The leaders of a sweep and whether the winner is told apart from the runner-up, from records
// built here (no GPU needed): what `tuner tune` prints and puts in its --json.
#include "sweep/leader_summary.h"

#include <gtest/gtest.h>

#include <sstream>

namespace tuner {
namespace {

db::MeasurementRecord Ok(const std::string& params_json, double median_ms, double spread, int samples,
                         const std::string& reason = "") {
  db::MeasurementRecord r;
  r.params_json = params_json;
  r.status = CandidateStatus::kOk;
  r.reason = reason;
  r.time_ms_median = median_ms;
  r.time_ms_spread = spread;
  r.samples = samples;
  return r;
}

const std::string kConfirmed = std::string(kConfirmedReasonPrefix) + " median of 10 samples timed in turns";

TEST(LeaderSummary, KeepsTheThreeFastestOkCandidatesFastestFirst) {
  db::MeasurementRecord wrong = Ok(R"({"T":0})", 0.1, 0, 1);
  wrong.status = CandidateStatus::kWrongResult;  // faster, but never a leader
  const LeaderSummary s =
      SummariseLeaders({Ok(R"({"T":4})", 4.0, 0.01, 5), wrong, Ok(R"({"T":2})", 2.0, 0.02, 10, kConfirmed),
                        Ok(R"({"T":1})", 1.0, 0.01, 10, kConfirmed), Ok(R"({"T":3})", 3.0, 0.01, 10, kConfirmed)});
  ASSERT_EQ(s.leaders.size(), 3u);
  EXPECT_EQ(s.leaders[0].record.params_json, R"({"T":1})");
  EXPECT_EQ(s.leaders[1].record.params_json, R"({"T":2})");
  EXPECT_EQ(s.leaders[2].record.params_json, R"({"T":3})");
  EXPECT_DOUBLE_EQ(s.leaders[1].iqr_ms, 0.04);  // spread x median
  EXPECT_TRUE(s.leaders[0].confirmed);
  EXPECT_FALSE(SummariseLeaders({Ok(R"({"T":4})", 4.0, 0.01, 5)}).leaders[0].confirmed);
}

TEST(LeaderSummary, AGapLargerThanBothInterquartileRangesTogetherTellsTheWinnerApart) {
  // IQRs 0.010 and 0.0103 ms: 0.0203 together, against a gap of 0.03 ms.
  const LeaderSummary s = SummariseLeaders({Ok("{}", 1.0, 0.01, 10), Ok(R"({"B":1})", 1.03, 0.01, 10)});
  EXPECT_EQ(s.separation, Separation::kDistinguishable);
  EXPECT_NEAR(s.gap_ms, 0.03, 1e-12);
  EXPECT_NEAR(s.noise_ms, 0.0203, 1e-12);
}

TEST(LeaderSummary, AGapWithinTheInterquartileRangesIsNoise) {
  EXPECT_EQ(SummariseLeaders({Ok("{}", 1.0, 0.01, 10), Ok(R"({"B":1})", 1.015, 0.01, 10)}).separation,
            Separation::kWithinNoise);
  // A gap exactly as large as the noise does not separate them: the quartiles may touch.
  EXPECT_EQ(SummariseLeaders({Ok("{}", 1.0, 0.5, 10), Ok(R"({"B":1})", 2.0, 0.25, 10)}).separation,
            Separation::kWithinNoise);
  // A tie.
  EXPECT_EQ(SummariseLeaders({Ok("{}", 1.0, 0, 10), Ok(R"({"B":1})", 1.0, 0, 10)}).separation,
            Separation::kWithinNoise);
}

// A batch's mean varies little within a run, more between fresh processes: tiny IQRs (0.1%) still
// leave a gap within the reproducibility floor (db/query/tie_rule.h) undecided.
TEST(LeaderSummary, TinyInterquartileRangesNeedAGapBeyondTheReproducibilityFloor) {
  const LeaderSummary close = SummariseLeaders({Ok("{}", 1.0, 0.001, 10), Ok(R"({"B":1})", 1.01, 0.001, 10)});
  EXPECT_EQ(close.separation, Separation::kWithinNoise);
  EXPECT_NEAR(close.noise_ms, db::kReproducibleFraction * 1.0, 1e-12);
  EXPECT_NE(DescribeSeparation(close).find("at least 2% of the faster"), std::string::npos)
      << DescribeSeparation(close);
  EXPECT_EQ(SummariseLeaders({Ok("{}", 1.0, 0.001, 10), Ok(R"({"B":1})", 1.05, 0.001, 10)}).separation,
            Separation::kDistinguishable);
}

TEST(LeaderSummary, FewSamplesSayNothingAboutTheSpread) {
  // One sample has no spread at all; a large gap still cannot be judged.
  const LeaderSummary s = SummariseLeaders({Ok("{}", 1.0, 0, kMinSamplesToCompare), Ok(R"({"B":1})", 2.0, 0, 1)});
  EXPECT_EQ(s.separation, Separation::kTooFewSamples);
  EXPECT_NE(DescribeSeparation(s).find("fewer than 5 samples"), std::string::npos) << DescribeSeparation(s);
}

TEST(LeaderSummary, ALoneCandidateHasNoRunnerUp) {
  EXPECT_EQ(SummariseLeaders({Ok("{}", 1.0, 0.01, 10)}).separation, Separation::kNoRunnerUp);
  EXPECT_EQ(SummariseLeaders({}).separation, Separation::kNoRunnerUp);
}

TEST(LeaderSummary, JsonCarriesEveryLeaderAndTheVerdict) {
  const nlohmann::json doc = ToJson(SummariseLeaders(
      {Ok(R"({"TILE":64,"PAD":1})", 1.0, 0.01, 10, kConfirmed), Ok(R"({"TILE":32,"PAD":1})", 1.015, 0.01, 37)}));
  ASSERT_EQ(doc.at("leaders").size(), 2u);
  const nlohmann::json& first = doc["leaders"][0];
  EXPECT_EQ(first.at("params"), nlohmann::json::parse(R"({"TILE":64,"PAD":1})"));
  EXPECT_DOUBLE_EQ(first.at("time_ms").get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(first.at("iqr_ms").get<double>(), 0.01);
  EXPECT_DOUBLE_EQ(first.at("spread").get<double>(), 0.01);
  EXPECT_EQ(first.at("samples"), 10);
  EXPECT_EQ(first.at("confirmed"), true);
  EXPECT_EQ(doc["leaders"][1].at("samples"), 37);
  EXPECT_EQ(doc["leaders"][1].at("confirmed"), false);
  const nlohmann::json& verdict = doc.at("winner_vs_runner_up");
  EXPECT_EQ(verdict.at("separation"), "within_noise");
  EXPECT_EQ(verdict.at("distinguishable"), false);
  EXPECT_NEAR(verdict.at("gap_ms").get<double>(), 0.015, 1e-12);
  EXPECT_NEAR(verdict.at("noise_ms").get<double>(), 0.02015, 1e-12);
}

TEST(LeaderSummary, PrintedSummaryShowsSamplesSpreadAndVerdict) {
  std::ostringstream out;
  PrintLeaders(
      SummariseLeaders({Ok(R"({"TILE":64,"PAD":1})", 0.2, 0.005, 10, kConfirmed),
                        Ok(R"({"TILE":32,"PAD":1})", 0.3, 0.01, 37), Ok(R"({"TILE":16,"PAD":0})", 0.4, 0.02, 12)}),
      out);
  const std::string text = out.str();
  for (const char* expected : {"TILE=64 PAD=1", "TILE=32 PAD=1", "TILE=16 PAD=0", "SAMPLES", "TIMED IN TURNS", " 37 ",
                               "0.0010", "0.5%", "winner distinguishable from the runner-up: 0.1000 ms (50.0%) apart"})
    EXPECT_NE(text.find(expected), std::string::npos) << expected << " in:\n" << text;
  std::ostringstream none;
  PrintLeaders(SummariseLeaders({}), none);
  EXPECT_EQ(none.str(), "");  // no candidate passed: the summary says so elsewhere
}

// A tie stored by its sweep (db/query/tie_rule.h): its chosen member leads, and the text and the
// JSON name the tie, its members and the step of the rule that chose.
TEST(LeaderSummary, AStoredTieLeadsWithItsChosenMemberAndIsReportedAsATie) {
  db::MeasurementRecord fastest = Ok(R"({"TILE":64,"PAD":1})", 1.0, 0.01, 10, kConfirmed);
  db::MeasurementRecord chosen = Ok(R"({"TILE":32,"PAD":1})", 1.01, 0.01, 10, kConfirmed);
  db::MeasurementRecord third = Ok(R"({"TILE":16,"PAD":1})", 1.015, 0.01, 10, kConfirmed);
  fastest.regs_per_thread = 40;
  chosen.regs_per_thread = 32;
  third.regs_per_thread = 36;
  const auto tie = db::DecideTie({{fastest, 0}, {chosen, 1}, {third, 2}});
  ASSERT_TRUE(tie);
  const LeaderSummary summary = SummariseLeaders(db::Stamped(*tie));
  EXPECT_EQ(summary.leaders[0].record.params_json, chosen.params_json);
  ASSERT_TRUE(summary.tie);
  std::ostringstream out;
  PrintLeaders(summary, out);
  EXPECT_NE(out.str().find("tie of 3 within noise (±2.0%): chosen by fewer registers: TILE=32 PAD=1"),
            std::string::npos)
      << out.str();
  const nlohmann::json doc = ToJson(summary);
  EXPECT_EQ(doc["tie"]["chosen"], nlohmann::json::parse(chosen.params_json));
  EXPECT_EQ(doc["tie"]["rule"], "fewer_registers");
  EXPECT_EQ(doc["tie"]["rule_order"], (nlohmann::json{"fewer_registers", "less_shared_memory", "template_order"}));
  ASSERT_EQ(doc["tie"]["members"].size(), 3u);
  EXPECT_EQ(doc["tie"]["members"][1]["regs_per_thread"], 36);
  EXPECT_TRUE(ToJson(SummariseLeaders({fastest, chosen}))["tie"].is_null()) << "no tie stored: none reported";
}

}  // namespace
}  // namespace tuner
