// A kernel's scalar argument in the 8-byte slot cudaLaunchKernel reads it from.
#pragma once

#include <cstdint>

#include "template/template_spec.h"

namespace tuner {

// Stores `value` as `type` at the start of `slot`.
void StoreScalar(std::uint64_t& slot, ScalarType type, double value);

}  // namespace tuner
