#include "cuda/nvrtc_program.h"

#include <algorithm>

#include "cuda/release_log.h"

namespace tuner {

void CheckNvrtc(nvrtcResult result, const char* call) {
  if (result != NVRTC_SUCCESS) throw NvrtcError(result, std::string(call) + " failed: " + nvrtcGetErrorString(result));
}

NvrtcProgram::NvrtcProgram(const std::string& source, const std::string& name,
                           const std::vector<NvrtcHeader>& headers) {
  std::vector<const char*> texts, names;
  for (const NvrtcHeader& h : headers) {
    texts.push_back(h.text.c_str());
    names.push_back(h.include_name.c_str());
  }
  CheckNvrtc(nvrtcCreateProgram(&program_, source.c_str(), name.c_str(), static_cast<int>(headers.size()), texts.data(),
                                names.data()),
             "nvrtcCreateProgram");
}

NvrtcProgram::~NvrtcProgram() {
  const nvrtcResult result = nvrtcDestroyProgram(&program_);
  if (result != NVRTC_SUCCESS) LogReleaseError("nvrtcDestroyProgram", nvrtcGetErrorString(result));
}

void NvrtcProgram::AddNameExpression(const std::string& expression) {
  CheckNvrtc(nvrtcAddNameExpression(program_, expression.c_str()), "nvrtcAddNameExpression");
}

nvrtcResult NvrtcProgram::Compile(const std::vector<std::string>& options) {
  std::vector<const char*> pointers;
  for (const std::string& o : options) pointers.push_back(o.c_str());
  return nvrtcCompileProgram(program_, static_cast<int>(pointers.size()), pointers.data());
}

std::string NvrtcProgram::Log() const {
  std::size_t size = 0;
  CheckNvrtc(nvrtcGetProgramLogSize(program_, &size), "nvrtcGetProgramLogSize");
  std::string log(size, '\0');
  if (size) CheckNvrtc(nvrtcGetProgramLog(program_, log.data()), "nvrtcGetProgramLog");
  log.erase(std::remove(log.begin(), log.end(), '\0'), log.end());  // also one before ptxas's messages
  while (!log.empty() && log.back() == '\n') log.pop_back();
  return log;
}

std::string NvrtcProgram::Cubin() const {
  std::size_t size = 0;
  CheckNvrtc(nvrtcGetCUBINSize(program_, &size), "nvrtcGetCUBINSize");
  std::string cubin(size, '\0');
  if (size) CheckNvrtc(nvrtcGetCUBIN(program_, cubin.data()), "nvrtcGetCUBIN");
  return cubin;
}

}  // namespace tuner
