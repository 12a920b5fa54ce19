// Host-side contents of kernel buffers: initial values (reproducible from a seed) and the
// comparison of an output with the reference output. No GPU needed, so both are unit-tested.
#pragma once

#include <cstddef>
#include <string>

#include "template_spec.h"

namespace tuner {

// Fills `count` elements of `type` at `data`. kPoison sets every byte to 0xFF (a NaN for floats).
void FillBuffer(void* data, ScalarType type, std::size_t count, BufferInit init, unsigned long long seed);

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
