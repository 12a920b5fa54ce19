#include "reports/winner_card.h"

#include <gtest/gtest.h>

#include "report_test_data.h"

namespace tuner::report {
namespace {

using testing::TransposeRun;

TEST(WinnerCard, EachNeighbourWithTheCounterThatExplainsIt) {
  const WinnerCard card = MakeWinnerCard(TransposeRun());
  EXPECT_EQ(card.params, "TILE=32 PAD=1");
  ASSERT_EQ(card.neighbours.size(), 2u) << "TILE=64 PAD=0 differs in two parameters";
  EXPECT_EQ(card.neighbours[0].parameter, "PAD");
  EXPECT_EQ(card.neighbours[0].counter_key, "shared_bank_conflicts_per_request");
  EXPECT_EQ(card.neighbours[0].sentence,
            "PAD=1: 0.07 shared-memory bank conflicts per request against 15.7 for PAD=0; 1.61\u00d7 faster");
  EXPECT_EQ(card.neighbours[1].parameter, "TILE");
  EXPECT_EQ(card.neighbours[1].counter_key, "") << "1 point of DRAM throughput explains nothing";
  EXPECT_EQ(card.neighbours[1].sentence, "TILE=32: 1.29\u00d7 faster than TILE=64 (no counter differs by 10%)");
  EXPECT_NE(card.energy.find("124 mJ per launch"), std::string::npos) << card.energy;
  EXPECT_EQ(card.counters, "DRAM throughput 46.0 % of peak, shared-memory bank conflicts per request 0.1 conflicts");
  EXPECT_EQ(card.headroom, "") << "counted without the speed of light (an older version)";
}

TEST(WinnerCard, TheWinnersHeadroomInTheSpeedOfLightsTerms) {
  const WinnerCard card = MakeWinnerCard(testing::PointInPolygonRun());
  EXPECT_EQ(card.headroom, "compute-bound: SM 75% of peak (SM 75%, DRAM 9%, L2 30%, L1 35%)");
  report::Run memory_bound = testing::PointInPolygonRun();
  std::swap(memory_bound.rows[0], memory_bound.rows[1]);
  EXPECT_EQ(MakeWinnerCard(memory_bound).headroom,
            "memory-bound: DRAM 88% of peak, at the limit (SM 40%, DRAM 88%, L2 30%, L1 35%)");
}

// The sentence of the neighbour that differs in `parameter`.
std::string SentenceFor(const report::Run& run, const std::string& parameter) {
  for (const NeighbourComparison& n : MakeWinnerCard(run).neighbours)
    if (n.parameter == parameter) return n.sentence;
  return "no neighbour differs in " + parameter;
}

TEST(WinnerCard, ANeighbourAsFastIsNotCalledFasterAndASlowerWinnerSaysSo) {
  report::Run run = TransposeRun();
  run.rows[2].measurement.time_ms_median = 0.1945;  // TILE=64: within 0.5% of the winner
  EXPECT_EQ(SentenceFor(run, "TILE"), "TILE=32: as fast as TILE=64 (no counter differs by 10%)");
  run.rows[1].measurement.time_ms_median = 0.194 / 1.25;  // PAD=0 faster: the winner won by another objective
  EXPECT_EQ(SentenceFor(run, "PAD"),
            "PAD=1: 0.07 shared-memory bank conflicts per request against 15.7 for PAD=0; 1.25\u00d7 slower");
}

TEST(WinnerCard, ASentenceWithoutACounterSaysWhichSideLacksCounters) {
  report::Run run = TransposeRun();
  run.rows[2].measurement.counters_json.clear();  // TILE=64
  EXPECT_EQ(SentenceFor(run, "TILE"), "TILE=32: 1.29\u00d7 faster than TILE=64 (TILE=64 has no counters)");
  run.rows[1].measurement.counters_json.clear();  // PAD=0
  EXPECT_EQ(SentenceFor(run, "PAD"), "PAD=1: 1.61\u00d7 faster than PAD=0 (PAD=0 has no counters)");
  run.rows[0].measurement.counters_json.clear();  // the winner
  EXPECT_EQ(SentenceFor(run, "PAD"), "PAD=1: 1.61\u00d7 faster than PAD=0 (neither has counters)");
  run.rows[1].measurement.counters_json = R"({"shared_bank_conflicts_per_request":15.7})";
  EXPECT_EQ(SentenceFor(run, "PAD"), "PAD=1: 1.61\u00d7 faster than PAD=0 (the winner has no counters)");
}

TEST(WinnerCard, OnlyACounterInTheWinnersFavourExplains) {
  // Lower is better for conflicts, higher for DRAM throughput: here both favour the other.
  EXPECT_EQ(ExplainingCounter(R"({"shared_bank_conflicts_per_request":8,"dram_throughput_pct":20})",
                              R"({"shared_bank_conflicts_per_request":1,"dram_throughput_pct":80})"),
            "");
  EXPECT_EQ(ExplainingCounter(R"({"load_sectors_per_request":4,"dram_throughput_pct":80})",
                              R"({"load_sectors_per_request":32,"dram_throughput_pct":60})"),
            "load_sectors_per_request")
      << "the largest relative difference";
  EXPECT_EQ(ExplainingCounter(R"({"shared_bank_conflicts_per_request":0.03})",
                              R"({"shared_bank_conflicts_per_request":0.07})"),
            "")
      << "too few conflicts to matter";
  EXPECT_EQ(ExplainingCounter("", R"({"load_sectors_per_request":32})"), "");
}

TEST(WinnerCard, NoBestNoCard) {
  report::Run run = TransposeRun();
  run.best.reset();
  EXPECT_TRUE(MakeWinnerCard(run).neighbours.empty());
  EXPECT_EQ(MakeWinnerCard(run).params, "");
}

}  // namespace
}  // namespace tuner::report
