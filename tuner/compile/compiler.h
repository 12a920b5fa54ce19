// NVRTC: one candidate of a template compiled to a CUBIN for an exact architecture, with the
// resources ptxas reports (registers, shared memory, spills). A compile failure is a result with
// its log, not an exception, and so is a failure of NVRTC itself (the log names the call and error).
#pragma once

#include <string>
#include <vector>

#include "template/search_space.h"
#include "template/template_spec.h"

namespace tuner {

struct KernelInfo {
  int regs_per_thread = 0;
  long long static_smem_bytes = 0;
  int barriers = 0;
  int stack_bytes = 0;
  int spill_bytes = 0;  // stores + loads
};

struct CompileResult {
  bool ok = false;
  std::string log;           // NVRTC's log (errors, or ptxas's report)
  std::string cubin;         // the binary, when ok
  std::string lowered_name;  // the symbol to look the kernel up by
  KernelInfo info;
  double compile_ms = 0;
};

// `entry` is the template's kernel or its reference kernel; parameter names in a C++ name
// expression ("tile<TILE, PAD>") are replaced by their values. `arch` is "sm_90".
CompileResult CompileCandidate(const TemplateSpec& spec, const ParamValues& params, const std::string& entry,
                               const std::string& arch);

// Every option NVRTC gets for a candidate: the architecture, the language, ptxas's report, the
// parameters as macros and the template's own options (the cubin cache's key holds them all).
std::vector<std::string> NvrtcOptions(const TemplateSpec& spec, const ParamValues& params, const std::string& arch);

// "13.0"
std::string NvrtcVersion();

// What compiles the template's candidates, for the cache's key: NVRTC's version and, where nvcc
// may compile them (compiler "auto" or "nvcc"), the nvcc found with its size and time stamp.
std::string CompilerIdentity(const TemplateSpec& spec);

// The kernel's lines of a ptxas -v report (exposed for tests).
KernelInfo ParsePtxasReport(const std::string& log, const std::string& lowered_name);

}  // namespace tuner
