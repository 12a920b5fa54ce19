#include "template/narrow_float.h"

#include <cmath>
#include <limits>

namespace tuner {

namespace {

int Bias(NarrowFormat f) { return (1 << (f.exponent_bits - 1)) - 1; }
std::uint32_t SignBit(NarrowFormat f) { return 1u << (f.exponent_bits + f.mantissa_bits); }
std::uint32_t AllExponent(NarrowFormat f) { return ((1u << f.exponent_bits) - 1) << f.mantissa_bits; }
std::uint32_t AllMantissa(NarrowFormat f) { return (1u << f.mantissa_bits) - 1; }

// The NaN that CUDA's conversions give: the quiet NaN of IEEE-like formats, S.1111.111 for e4m3.
std::uint32_t NaNBits(NarrowFormat f) {
  return f.has_infinity ? AllExponent(f) | (1u << (f.mantissa_bits - 1)) : AllExponent(f) | AllMantissa(f);
}

std::uint32_t LargestFiniteBits(NarrowFormat f) {
  return f.has_infinity ? AllExponent(f) - 1 : (AllExponent(f) | AllMantissa(f)) - 1;
}

std::uint32_t Overflow(NarrowFormat f, std::uint32_t sign, bool saturate) {
  if (saturate) return sign | LargestFiniteBits(f);
  return f.has_infinity ? sign | AllExponent(f) : sign | NaNBits(f);
}

}  // namespace

double LargestFinite(NarrowFormat format) { return DecodeNarrow(LargestFiniteBits(format), format); }

std::uint32_t EncodeNarrow(double value, NarrowFormat f, bool saturate) {
  const std::uint32_t sign = std::signbit(value) ? SignBit(f) : 0;
  if (std::isnan(value)) return sign | NaNBits(f);
  const double magnitude = std::fabs(value);
  if (std::isinf(magnitude)) return Overflow(f, sign, saturate);
  if (magnitude == 0) return sign;
  const int min_exponent = 1 - Bias(f);  // of the smallest normal value
  int exponent = std::ilogb(magnitude);
  if (exponent < min_exponent) exponent = min_exponent;  // subnormal: the smallest normal's quantum
  // The value in units of its quantum, rounded to a whole number with ties to even: exact in double,
  // since the formats are far narrower.
  const double units = std::nearbyint(std::ldexp(magnitude, f.mantissa_bits - exponent));
  if (std::ldexp(units, exponent - f.mantissa_bits) > LargestFinite(f)) return Overflow(f, sign, saturate);
  auto whole = static_cast<std::uint32_t>(units);
  if (whole >> (f.mantissa_bits + 1)) {  // rounded up to the next power of two
    whole >>= 1;
    ++exponent;
  }
  if (whole < (1u << f.mantissa_bits)) return sign | whole;  // subnormal (or rounded to zero)
  const auto biased = static_cast<std::uint32_t>(exponent + Bias(f));
  return sign | (biased << f.mantissa_bits) | (whole & AllMantissa(f));
}

double DecodeNarrow(std::uint32_t bits, NarrowFormat f) {
  const double sign = bits & SignBit(f) ? -1.0 : 1.0;
  const std::uint32_t biased = (bits & AllExponent(f)) >> f.mantissa_bits;
  const std::uint32_t mantissa = bits & AllMantissa(f);
  const std::uint32_t top = (1u << f.exponent_bits) - 1;
  if (f.has_infinity && biased == top)
    return mantissa ? std::numeric_limits<double>::quiet_NaN() : sign * std::numeric_limits<double>::infinity();
  if (!f.has_infinity && biased == top && mantissa == AllMantissa(f)) return std::numeric_limits<double>::quiet_NaN();
  if (biased == 0) return sign * std::ldexp(mantissa, 1 - Bias(f) - f.mantissa_bits);
  return sign * std::ldexp((1u << f.mantissa_bits) | mantissa, static_cast<int>(biased) - Bias(f) - f.mantissa_bits);
}

}  // namespace tuner
