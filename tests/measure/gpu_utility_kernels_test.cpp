// The worker's own kernels compile without a GPU; on a GPU (skipped without one) the fill kernel
// gives exactly the values FillBuffer defines, the checksum is Checksum's, and the check rejects
// exactly the elements worked out by hand below, as CompareBuffers does.
#include "measure/gpu_utility_kernels.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <iterator>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

#include "gpu_test_support.h"
#include "measure/buffer_contents.h"

namespace tuner {
namespace {

TEST(UtilityKernelsGpu, FillMatchesTheHostDefinition) {
  TUNER_GPU_TEST(1);
  UtilityKernels kernels(0);
  constexpr std::size_t kCount = 100003;
  for (const ElementType& element : ElementTypes()) {
    const ScalarType type = element.type;
    for (BufferInit init : {BufferInit::kRandom, BufferInit::kZero, BufferInit::kOne, BufferInit::kIndex,
                            BufferInit::kPoison, BufferInit::kRandomInt}) {
      const std::size_t bytes = kCount * SizeOf(type);
      DevicePointer device = DeviceAlloc(bytes);
      kernels.Fill(device.get(), type, kCount, init, 42);
      std::vector<unsigned char> gpu(bytes), host(bytes);
      ASSERT_EQ(cudaMemcpy(gpu.data(), device.get(), bytes, cudaMemcpyDeviceToHost), cudaSuccess);
      FillBuffer(host.data(), type, kCount, init, 42);
      EXPECT_EQ(gpu, host) << ToString(type) << " " << ToString(init);
    }
  }
}

// One element per rule of the check, values exact in binary so that every bound is exact, and the
// number each (atol, rtol) must reject worked out by hand (|out - ref| <= atol + rtol * |ref|; a
// NaN or infinite output never passes, nor any output against a NaN reference):
//   #  out      ref     |diff|
//   0  1        1       0        passes always
//   1  1.25     1       0.25     passes from atol 0.25
//   2  100.5    100     0.5      passes from atol 0.5, or rtol 2^-7 (bound 0.78125)
//   3  -2.0625  -2      0.0625   passes from atol 0.0625, or atol 0.0625 - 2^-6 with rtol 2^-7
//   4  NaN      1       -        never
//   5  +inf     +inf    -        never (equal, but not finite)
//   6  0        NaN     -        never
//   7  3        2       1        passes at atol 1 (the bound is inclusive)
// The pattern is repeated over many blocks, so every block's count must reach the total.
struct CheckCase {
  double atol, rtol;
  std::uint64_t rejected_per_pattern;
};
constexpr CheckCase kFloatCases[] = {
    {0, 0, 7}, {0.25, 0, 5}, {1, 0, 3}, {0, 0x1p-7, 6}, {0.0625, 0x1p-7, 5}, {0.0625 - 0x1p-6, 0x1p-7, 5},
};
constexpr std::size_t kRepeats = 12501;  // 100,008 elements

// With `kernels` null, only the host comparison (no GPU needed): it must reject the same elements.
template <typename T>
void ExpectCounts(UtilityKernels* kernels, ScalarType type, const std::vector<T>& out_pattern,
                  const std::vector<T>& ref_pattern, const std::vector<CheckCase>& cases) {
  std::vector<T> output, reference;
  for (std::size_t r = 0; r < kRepeats; ++r) {
    output.insert(output.end(), out_pattern.begin(), out_pattern.end());
    reference.insert(reference.end(), ref_pattern.begin(), ref_pattern.end());
  }
  const std::size_t bytes = output.size() * sizeof(T);
  DevicePointer out, ref;
  if (kernels) {
    out = DeviceAlloc(bytes);
    ref = DeviceAlloc(bytes);
    ASSERT_EQ(cudaMemcpy(out.get(), output.data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(ref.get(), reference.data(), bytes, cudaMemcpyHostToDevice), cudaSuccess);
  }
  for (const CheckCase& c : cases) {
    SCOPED_TRACE(ToString(type) + " atol " + std::to_string(c.atol) + " rtol " + std::to_string(c.rtol));
    const std::uint64_t expected = c.rejected_per_pattern * kRepeats;
    EXPECT_EQ(CompareBuffers(output.data(), reference.data(), type, output.size(), c.atol, c.rtol).mismatches,
              expected);
    if (kernels) {
      EXPECT_EQ(kernels->CountMismatches(out.get(), ref.get(), type, output.size(), c.atol, c.rtol), expected);
    }
  }
}

template <typename T>
void ExpectFloatingCounts(UtilityKernels* kernels, ScalarType type) {
  const T nan = std::numeric_limits<T>::quiet_NaN(), inf = std::numeric_limits<T>::infinity();
  ExpectCounts<T>(kernels, type, {1, 1.25, 100.5, -2.0625, nan, inf, 0, 3}, {1, 1, 100, -2, 1, inf, nan, 2},
                  std::vector<CheckCase>(std::begin(kFloatCases), std::end(kFloatCases)));
}

// Integers (no NaN or infinity): |diff| 0, 2, 3 and 0; unsigned 4 - 7 is taken as -3, not a wrap.
template <typename T>
void ExpectIntegerCounts(UtilityKernels* kernels, ScalarType type) {
  ExpectCounts<T>(kernels, type, {10, 12, 4, 1000}, {10, 10, 7, 1000}, {{0, 0, 2}, {2, 0, 1}, {3, 0, 0}, {0, 0.25, 1}});
}

void ExpectCountsForEveryType(UtilityKernels* kernels) {
  ExpectFloatingCounts<float>(kernels, ScalarType::kFloat);
  ExpectFloatingCounts<double>(kernels, ScalarType::kDouble);
  ExpectIntegerCounts<std::int32_t>(kernels, ScalarType::kInt);
  ExpectIntegerCounts<std::uint32_t>(kernels, ScalarType::kUint);
  ExpectIntegerCounts<std::int64_t>(kernels, ScalarType::kInt64);
  ExpectIntegerCounts<std::uint64_t>(kernels, ScalarType::kUint64);
}

TEST(UtilityKernelsGpu, CheckRejectsExactlyTheElementsOutsideTheTolerance) {
  TUNER_GPU_TEST(1);
  UtilityKernels kernels(0);
  ExpectCountsForEveryType(&kernels);
}

// The narrow and small types: an output of random values with every 7th element one unit off in its
// last place and every 101st a NaN (fp) or off by 3 (integers) is counted on the GPU as CompareBuffers
// counts it on the host, at tolerances below, at and above one unit.
TEST(UtilityKernelsGpu, EveryTypesCheckCountsAsTheHostDoes) {
  TUNER_GPU_TEST(1);
  UtilityKernels kernels(0);
  constexpr std::size_t kCount = 100003;
  for (const ElementType& e : ElementTypes()) {
    std::vector<unsigned char> ref(kCount * e.bytes), out;
    FillBuffer(ref.data(), e.type, kCount, BufferInit::kRandom, 9);
    out = ref;
    for (std::size_t i = 0; i < kCount; i += 7) out[i * e.bytes] += 1;  // the lowest byte: one unit
    for (std::size_t i = 0; i < kCount; i += 101)
      e.floating ? StoreElement(out.data(), e.type, i, std::numeric_limits<double>::quiet_NaN())
                 : StoreElement(out.data(), e.type, i, LoadElement(ref.data(), e.type, i) + 3);
    DevicePointer device_out = DeviceAlloc(out.size()), device_ref = DeviceAlloc(ref.size());
    ASSERT_EQ(cudaMemcpy(device_out.get(), out.data(), out.size(), cudaMemcpyHostToDevice), cudaSuccess);
    ASSERT_EQ(cudaMemcpy(device_ref.get(), ref.data(), ref.size(), cudaMemcpyHostToDevice), cudaSuccess);
    for (const auto& [atol, rtol] : {std::pair{0.0, 0.0}, {0.0, e.epsilon}, {0.0, 2 * e.epsilon}, {2.0, 0.0}}) {
      const std::size_t host = CompareBuffers(out.data(), ref.data(), e.type, kCount, atol, rtol).mismatches;
      EXPECT_EQ(kernels.CountMismatches(device_out.get(), device_ref.get(), e.type, kCount, atol, rtol), host)
          << e.name << " atol " << atol << " rtol " << rtol;
      if (atol == 0 && rtol == 0) {
        EXPECT_GT(host, kCount / 7) << e.name;
      }
    }
  }
}

// The same table against the host comparison alone, so that the expectations run everywhere.
TEST(UtilityKernels, HostComparisonRejectsExactlyTheElementsOutsideTheTolerance) { ExpectCountsForEveryType(nullptr); }

TEST(UtilityKernels, CompileWithoutAGpu) {
  EXPECT_GT(CompileUtilityKernels("sm_90").size(), 1000u);
  EXPECT_THROW(CompileUtilityKernels("sm_1"), std::runtime_error);
}

TEST(UtilityKernelsGpu, ChecksumIsTheHostChecksumAndSeesOneChangedWord) {
  TUNER_GPU_TEST(1);
  UtilityKernels kernels(0);
  for (std::size_t words : {1u, 31u, 4096u, 1000003u}) {
    std::vector<std::uint32_t> host(words);
    FillBuffer(host.data(), ScalarType::kUint, words, BufferInit::kRandom, 3);
    DevicePointer device = DeviceAlloc(words * 4);
    ASSERT_EQ(cudaMemcpy(device.get(), host.data(), words * 4, cudaMemcpyHostToDevice), cudaSuccess);
    const std::uint64_t before = kernels.Checksum(device.get(), words * 4);
    EXPECT_EQ(before, Checksum(host.data(), words * 4)) << words;
    host[words / 2] ^= 1u << 7;
    ASSERT_EQ(cudaMemcpy(device.get(), host.data(), words * 4, cudaMemcpyHostToDevice), cudaSuccess);
    EXPECT_NE(kernels.Checksum(device.get(), words * 4), before) << words;
    EXPECT_EQ(kernels.Checksum(device.get(), words * 4), Checksum(host.data(), words * 4)) << words;
  }
}

}  // namespace
}  // namespace tuner
