// Where the CUDA toolkit may be on this machine: CUPTI is loaded from it, NVRTC finds the toolkit's
// headers in it (<cuda_fp16.h>, CCCL's <cuda/std/...>, <cub/...>, cooperative groups) and files that
// NVRTC cannot take are compiled by its nvcc.
#pragma once

#include <string>
#include <vector>

namespace tuner {

// In order: $CUDA_HOME, $CUDA_PATH, the toolkit this binary was built with, /usr/local/cuda.
std::vector<std::string> ToolkitDirs();

// The include folder of the first of `toolkit_dirs` that has the toolkit's half-precision header;
// "" when none has.
std::string ToolkitIncludeDir(const std::vector<std::string>& toolkit_dirs);

// The folders NVRTC searches for the toolkit's headers, as nvcc would: the include folder of the
// first toolkit that has one, and its CCCL folder (include/cccl, CUDA 13) when it exists; else the
// headers beside the loaded libnvrtc (`nvrtc_dir/../include`, as NVIDIA's CUDA 13 wheels lay them
// out, or the runtime's and CCCL's packages beside NVRTC's, as their CUDA 12 wheels do).
std::vector<std::string> ToolkitIncludeDirs(const std::vector<std::string>& toolkit_dirs, const std::string& nvrtc_dir);

// The folder of the libnvrtc this process loaded; "" when it cannot be told.
std::string LoadedNvrtcDir();

// The nvcc to compile files NVRTC cannot take: $TUNER_NVCC when set (a path; "" or "none": no
// nvcc), else bin/nvcc of the first toolkit that has one, else nvcc on the PATH; "" when none.
std::string FindNvcc();

}  // namespace tuner
