// NVRTC's error check and an owner of one nvrtcProgram, shared by the tuner's compiles
// (compile/compiler) and the worker's own kernels (measure/gpu_utility_kernels). Every NVRTC call
// is checked: a failure throws NvrtcError naming the call and NVRTC's error, except the release
// in the destructor, which is logged (cuda/release_log.h).
#pragma once

#include <nvrtc.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace tuner {

struct NvrtcError : std::runtime_error {
  NvrtcError(nvrtcResult code, const std::string& message) : std::runtime_error(message), code(code) {}
  nvrtcResult code;
};

// Throws NvrtcError "nvrtcGetCUBIN failed: NVRTC_ERROR_INVALID_PROGRAM" unless `result` is success.
void CheckNvrtc(nvrtcResult result, const char* call);

struct NvrtcHeader {
  std::string include_name;
  std::string text;
};

class NvrtcProgram {
 public:
  // The headers are given by name, so NVRTC compiles exactly these texts. `name` names the source
  // in NVRTC's log.
  NvrtcProgram(const std::string& source, const std::string& name, const std::vector<NvrtcHeader>& headers = {});
  ~NvrtcProgram();
  NvrtcProgram(const NvrtcProgram&) = delete;
  NvrtcProgram& operator=(const NvrtcProgram&) = delete;

  nvrtcProgram get() const { return program_; }
  void AddNameExpression(const std::string& expression);
  // NVRTC_SUCCESS, or why the source did not compile (NVRTC_ERROR_COMPILATION, an invalid option):
  // a result, not an exception; Log() says more.
  nvrtcResult Compile(const std::vector<std::string>& options);
  std::string Log() const;  // without trailing NULs and newlines
  std::string Cubin() const;

 private:
  nvrtcProgram program_ = nullptr;
};

}  // namespace tuner
