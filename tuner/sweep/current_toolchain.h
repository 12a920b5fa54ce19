// The toolchain this process measures with: the driver's CUDA version (unknown without a driver),
// the CUDA runtime it was built with and the NVRTC it loaded; what every result it stores records
// (db/query/toolchain.h) and what `query` compares stored results with.
#pragma once

#include "db/query/toolchain.h"

namespace tuner {

db::Toolchain CurrentToolchain();

}  // namespace tuner
