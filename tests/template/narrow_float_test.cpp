// The narrow float formats against known bit patterns (IEEE 754 binary16, bfloat16, and the OCP fp8
// formats that CUDA's __nv_fp8_e4m3 and __nv_fp8_e5m2 store): round to nearest with ties to even,
// subnormals, the largest values, overflow and NaN.
#include "template/narrow_float.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace tuner {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

TEST(NarrowFloat, KnownBitPatterns) {
  EXPECT_EQ(EncodeNarrow(1.0, kHalfFormat, false), 0x3C00u);
  EXPECT_EQ(EncodeNarrow(-2.0, kHalfFormat, false), 0xC000u);
  EXPECT_EQ(EncodeNarrow(65504, kHalfFormat, false), 0x7BFFu);
  EXPECT_EQ(EncodeNarrow(0x1p-24, kHalfFormat, false), 0x0001u);  // the smallest subnormal
  EXPECT_EQ(EncodeNarrow(1.0, kBfloat16Format, false), 0x3F80u);
  EXPECT_EQ(EncodeNarrow(-1.5, kBfloat16Format, false), 0xBFC0u);
  EXPECT_EQ(EncodeNarrow(1.0, kE4m3Format, false), 0x38u);
  EXPECT_EQ(EncodeNarrow(448, kE4m3Format, false), 0x7Eu);
  EXPECT_EQ(EncodeNarrow(0x1p-9, kE4m3Format, false), 0x01u);
  EXPECT_EQ(EncodeNarrow(1.0, kE5m2Format, false), 0x3Cu);
  EXPECT_EQ(EncodeNarrow(57344, kE5m2Format, false), 0x7Bu);
  EXPECT_EQ(EncodeNarrow(-0.0, kHalfFormat, false), 0x8000u);
}

TEST(NarrowFloat, TheLargestFiniteValues) {
  EXPECT_EQ(LargestFinite(kHalfFormat), 65504);
  EXPECT_EQ(LargestFinite(kBfloat16Format), 3.3895313892515355e38);
  EXPECT_EQ(LargestFinite(kE4m3Format), 448);
  EXPECT_EQ(LargestFinite(kE5m2Format), 57344);
}

TEST(NarrowFloat, TiesRoundToEven) {
  // 1 + 2^-11 lies halfway between 1 and half's next value 1 + 2^-10: to 1 (even mantissa).
  EXPECT_EQ(EncodeNarrow(1 + 0x1p-11, kHalfFormat, false), 0x3C00u);
  // 1 + 3 * 2^-11 lies halfway between 1 + 2^-10 (odd) and 1 + 2^-9: up.
  EXPECT_EQ(EncodeNarrow(1 + 3 * 0x1p-11, kHalfFormat, false), 0x3C02u);
  EXPECT_EQ(EncodeNarrow(1 + 0x1p-8, kBfloat16Format, false), 0x3F80u);
  EXPECT_EQ(EncodeNarrow(1 + 0x1p-8 + 0x1p-20, kBfloat16Format, false), 0x3F81u);  // above halfway
  // e4m3 between 448 and the 480 it does not have: 464 ties to 448 (even), above that overflows.
  EXPECT_EQ(EncodeNarrow(464, kE4m3Format, false), 0x7Eu);
  // A subnormal rounding up into the smallest normal value.
  EXPECT_EQ(EncodeNarrow(0x1p-14 - 0x1p-26, kHalfFormat, false), 0x0400u);
  EXPECT_EQ(EncodeNarrow(0x1p-26, kHalfFormat, false), 0x0000u);  // below half the smallest subnormal
}

TEST(NarrowFloat, OverflowIsInfinityNaNOrTheLargestValue) {
  EXPECT_EQ(EncodeNarrow(65520, kHalfFormat, false), 0x7C00u);  // halfway to 2^16: to infinity
  EXPECT_EQ(EncodeNarrow(65519, kHalfFormat, false), 0x7BFFu);
  EXPECT_EQ(EncodeNarrow(-kInf, kHalfFormat, false), 0xFC00u);
  EXPECT_EQ(EncodeNarrow(500, kE4m3Format, false), 0x7Fu);  // no infinity: NaN
  EXPECT_EQ(EncodeNarrow(500, kE4m3Format, true), 0x7Eu);   // __NV_SATFINITE
  EXPECT_EQ(EncodeNarrow(-1e6, kE5m2Format, true), 0xFBu);
  EXPECT_EQ(EncodeNarrow(1e6, kE5m2Format, false), 0x7Cu);
  EXPECT_EQ(EncodeNarrow(std::nan(""), kE4m3Format, true), 0x7Fu);
  EXPECT_EQ(EncodeNarrow(std::nan(""), kBfloat16Format, false), 0x7FC0u);
}

TEST(NarrowFloat, DecodingIsExactAndEveryPatternRoundTrips) {
  EXPECT_EQ(DecodeNarrow(0x3C00, kHalfFormat), 1.0);
  EXPECT_EQ(DecodeNarrow(0x0001, kHalfFormat), 0x1p-24);
  EXPECT_EQ(DecodeNarrow(0x7C00, kHalfFormat), kInf);
  EXPECT_TRUE(std::isnan(DecodeNarrow(0x7FFF, kHalfFormat)));
  EXPECT_TRUE(std::isnan(DecodeNarrow(0xFF, kE4m3Format)));
  EXPECT_EQ(DecodeNarrow(0x78, kE4m3Format), 256.0);  // 1.000 x 2^8: e4m3 uses the top exponent
  EXPECT_EQ(DecodeNarrow(0xFFFF, kBfloat16Format) == DecodeNarrow(0xFFFF, kBfloat16Format), false);  // NaN
  for (const NarrowFormat format : {kHalfFormat, kBfloat16Format, kE4m3Format, kE5m2Format}) {
    const std::uint32_t patterns = 1u << (1 + format.exponent_bits + format.mantissa_bits);
    for (std::uint32_t bits = 0; bits < patterns; ++bits) {
      const double value = DecodeNarrow(bits, format);
      if (std::isnan(value)) continue;
      EXPECT_EQ(EncodeNarrow(value, format, false), bits) << format.exponent_bits << "," << format.mantissa_bits;
    }
  }
}

}  // namespace
}  // namespace tuner
