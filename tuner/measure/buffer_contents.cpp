#include "measure/buffer_contents.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <sstream>

namespace tuner {

namespace {

// splitmix64's finaliser: a bijection of 64-bit values that mixes every bit into every other.
std::uint64_t Mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

// splitmix64: fast, reproducible, good enough for test data.
std::uint64_t Next(std::uint64_t& state) { return Mix(state += 0x9E3779B97F4A7C15ULL); }

// kRandomInt: 1 + 3 * (u - b), u uniform in [-32, 32] and b = 1 with probability 1/3, from the high
// and low 32 bits of one random number: integers in [-98, 97] with mean 0 (standard deviation 56.3),
// each 1 modulo 3.
double RandomInt(std::uint64_t z) {
  const long long u = static_cast<long long>((z >> 32) % 65) - 32;
  const long long b = (z & 0xFFFFFFFFu) % 3 == 0;
  return static_cast<double>(1 + 3 * (u - b));
}

double Value(BufferInit init, std::size_t i, std::uint64_t& state, bool floating) {
  switch (init) {
    case BufferInit::kRandom:
      return floating ? static_cast<double>(Next(state) >> 11) * 0x1.0p-52 - 1.0
                      : static_cast<double>(Next(state) % 100);
    case BufferInit::kRandomInt:
      return RandomInt(Next(state));
    case BufferInit::kOne:
      return 1.0;
    case BufferInit::kIndex:
      return static_cast<double>(i);
    default:
      return 0.0;
  }
}

}  // namespace

void FillBuffer(void* data, ScalarType type, std::size_t count, BufferInit init, unsigned long long seed) {
  if (init == BufferInit::kPoison) {
    std::memset(data, 0xFF, count * SizeOf(type));
    return;
  }
  // Values are whole numbers except kRandom's floating-point ones; StoreElement rounds them to the type.
  const bool floating = IsFloatingPoint(type);
  std::uint64_t state = seed;
  for (std::size_t i = 0; i < count; ++i) StoreElement(data, type, i, Value(init, i, state, floating));
}

std::uint64_t Checksum(const void* data, std::size_t bytes) {
  const auto* words = static_cast<const std::uint32_t*>(data);
  const std::size_t whole = bytes / 4;
  std::uint64_t sum = 0;
  for (std::size_t i = 0; i < whole; ++i) sum += Mix(i * 0x9E3779B97F4A7C15ULL + words[i]);
  if (bytes % 4) {  // the last bytes of a buffer of 1- or 2-byte elements, as a word padded with zeros
    std::uint32_t last = 0;
    std::memcpy(&last, static_cast<const char*>(data) + whole * 4, bytes % 4);
    sum += Mix(whole * 0x9E3779B97F4A7C15ULL + last);
  }
  return sum;
}

Comparison CompareBuffers(const void* output, const void* reference, ScalarType type, std::size_t count, double atol,
                          double rtol) {
  Comparison result;
  for (std::size_t i = 0; i < count; ++i) {
    const double out = LoadElement(output, type, i);
    const double ref = LoadElement(reference, type, i);
    const double error = std::fabs(out - ref);
    const bool ok = std::isfinite(out) && error <= atol + rtol * std::fabs(ref);
    if (std::isfinite(error) && error > result.max_abs_error) result.max_abs_error = error;
    if (ok) continue;
    if (result.mismatches++ == 0) {
      result.first_index = i;
      result.first_value = out;
      result.first_expected = ref;
    }
  }
  return result;
}

std::string Comparison::Describe(const std::string& buffer) const {
  std::ostringstream text;
  text.precision(9);
  text << mismatches << " element(s) of '" << buffer << "' differ from the reference; first at index " << first_index
       << ": got " << first_value << ", expected " << first_expected;
  return text.str();
}

}  // namespace tuner
