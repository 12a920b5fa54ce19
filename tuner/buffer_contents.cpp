#include "buffer_contents.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <sstream>

namespace tuner {

namespace {

// splitmix64: fast, reproducible, good enough for test data.
std::uint64_t Next(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9E3779B97F4A7C15ULL);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  return z ^ (z >> 31);
}

double Value(BufferInit init, std::size_t i, std::uint64_t& state, bool floating) {
  switch (init) {
    case BufferInit::kRandom:
      return floating ? static_cast<double>(Next(state) >> 11) * 0x1.0p-52 - 1.0
                      : static_cast<double>(Next(state) % 100);
    case BufferInit::kOne: return 1.0;
    case BufferInit::kIndex: return static_cast<double>(i);
    default: return 0.0;
  }
}

template <typename T>
void Fill(T* data, std::size_t count, BufferInit init, std::uint64_t seed, bool floating) {
  for (std::size_t i = 0; i < count; ++i) data[i] = static_cast<T>(Value(init, i, seed, floating));
}

double Load(const void* data, ScalarType type, std::size_t i) {
  switch (type) {
    case ScalarType::kFloat: return static_cast<const float*>(data)[i];
    case ScalarType::kDouble: return static_cast<const double*>(data)[i];
    case ScalarType::kInt: return static_cast<const std::int32_t*>(data)[i];
    case ScalarType::kUint: return static_cast<const std::uint32_t*>(data)[i];
    case ScalarType::kInt64: return static_cast<double>(static_cast<const std::int64_t*>(data)[i]);
    case ScalarType::kUint64: return static_cast<double>(static_cast<const std::uint64_t*>(data)[i]);
  }
  return 0;
}

}  // namespace

void FillBuffer(void* data, ScalarType type, std::size_t count, BufferInit init, unsigned long long seed) {
  if (init == BufferInit::kPoison) {
    std::memset(data, 0xFF, count * SizeOf(type));
    return;
  }
  const bool floating = IsFloatingPoint(type);
  switch (type) {
    case ScalarType::kFloat: Fill(static_cast<float*>(data), count, init, seed, floating); break;
    case ScalarType::kDouble: Fill(static_cast<double*>(data), count, init, seed, floating); break;
    case ScalarType::kInt: Fill(static_cast<std::int32_t*>(data), count, init, seed, floating); break;
    case ScalarType::kUint: Fill(static_cast<std::uint32_t*>(data), count, init, seed, floating); break;
    case ScalarType::kInt64: Fill(static_cast<std::int64_t*>(data), count, init, seed, floating); break;
    case ScalarType::kUint64: Fill(static_cast<std::uint64_t*>(data), count, init, seed, floating); break;
  }
}

Comparison CompareBuffers(const void* output, const void* reference, ScalarType type, std::size_t count, double atol,
                          double rtol) {
  Comparison result;
  for (std::size_t i = 0; i < count; ++i) {
    const double out = Load(output, type, i);
    const double ref = Load(reference, type, i);
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
