#include "buffer_contents.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

namespace tuner {
namespace {

TEST(BufferContents, RandomFillIsReproducibleAndInRange) {
  std::vector<float> a(1000), b(1000);
  FillBuffer(a.data(), ScalarType::kFloat, a.size(), BufferInit::kRandom, 7);
  FillBuffer(b.data(), ScalarType::kFloat, b.size(), BufferInit::kRandom, 7);
  EXPECT_EQ(a, b);
  for (float v : a) EXPECT_TRUE(v >= -1.0f && v < 1.0f) << v;
  FillBuffer(b.data(), ScalarType::kFloat, b.size(), BufferInit::kRandom, 8);
  EXPECT_NE(a, b);
}

TEST(BufferContents, PoisonIsNaNAndIndexCounts) {
  std::vector<float> f(4);
  FillBuffer(f.data(), ScalarType::kFloat, f.size(), BufferInit::kPoison, 0);
  for (float v : f) EXPECT_TRUE(std::isnan(v));
  std::vector<int> i(4);
  FillBuffer(i.data(), ScalarType::kInt, i.size(), BufferInit::kIndex, 0);
  EXPECT_EQ(i, (std::vector<int>{0, 1, 2, 3}));
}

TEST(BufferContents, ToleranceIsAbsolutePlusRelative) {
  const std::vector<double> ref = {1.0, 100.0, 0.0};
  const std::vector<double> close = {1.0 + 1e-6, 100.0 + 1e-4, 1e-7};
  EXPECT_TRUE(CompareBuffers(close.data(), ref.data(), ScalarType::kDouble, 3, 1e-6, 1e-5).Passed());
  const Comparison strict = CompareBuffers(close.data(), ref.data(), ScalarType::kDouble, 3, 0, 0);
  EXPECT_EQ(strict.mismatches, 3u);
  EXPECT_EQ(strict.first_index, 0u);
  EXPECT_NE(strict.Describe("out").find("3 element(s) of 'out'"), std::string::npos);
}

TEST(BufferContents, NaNNeverPasses) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> ref = {nan, 1.0f};
  const std::vector<float> out = {nan, nan};
  const Comparison c = CompareBuffers(out.data(), ref.data(), ScalarType::kFloat, 2, 1e30, 1e30);
  EXPECT_EQ(c.mismatches, 2u);
  const std::vector<float> inf = {1.0f, std::numeric_limits<float>::infinity()};
  EXPECT_FALSE(CompareBuffers(inf.data(), inf.data(), ScalarType::kFloat, 2, 1e30, 1e30).Passed());
}

}  // namespace
}  // namespace tuner
