// The floating-point formats narrower than float that CUDA stores (half, bfloat16, and the two fp8
// formats of __nv_fp8_e4m3 and __nv_fp8_e5m2), as bit patterns on the host: no CUDA header, so that
// the worker's host code, the check and the tests read and write them alike. Rounding is to the
// nearest, ties to even, as __float2half_rn, __float2bfloat16_rn and __nv_cvt_float_to_fp8 do.
#pragma once

#include <cstdint>

namespace tuner {

struct NarrowFormat {
  int exponent_bits;
  int mantissa_bits;
  bool has_infinity;  // IEEE-like; e4m3 has none: its only NaN is S.1111.111 and 448 its largest value
};

inline constexpr NarrowFormat kHalfFormat{5, 10, true};
inline constexpr NarrowFormat kBfloat16Format{8, 7, true};
inline constexpr NarrowFormat kE4m3Format{4, 3, false};
inline constexpr NarrowFormat kE5m2Format{5, 2, true};

// `value` rounded to the format. Beyond the largest finite value: infinity where the format has one,
// else NaN; with `saturate`, the largest finite value of the sign (CUDA's __NV_SATFINITE, which the
// fp8 fills use). NaN stays NaN.
std::uint32_t EncodeNarrow(double value, NarrowFormat format, bool saturate);

// The exact value of the bit pattern `bits` (its low 1 + exponent + mantissa bits).
double DecodeNarrow(std::uint32_t bits, NarrowFormat format);

double LargestFinite(NarrowFormat format);

}  // namespace tuner
