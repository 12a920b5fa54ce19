// Host-side contents of kernel buffers: initial values (reproducible from a seed), the comparison
// of an output with the reference output, and a checksum. No GPU needed, so all are unit-tested;
// the worker's GPU kernels (gpu_utility_kernels.h) compute the same.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "template/template_spec.h"

namespace tuner {

// Fills `count` elements of `type` at `data`. kPoison sets every byte to 0xFF (a NaN for floats).
// kRandomInt gives integers in [-98, 97], mean 0, each 1 modulo 3: a sum of up to 2^30 of them stays
// exact in fp32 (far below 2^24), and a sum that loses or repeats k of them, k not a multiple of 3
// (any power of two: a warp, a block), is off by at least 1.
void FillBuffer(void* data, ScalarType type, std::size_t count, BufferInit init, unsigned long long seed);

// A checksum of `bytes` that any change of one 4-byte word changes, as does moving words: the sum
// over words w_i of Mix(i * golden + w_i) modulo 2^64, the last word padded with zero bytes. The worker computes
// the same on the GPU to see whether a kernel wrote one of its inputs.
std::uint64_t Checksum(const void* data, std::size_t bytes);

struct Comparison {
  std::size_t mismatches = 0;
  std::size_t first_index = 0;
  double first_value = 0;
  double first_expected = 0;
  double max_abs_error = 0;

  bool Passed() const { return mismatches == 0; }
  std::string Describe(const std::string& buffer) const;  // one line for the database
};

// Every element must satisfy |out - ref| <= atol + rtol * |ref|; NaN or infinity in the output
// never passes, whatever the reference holds.
Comparison CompareBuffers(const void* output, const void* reference, ScalarType type, std::size_t count, double atol,
                          double rtol);

}  // namespace tuner
