// For the example and the benchmark: a kernel compiled at run time with NVRTC for the current GPU
// and loaded with the runtime's library API (no libcuda link).
#pragma once

#include <cuda_runtime.h>
#include <nvrtc.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace example {

inline void Check(cudaError_t status, const char* call) {
  if (status != cudaSuccess)
    throw std::runtime_error(std::string(call) + ": " + cudaGetErrorName(status) + ": " + cudaGetErrorString(status));
}

// `defines` are NVRTC options such as "-DBLOCK=256"; `name` is the kernel as C++ names it
// ("histogram", "app::scaled_sum<256, 4>"), looked up by its lowered name.
inline cudaKernel_t CompileKernel(const std::string& source, const std::string& name,
                                  std::vector<std::string> options) {
  int device = 0, major = 0, minor = 0;
  Check(cudaGetDevice(&device), "cudaGetDevice");
  Check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device), "cudaDeviceGetAttribute");
  Check(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device), "cudaDeviceGetAttribute");
  options.push_back("-arch=sm_" + std::to_string(major) + std::to_string(minor));
  std::vector<const char*> pointers;
  for (const std::string& o : options) pointers.push_back(o.c_str());
  nvrtcProgram program;
  nvrtcCreateProgram(&program, source.c_str(), "kernel.cu", 0, nullptr, nullptr);
  nvrtcAddNameExpression(program, name.c_str());
  if (nvrtcCompileProgram(program, static_cast<int>(pointers.size()), pointers.data()) != NVRTC_SUCCESS) {
    std::size_t size = 0;
    nvrtcGetProgramLogSize(program, &size);
    std::string log(size, '\0');
    nvrtcGetProgramLog(program, log.data());
    nvrtcDestroyProgram(&program);
    throw std::runtime_error("NVRTC failed for " + name + ":\n" + log);
  }
  const char* lowered = nullptr;
  nvrtcGetLoweredName(program, name.c_str(), &lowered);
  const std::string symbol = lowered ? lowered : name;  // copied: NVRTC frees it with the program
  std::size_t size = 0;
  nvrtcGetCUBINSize(program, &size);
  std::vector<char> cubin(size);
  nvrtcGetCUBIN(program, cubin.data());
  nvrtcDestroyProgram(&program);
  cudaLibrary_t library;  // kept for the life of the process
  Check(cudaLibraryLoadData(&library, cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0), "cudaLibraryLoadData");
  cudaKernel_t kernel;
  Check(cudaLibraryGetKernel(&kernel, library, symbol.c_str()), "cudaLibraryGetKernel");
  return kernel;
}

}  // namespace example
