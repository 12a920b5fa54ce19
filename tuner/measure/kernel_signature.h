// The kernel's own parameter list against the description's arguments, before any launch: a
// missing, extra or wrongly sized argument would otherwise launch with garbage and fail every check
// (or fault) with no word of the cause.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "measure/worker_protocol.h"

namespace tuner {

// The size in bytes of each parameter of the loaded kernel, in order (cudaFuncGetParamInfo).
std::vector<std::size_t> KernelParamBytes(const void* kernel);

// "" when `param_bytes` and `args` agree in number and in each size (a buffer is a pointer); else
// which argument differs and how, naming it as the description does.
std::string SignatureMismatch(const std::vector<std::size_t>& param_bytes, const std::vector<LaunchArg>& args);

}  // namespace tuner
