#include "pairwise_sample.h"

#include <gtest/gtest.h>

namespace tuner::testing {
namespace {

ParamValues Candidate(long long a, long long b, long long c) { return {{"A", a}, {"B", b}, {"C", c}}; }

std::set<ValuePair> AllPairs(const std::vector<ParamValues>& candidates) {
  std::set<ValuePair> all;
  for (const ParamValues& c : candidates)
    for (const ValuePair& p : ValuePairs(c)) all.insert(p);
  return all;
}

TEST(PairwiseSample, HoldsEveryPairOfValuesInFarFewerCandidates) {
  std::vector<ParamValues> space;  // 4 x 4 x 4, without the combinations where a + b + c is odd
  for (long long a = 0; a < 4; ++a)
    for (long long b = 0; b < 4; ++b)
      for (long long c = 0; c < 4; ++c)
        if ((a + b + c) % 2 == 0) space.push_back(Candidate(a, b, c));
  const std::vector<ParamValues> sample = PairwiseSample(space);
  EXPECT_EQ(AllPairs(sample), AllPairs(space));
  EXPECT_LE(sample.size(), 20u);  // 16 pairs of values of A and B alone need 16
  EXPECT_EQ(PairwiseSample(space), sample);
}

TEST(PairwiseSample, ASingleParameterKeepsEachValueOnce) {
  const std::vector<ParamValues> space = {{{"A", 1}}, {{"A", 2}}, {{"A", 1}}};
  EXPECT_EQ(PairwiseSample(space), (std::vector<ParamValues>{{{"A", 1}}, {{"A", 2}}}));
  EXPECT_TRUE(PairwiseSample({}).empty());
}

}  // namespace
}  // namespace tuner::testing
