#include "measure/buffer_contents.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
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

// Every type's fill: random values within what the type represents (floats in [-1, 1), rounded to
// the type; integers in [0, 100)), the same values as a double fill rounded once, zero, one, index,
// and poison a NaN in every floating type.
TEST(BufferContents, EveryTypeIsFilledWithValuesItRepresents) {
  constexpr std::size_t kCount = 4096;
  std::vector<double> wide(kCount);
  FillBuffer(wide.data(), ScalarType::kDouble, kCount, BufferInit::kRandom, 5);
  for (const ElementType& e : ElementTypes()) {
    std::vector<unsigned char> bytes(kCount * e.bytes);
    FillBuffer(bytes.data(), e.type, kCount, BufferInit::kRandom, 5);
    std::vector<unsigned char> expected(kCount * e.bytes);
    for (std::size_t i = 0; i < kCount; ++i) {
      const double v = LoadElement(bytes.data(), e.type, i);
      ASSERT_TRUE(e.floating ? v >= -1 && v <= 1 : v >= 0 && v < 100) << e.name << " " << v;
      if (e.floating) StoreElement(expected.data(), e.type, i, wide[i]);
    }
    if (e.floating) {
      EXPECT_EQ(bytes, expected) << e.name;
    }
    for (BufferInit init : {BufferInit::kZero, BufferInit::kOne, BufferInit::kIndex}) {
      FillBuffer(bytes.data(), e.type, kCount, init, 0);
      const double want = init == BufferInit::kZero ? 0 : init == BufferInit::kOne ? 1 : 5;
      EXPECT_EQ(LoadElement(bytes.data(), e.type, 5), want) << e.name << " " << ToString(init);
    }
    FillBuffer(bytes.data(), e.type, kCount, BufferInit::kIndex, 0);
    if (e.type == ScalarType::kHalf) {    // rounded to even
      EXPECT_EQ(LoadElement(bytes.data(), e.type, 2049), 2048);
    }
    if (e.type == ScalarType::kInt8) {     // wraps
      EXPECT_EQ(LoadElement(bytes.data(), e.type, 130), -126);
    }
    if (e.type == ScalarType::kFp8E4m3) {  // saturates
      EXPECT_EQ(LoadElement(bytes.data(), e.type, 4000), 448);
    }
    FillBuffer(bytes.data(), e.type, kCount, BufferInit::kPoison, 0);
    if (e.floating) {
      EXPECT_TRUE(std::isnan(LoadElement(bytes.data(), e.type, 7))) << e.name;
    }
  }
}

// The check of narrow types compares their values, decoded exactly, with the tolerance of their
// epsilon; NaN (poison) never passes.
TEST(BufferContents, NarrowOutputsAreComparedByValue) {
  std::vector<std::uint16_t> ref(3), out(3);
  StoreElement(ref.data(), ScalarType::kBfloat16, 0, 1.0);
  StoreElement(ref.data(), ScalarType::kBfloat16, 1, 100.0);
  StoreElement(ref.data(), ScalarType::kBfloat16, 2, -3.0);
  out = ref;
  out[1] += 1;  // one unit in the last place: 100.5
  EXPECT_TRUE(CompareBuffers(out.data(), ref.data(), ScalarType::kBfloat16, 3, 0, 0x1p-6).Passed());
  const Comparison exact = CompareBuffers(out.data(), ref.data(), ScalarType::kBfloat16, 3, 0, 0);
  EXPECT_EQ(exact.mismatches, 1u);
  EXPECT_EQ(exact.first_value, 100.5);
  EXPECT_EQ(exact.first_expected, 100);
  out[2] = 0xFFFF;
  EXPECT_EQ(CompareBuffers(out.data(), ref.data(), ScalarType::kBfloat16, 3, 1e30, 0.1).mismatches, 1u);
}

