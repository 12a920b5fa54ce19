// Where the CUDA toolkit may be on this machine: CUPTI is loaded from it and NVRTC finds the
// toolkit's device headers (<cuda_fp16.h>, <cuda_bf16.h>, <cuda_fp8.h>) in it.
#pragma once

#include <string>
#include <vector>

namespace tuner {

// In order: $CUDA_HOME, $CUDA_PATH, the toolkit this binary was built with, /usr/local/cuda.
std::vector<std::string> ToolkitDirs();

// The include folder of the first of `toolkit_dirs` that has the toolkit's half-precision header;
// "" when none has.
std::string ToolkitIncludeDir(const std::vector<std::string>& toolkit_dirs);

}  // namespace tuner
