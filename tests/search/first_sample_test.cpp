// tune --strategy auto's first candidates: seeded random ones, and a warm start's seeds (those not
// stored) first and on top of them, never one twice.
#include "search/first_sample.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>

namespace tuner {
namespace {

std::vector<std::size_t> Range(std::size_t n) {
  std::vector<std::size_t> all(n);
  std::iota(all.begin(), all.end(), std::size_t{0});
  return all;
}

TEST(FirstSample, ColdItIsSeededRandomAndDistinct) {
  const std::vector<std::size_t> sample = FirstSample(Range(100), 16, 7, nullptr);
  ASSERT_EQ(sample.size(), 16u);
  EXPECT_EQ(std::set<std::size_t>(sample.begin(), sample.end()).size(), 16u);
  EXPECT_NE(sample, std::vector<std::size_t>(Range(16)));  // drawn, not the first sixteen
  EXPECT_EQ(sample, FirstSample(Range(100), 16, 7, nullptr));
  EXPECT_NE(sample, FirstSample(Range(100), 16, 8, nullptr));
}

// The warm start's quota: its seeds come first and on top of the cold sample, which stays whole.
TEST(FirstSample, WarmTheSeedsComeFirstOnTopOfTheWholeColdSample) {
  WarmStart warm;
  warm.sweeps = 1;
  warm.seeds = {42, 3, 99, 17};
  std::vector<std::size_t> missing;
  for (std::size_t c = 0; c < 100; ++c)
    if (c != 3) missing.push_back(c);  // candidate 3 is stored already
  const std::vector<std::size_t> cold = FirstSample(missing, 8, 7, nullptr);
  const std::vector<std::size_t> sample = FirstSample(missing, 8, 7, &warm);
  EXPECT_EQ(std::vector<std::size_t>(sample.begin(), sample.begin() + 3), (std::vector<std::size_t>{42, 99, 17}));
  for (const std::size_t c : cold) EXPECT_EQ(std::count(sample.begin(), sample.end(), c), 1) << c;
  EXPECT_EQ(std::set<std::size_t>(sample.begin(), sample.end()).size(), sample.size());
  EXPECT_EQ(std::count(sample.begin(), sample.end(), 3u), 0);
  const auto seeds_drawn =
      std::count_if(cold.begin(), cold.end(), [](std::size_t c) { return c == 42 || c == 99 || c == 17; });
  EXPECT_EQ(sample.size(), 3 + cold.size() - static_cast<std::size_t>(seeds_drawn));
}

TEST(FirstSample, UnderABudgetTheSeedsAreAQuarterOfIt) {
  WarmStart warm;
  warm.sweeps = 1;
  warm.seeds = {90, 91, 92, 93, 94};
  const std::vector<std::size_t> sample = FirstSample(Range(100), 4, 7, &warm, 8);
  EXPECT_EQ(std::vector<std::size_t>(sample.begin(), sample.begin() + 2), (std::vector<std::size_t>{90, 91}));
  std::vector<std::size_t> rest(sample.begin() + 2, sample.end());
  std::vector<std::size_t> cold = FirstSample(Range(100), 4, 7, nullptr);
  cold.erase(std::remove_if(cold.begin(), cold.end(), [](std::size_t c) { return c == 90 || c == 91; }), cold.end());
  EXPECT_EQ(rest, cold) << "the seeds past the quota are left out, the cold sample kept";
  EXPECT_EQ(FirstSample(Range(100), 4, 7, &warm, 3), FirstSample(Range(100), 4, 7, nullptr)) << "a budget of 3: none";
}

TEST(FirstSample, NeverMoreThanTheCandidatesLeft) {
  EXPECT_EQ(FirstSample(Range(3), 16, 0, nullptr).size(), 3u);
  EXPECT_TRUE(FirstSample({}, 16, 0, nullptr).empty());
}

}  // namespace
}  // namespace tuner
