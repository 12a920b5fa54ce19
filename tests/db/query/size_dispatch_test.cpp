// The loss matrix and the dispatch table across sizes (db/size_dispatch.*), on stored times, and
// the application library's Dispatch on a database tuned at several sizes.
#include "db/query/size_dispatch.h"

#include <gtest/gtest.h>

#include "db/query/store.h"
#include "db/query/tuned_config.h"
#include "db_test_util.h"

namespace tuner::db {
namespace {

// Six sizes where the configuration best at most sizes is the wrong first pick: A is within 5% at
// sizes 0-3, B at 0, 1 and 4, C at 2, 3 and 5. Greedy takes A first and needs three; the smallest
// set is {B, C}.
std::vector<SizeTimes> GreedyTrap() {
  std::vector<SizeTimes> sizes;
  for (int i = 0; i < 6; ++i)
    sizes.push_back({std::to_string(1 << (10 + i)) + "x256", {{"A", 2.0}, {"B", 2.0}, {"C", 2.0}}});
  for (int i : {0, 1, 2, 3}) sizes[i].time_ms["A"] = 1.0;
  for (int i : {0, 1}) sizes[i].time_ms["B"] = 1.04;
  for (int i : {2, 3}) sizes[i].time_ms["C"] = 1.03;
  sizes[4].time_ms["B"] = 1.0;
  sizes[5].time_ms["C"] = 1.0;
  return sizes;
}

TEST(DispatchTable, TheLossMatrixComparesEachSizeWithEveryOtherSizesWinner) {
  const DispatchTable t = BuildDispatchTable(GreedyTrap());
  ASSERT_EQ(t.winners.size(), 6u);
  EXPECT_EQ(t.winners[0], "A");
  EXPECT_EQ(t.winners[4], "B");
  EXPECT_EQ(t.winners[5], "C");
  EXPECT_DOUBLE_EQ(*t.loss[0][0], 0);
  EXPECT_NEAR(*t.loss[0][4], 0.04, 1e-12);  // size 0 with size 4's winner B
  EXPECT_DOUBLE_EQ(*t.loss[4][0], 1.0);     // size 4 with A: twice its best
  EXPECT_DOUBLE_EQ(*t.loss[5][4], 1.0);
}

TEST(DispatchTable, TheExactSearchFindsTheSmallestSetWhereGreedyWouldNot) {
  const DispatchTable t = BuildDispatchTable(GreedyTrap());
  EXPECT_TRUE(t.exact);
  EXPECT_EQ(t.Method(), "exact");
  ASSERT_EQ(t.configs.size(), 2u);
  EXPECT_EQ(t.configs[0], "B");  // B and C serve three sizes each: B first by name
  EXPECT_EQ(t.configs[1], "C");
  const std::vector<std::size_t> entries = {0, 0, 1, 1, 0, 1};
  EXPECT_EQ(t.entry, entries);
  EXPECT_DOUBLE_EQ(t.entry_ms[0], 1.04);
  for (std::size_t i = 0; i < 6; ++i) EXPECT_LE(t.entry_ms[i], t.best_ms[i] * 1.05) << i;
}

TEST(DispatchTable, OneConfigurationWithinTheToleranceEverywhereIsTheWholeTable) {
  std::vector<SizeTimes> sizes = {{"1024", {{"X", 1.0}, {"Y", 1.06}}}, {"2048", {{"X", 2.2}, {"Y", 2.0}}}};
  DispatchTable t = BuildDispatchTable(sizes);
  ASSERT_EQ(t.configs.size(), 2u);  // X is 10% off at 2048, Y 6% at 1024
  sizes[0].time_ms["Y"] = 1.04;     // Y within 4%: it alone serves both...
  t = BuildDispatchTable(sizes);
  ASSERT_EQ(t.configs.size(), 1u);
  EXPECT_EQ(t.configs[0], "Y");
  EXPECT_EQ(t.winners[0], "X");
  // ...and at 5.1% it would not.
  sizes[0].time_ms["Y"] = 1.051;
  EXPECT_EQ(BuildDispatchTable(sizes).configs.size(), 2u);
}

TEST(DispatchTable, AWinnerNotMeasuredAtAnotherSizeIsNoLoss) {
  const DispatchTable t = BuildDispatchTable({{"1024", {{"X", 1.0}}}, {"2048", {{"Y", 1.0}, {"X", 1.5}}}});
  EXPECT_FALSE(t.loss[0][1].has_value());  // Y never ran at 1024
  EXPECT_DOUBLE_EQ(*t.loss[1][0], 0.5);
  EXPECT_EQ(t.configs.size(), 2u);
}

TEST(DispatchTable, ManySizesAreCoveredGreedilyAndSaySo) {
  std::vector<SizeTimes> sizes;
  for (std::size_t i = 0; i < kExactCoverMaxSizes + 1; ++i) {
    sizes.push_back({std::to_string(i + 1), {}});
    for (std::size_t j = 0; j <= kExactCoverMaxSizes; ++j)
      sizes[i].time_ms["C" + std::to_string(j)] = i == j ? 1.0 : 3.0;
  }
  const DispatchTable t = BuildDispatchTable(sizes);
  EXPECT_FALSE(t.exact);
  EXPECT_EQ(t.Method(), "greedy set cover");
  EXPECT_EQ(t.configs.size(), kExactCoverMaxSizes + 1);
  for (std::size_t i = 0; i < sizes.size(); ++i) EXPECT_EQ(t.configs[t.entry[i]], "C" + std::to_string(i));
}

TEST(DispatchTable, ASizeWithoutATimeIsRefused) {
  EXPECT_THROW(BuildDispatchTable({{"1024", {}}}), std::invalid_argument);
}

TEST(DispatchTable, TimesBySizeKeepsOkRowsBySizeSmallestFirst) {
  std::vector<MeasurementRow> rows(3);
  rows[0].size_key = "65536x256";
  rows[0].measurement = testing::SampleMeasurement(32, 2.0);
  rows[1].size_key = "4096x256";
  rows[1].measurement = testing::SampleMeasurement(32, 1.0);
  rows[2].size_key = "4096x256";
  rows[2].measurement = testing::SampleMeasurement(64, 0.5, "wrong_result");
  const std::vector<SizeTimes> sizes = TimesBySize(rows);
  ASSERT_EQ(sizes.size(), 2u);
  EXPECT_EQ(sizes[0].size_key, "4096x256");
  EXPECT_EQ(sizes[0].time_ms.size(), 1u);
  EXPECT_EQ(sizes[1].size_key, "65536x256");
}

// A kernel tuned at three sizes, each with another winner, where TILE 32 is within 5% at all three:
// the library serves every size that one entry, and an untuned size the entry of the nearest tuned one.
class LibraryDispatch : public ::testing::Test {
 protected:
  void SetUp() override {
    Store store = Store::Open(path_, OpenMode::kReadWrite);
    const auto gpu = store.EnsureGpu(testing::SampleGpu());
    const auto templ = store.EnsureTemplate({"hist", "v1", "2026-11-20T00:00:00Z"});
    const std::map<std::string, std::vector<std::pair<int, double>>> times = {
        {"1024", {{16, 1.0}, {32, 1.03}, {64, 1.5}}},   // 16 wins, 32 within 5%
        {"4096", {{16, 2.0}, {32, 1.0}, {64, 1.02}}},   // 32 wins
        {"16384", {{16, 3.0}, {32, 1.04}, {64, 1.0}}},  // 64 wins, 32 within 5%
    };
    for (const auto& [size, candidates] : times) {
      const auto sweep = store.StartSweep(gpu, templ, testing::SampleSweep(size));
      for (const auto& [tile, ms] : candidates) store.AddMeasurement(sweep, testing::SampleMeasurement(tile, ms));
    }
  }
  testing::TempDir dir_;
  std::string path_ = dir_.File("sizes.db");
  const GpuIdentity gpu_{"NVIDIA H100 80GB HBM3", 9, 0, 132, 85'000'000'000, "GPU-1111"};
};

TEST_F(LibraryDispatch, EachSizeGetsItsEntryOfTheSmallestSet) {
  const TunedConfigs configs = TunedConfigs::Open(path_);
  for (long long size : {1024, 4096, 16384}) {
    const TunedConfig best = configs.Lookup("hist", gpu_, {size});
    const TunedConfig entry = configs.Dispatch("hist", gpu_, {size});
    ASSERT_TRUE(entry) << entry.note;
    EXPECT_EQ(entry.Param("TILE", 0), 32) << size << ": " << entry.note;  // one configuration serves all three
    EXPECT_EQ(entry.size_key, std::to_string(size));
    EXPECT_EQ(entry.fallback, TunedFallback::kExact);
    EXPECT_NE(entry.note.find("dispatch table entry 1 of 1 for 3 tuned sizes (exact)"), std::string::npos)
        << entry.note;
    EXPECT_LE(entry.time_ms, best.time_ms * 1.05);
  }
  EXPECT_EQ(configs.Lookup("hist", gpu_, {1024}).Param("TILE", 0), 16);  // Lookup still gives each size's own best
}

TEST_F(LibraryDispatch, AnUntunedSizeGetsTheEntryOfTheNearestTunedSize) {
  const TunedConfigs configs = TunedConfigs::Open(path_);
  const TunedConfig entry = configs.Dispatch("hist", gpu_, {3000});
  ASSERT_TRUE(entry) << entry.note;
  EXPECT_EQ(entry.fallback, TunedFallback::kNearestSize);
  EXPECT_EQ(entry.size_key, "4096");
  EXPECT_NE(entry.note.find("nearest tuned size 4096"), std::string::npos) << entry.note;
  const TunedConfig missing = configs.Dispatch("other", gpu_, {1024});
  EXPECT_FALSE(missing);
  EXPECT_EQ(missing.note, configs.Lookup("other", gpu_, {1024}).note);
}

}  // namespace
}  // namespace tuner::db
