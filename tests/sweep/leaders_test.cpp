// A sweep's leaders: this run's fastest over stored ones, and the leaders a model's cards confirmed.
#include "sweep/leaders.h"

#include <gtest/gtest.h>

#include "sweep/timing_plan.h"

namespace tuner {
namespace {

db::MeasurementRecord Record(const std::string& params_json, double time_ms, const std::string& status = "ok",
                             const std::string& reason = "") {
  db::MeasurementRecord r;
  r.params_json = params_json;
  r.time_ms_median = time_ms;
  r.status = CandidateStatusFromText(status);
  r.reason = reason;
  return r;
}

std::vector<std::string> Params(const std::vector<Leader>& leaders) {
  std::vector<std::string> params;
  for (const Leader& l : leaders) params.push_back(l.params_json);
  return params;
}

TEST(Leaders, ThisRunsTimeOfACandidateCountsOverItsStoredOne) {
  const std::vector<Leader> stored = {{"a", 1.0}, {"d", 4.0}, {"a", 0.5}};
  const std::vector<Leader> fastest =
      FastestLeaders({Record("a", 3.0), Record("b", 2.0), Record("c", 0.1, "wrong_result")}, stored, 3);
  EXPECT_EQ(Params(fastest), (std::vector<std::string>{"b", "a", "d"}));
  EXPECT_EQ(fastest[1].time_ms, 3.0);
  EXPECT_EQ(Params(FastestLeaders({}, stored, 2)), (std::vector<std::string>{"a", "d"}));  // the first stored time
  EXPECT_EQ(FastestLeaders({}, stored, 2)[0].time_ms, 1.0);
}

TEST(Leaders, TheModelsConfirmedLeadersAreAtTheirBestCardsTime) {
  const std::string confirmed = ConfirmedReason(10, 5);
  const std::vector<Leader> leaders =
      ConfirmedLeaders({Record(R"({"T":1})", 2.0, "ok", confirmed), Record(R"({"T":1})", 1.5, "ok", confirmed),
                        Record(R"({"T":2})", 0.5), Record(R"({"T":3})", 1.8, "ok", confirmed)},
                       2);
  EXPECT_EQ(Params(leaders), (std::vector<std::string>{R"({"T":1})", R"({"T":3})"}));
  EXPECT_EQ(leaders[0].time_ms, 1.5);
  EXPECT_TRUE(IsConfirmed(Record("x", 1, "ok", confirmed)));
  EXPECT_FALSE(IsConfirmed(Record("x", 1)));
}

std::vector<Leader> Spaced(const std::vector<double>& times_ms) {
  std::vector<Leader> leaders;
  for (std::size_t i = 0; i < times_ms.size(); ++i) leaders.push_back({std::to_string(i), times_ms[i]});
  return leaders;
}

// A tie holds only leaders timed in turns: beyond the kLeaders fastest, those that may tie with the
// fastest are timed with them (within twice the reproducibility floor), kMostLeadersInTurns at most.
TEST(Leaders, TheLeadersInTurnsReachThoseThatMayTieWithTheFastest) {
  EXPECT_EQ(InTurns(Spaced({1.0, 1.2, 1.3, 1.5})).size(), 3u);
  EXPECT_EQ(Params(InTurns(Spaced({1.0, 1.001, 1.002, 1.01, 1.03, 1.05}))),
            (std::vector<std::string>{"0", "1", "2", "3", "4"}));  // 1.05 is beyond 4%
  EXPECT_EQ(InTurns(Spaced(std::vector<double>(kMostLeadersInTurns + 4, 1.0))).size(), kMostLeadersInTurns);
  EXPECT_EQ(InTurns(Spaced({1.0, 2.0})).size(), 2u);
  EXPECT_TRUE(InTurns({}).empty());
  const std::vector<db::MeasurementRecord> measured = {Record("a", 1.0), Record("b", 1.5), Record("c", 1.6),
                                                       Record("d", 1.02), Record("e", 1.01)};
  EXPECT_EQ(Params(LeadersInTurns(measured, {{"f", 1.03}})), (std::vector<std::string>{"a", "e", "d", "f"}));
}

}  // namespace
}  // namespace tuner
