// tune --strategy auto's first candidates: a warm start's seeds first (those not stored), then
// seeded random ones, never one twice.
#include "search/first_sample.h"

#include <gtest/gtest.h>

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

TEST(FirstSample, WarmTheSeedsComeFirstUnlessStored) {
  WarmStart warm;
  warm.sweeps = 1;
  warm.seeds = {42, 3, 99, 17};
  std::vector<std::size_t> missing;
  for (std::size_t c = 0; c < 100; ++c)
    if (c != 3) missing.push_back(c);  // candidate 3 is stored already
  const std::vector<std::size_t> sample = FirstSample(missing, 8, 7, &warm);
  ASSERT_EQ(sample.size(), 8u);
  EXPECT_EQ(std::vector<std::size_t>(sample.begin(), sample.begin() + 3), (std::vector<std::size_t>{42, 99, 17}));
  EXPECT_EQ(std::set<std::size_t>(sample.begin(), sample.end()).size(), 8u);
  EXPECT_EQ(std::count(sample.begin(), sample.end(), 3u), 0);
  // More seeds than the sample: the first ones.
  EXPECT_EQ(FirstSample(missing, 2, 7, &warm), (std::vector<std::size_t>{42, 99}));
}

TEST(FirstSample, NeverMoreThanTheCandidatesLeft) {
  EXPECT_EQ(FirstSample(Range(3), 16, 0, nullptr).size(), 3u);
  EXPECT_TRUE(FirstSample({}, 16, 0, nullptr).empty());
}

}  // namespace
}  // namespace tuner