// A buffer of 1- or 2-byte elements whose size is no multiple of 4: its last bytes count too.
TEST(BufferContents, TheChecksumSeesTheLastBytesOfAnOddSizedBuffer) {
  std::vector<std::uint8_t> bytes(7, 1);
  const std::uint64_t before = Checksum(bytes.data(), 7);
  bytes[6] = 2;
  EXPECT_NE(Checksum(bytes.data(), 7), before);
  EXPECT_EQ(Checksum(bytes.data(), 4), Checksum(bytes.data(), 4));
}

TEST(BufferContents, RandomIntGivesSmallIntegersOneModuloThreeWithMeanZero) {
  std::vector<double> v(1 << 20);
  FillBuffer(v.data(), ScalarType::kDouble, v.size(), BufferInit::kRandomInt, 11);
  double sum = 0, squares = 0;
  for (double x : v) {
    ASSERT_EQ(x, std::floor(x));
    ASSERT_GE(x, -98.0);
    ASSERT_LE(x, 97.0);
    ASSERT_EQ(((static_cast<long long>(x) % 3) + 3) % 3, 1) << x;
    sum += x;
    squares += x * x;
  }
  const double mean = sum / v.size(), deviation = std::sqrt(squares / v.size() - mean * mean);
  EXPECT_LT(std::fabs(mean), 0.3);  // 5 standard errors of the mean (56.3 / 1024)
  EXPECT_NEAR(deviation, 56.3, 0.5);
  // The same values in every type; negative ones wrap in unsigned types.
  std::vector<float> f(16);
  std::vector<std::int64_t> i64(16);
  std::vector<std::uint32_t> u32(16);
  FillBuffer(f.data(), ScalarType::kFloat, f.size(), BufferInit::kRandomInt, 11);
  FillBuffer(i64.data(), ScalarType::kInt64, i64.size(), BufferInit::kRandomInt, 11);
  FillBuffer(u32.data(), ScalarType::kUint, u32.size(), BufferInit::kRandomInt, 11);
  for (std::size_t k = 0; k < f.size(); ++k) {
    EXPECT_EQ(f[k], v[k]);
    EXPECT_EQ(i64[k], static_cast<std::int64_t>(v[k]));
    EXPECT_EQ(u32[k], static_cast<std::uint32_t>(static_cast<std::int64_t>(v[k])));
  }
}

// What the reduction's check relies on: fp32 sums of these values are exact, and leaving out any
// 32 of them (a warp's worth) changes the sum.
TEST(BufferContents, RandomIntSumsAreExactInFloatAndMissAnyWarp) {
  std::vector<float> v(1 << 22);
  FillBuffer(v.data(), ScalarType::kFloat, v.size(), BufferInit::kRandomInt, 20261122);
  float in_float = 0;
  double in_double = 0;
  for (float x : v) {
    in_float += x;
    in_double += x;
  }
  EXPECT_EQ(static_cast<double>(in_float), in_double);
  float window = 0;  // every run of 32 consecutive values sums to 2 modulo 3: never 0
  for (std::size_t k = 0; k < v.size(); ++k) {
    window += v[k] - (k >= 32 ? v[k - 32] : 0.0f);
    if (k >= 31) {
      ASSERT_NE(window, 0.0f) << k;
    }
  }
}

TEST(BufferContents, ChecksumSeesAChangedOrMovedWord) {
  std::vector<std::uint32_t> words(1000);
  FillBuffer(words.data(), ScalarType::kUint, words.size(), BufferInit::kRandom, 5);
  const std::uint64_t original = Checksum(words.data(), words.size() * 4);
  EXPECT_EQ(Checksum(words.data(), words.size() * 4), original);
  std::vector<std::uint32_t> changed = words;
  changed[999] += 1;
  EXPECT_NE(Checksum(changed.data(), changed.size() * 4), original);
  std::vector<std::uint32_t> swapped = words;
  std::swap(swapped[3], swapped[4]);
  ASSERT_NE(swapped, words);
  EXPECT_NE(Checksum(swapped.data(), swapped.size() * 4), original);
  const std::vector<std::uint32_t> zeros(1000, 0), shorter(999, 0);
  EXPECT_NE(Checksum(zeros.data(), 4000), Checksum(shorter.data(), 3996));  // zeros count too
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
