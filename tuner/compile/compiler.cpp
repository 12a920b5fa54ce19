#include "compile/compiler.h"

#include "compile/cubin_elf.h"
#include "compile/nvcc_compiler.h"
#include "cuda/nvrtc_program.h"
#include "cuda/toolkit_dirs.h"

#include <nvrtc.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <mutex>
#include <regex>
#include <shared_mutex>
#include <vector>

namespace tuner {

namespace {

bool IsIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Replaces whole-word parameter names in a C++ name expression by their values.
std::string SubstituteParams(const std::string& expression, const ParamValues& params) {
  std::string result;
  for (std::size_t i = 0; i < expression.size();) {
    if (!IsIdentifierChar(expression[i])) {
      result += expression[i++];
      continue;
    }
    std::size_t end = i;
    while (end < expression.size() && IsIdentifierChar(expression[end])) ++end;
    std::string word = expression.substr(i, end - i);
    for (const auto& [name, value] : params)
      if (word == name) word = std::to_string(value);
    result += word;
    i = end;
  }
  return result;
}

CompileResult CompileOnce(const TemplateSpec& spec, const ParamValues& params, const std::string& entry,
                          const std::string& arch);

// Registers, static shared memory and barriers come from the CUBIN itself; ptxas's report adds
// spills and stack when the log has it. A report that disagrees with the CUBIN (NVRTC's log of a
// program compiled while others compile can carry the wrong report) is redone with the other
// compiles held off, and the CUBIN wins if they still disagree.
bool TakeResourcesFromCubin(CompileResult& r, const std::string& arch) {
  const auto elf = ReadCubinResources(r.cubin, r.lowered_name, arch);
  if (!elf) {
    r.ok = false;
    r.log += "\ncannot read the resources of " + r.lowered_name + " from its CUBIN";
    return true;
  }
  const bool has_report = r.info.regs_per_thread > 0;
  const bool agrees = !has_report || (r.info.regs_per_thread == elf->regs_per_thread &&
                                      r.info.static_smem_bytes == elf->static_smem_bytes);
  r.info.regs_per_thread = elf->regs_per_thread;
  r.info.static_smem_bytes = elf->static_smem_bytes;
  r.info.barriers = elf->barriers;
  return agrees;
}

CompileResult CompileWithResources(const TemplateSpec& spec, const ParamValues& params, const std::string& entry,
                                   const std::string& arch) {
  static std::shared_mutex exclusive;
  {
    std::shared_lock<std::shared_mutex> shared(exclusive);
    CompileResult result = CompileOnce(spec, params, entry, arch);
    if (!result.ok || TakeResourcesFromCubin(result, arch)) return result;
  }
  std::unique_lock<std::shared_mutex> alone(exclusive);
  CompileResult result = CompileOnce(spec, params, entry, arch);
  if (result.ok && !TakeResourcesFromCubin(result, arch)) result.info.spill_bytes = result.info.stack_bytes = 0;
  return result;
}

}  // namespace

std::vector<std::string> NvrtcOptions(const TemplateSpec& spec, const ParamValues& params, const std::string& arch) {
  std::vector<std::string> options = {"-arch=" + arch, "-Xptxas=-v"};
  // C++17 unless the project says which language it is written in.
  const bool has_standard = std::any_of(spec.options.begin(), spec.options.end(), [](const std::string& o) {
    return o.rfind("-std", 0) == 0 || o.rfind("--std", 0) == 0;
  });
  if (!has_standard) options.push_back("-std=c++17");
  // The toolkit's headers (<cuda_fp16.h>, CCCL's <cuda/std/...>, <cub/...>), as nvcc finds them.
  static const std::vector<std::string> toolkit_includes = ToolkitIncludeDirs(ToolkitDirs(), LoadedNvrtcDir());
  for (const std::string& dir : toolkit_includes) options.push_back("-I" + dir);
  for (const auto& [name, value] : params)  // a template argument reaches the kernel through its name instead
    if (!std::count(spec.template_arguments.begin(), spec.template_arguments.end(), name))
      options.push_back("-D" + name + "=" + std::to_string(value));
  options.insert(options.end(), spec.options.begin(), spec.options.end());
  return options;
}

CompileResult CompileCandidate(const TemplateSpec& spec, const ParamValues& params, const std::string& entry,
                               const std::string& arch) {
  try {
    return CompileWithResources(spec, params, entry, arch);
  } catch (const NvrtcError& e) {  // NVRTC itself failed on this candidate, as a crashed NVRTC process would
    CompileResult failed;
    failed.log = e.what();
    return failed;
  }
}

namespace {

// NVRTC's words for a file it cannot take and nvcc can: a header it has no copy of (the C and C++
// standard headers, host headers), host code, or an option of the project's build that only nvcc
// knows (--expt-relaxed-constexpr).
bool NeedsNvcc(const std::string& nvrtc_log) {
  return nvrtc_log.find("cannot open source file") != std::string::npos ||
         nvrtc_log.find("are not allowed in JIT mode") != std::string::npos ||
         nvrtc_log.find("unrecognized option") != std::string::npos;
}

CompileResult CompileWithNvrtc(const TemplateSpec& spec, const std::string& name_expression,
                               const std::vector<std::string>& options, const std::string& arch);

CompileResult CompileOnce(const TemplateSpec& spec, const ParamValues& params, const std::string& entry,
                          const std::string& arch) {
  const std::string name_expression = SubstituteParams(entry, params);
  const std::vector<std::string> options = NvrtcOptions(spec, params, arch);
  CompileResult nvrtc;  // NVRTC's attempt, kept for its log when nvcc is needed and missing
  if (spec.compiler != CompilerChoice::kNvcc) {
    nvrtc = CompileWithNvrtc(spec, name_expression, options, arch);
    if (nvrtc.ok || spec.compiler == CompilerChoice::kNvrtc || !NeedsNvcc(nvrtc.log)) return nvrtc;
  }
  const std::string nvcc = FindNvcc();
  if (nvcc.empty()) {
    nvrtc.log += "\n" + NoNvccAdvice();
    return nvrtc;
  }
  return CompileWithNvcc(spec, name_expression, options, nvcc);
}

CompileResult CompileWithNvrtc(const TemplateSpec& spec, const std::string& name_expression,
                               const std::vector<std::string>& options, const std::string& arch) {
  const auto start = std::chrono::steady_clock::now();
  CompileResult result;
  std::vector<NvrtcHeader> headers;
  for (const SourceHeader& h : spec.headers) headers.push_back({h.include_name, h.text});
  NvrtcProgram program(spec.source_text, spec.source_path, headers);
  // Every entry point is looked up by its lowered name, so C++ linkage, templates, namespaces and
  // overloads chosen by a cast work; an extern "C" kernel lowers to its own name.
  program.AddNameExpression(name_expression);
  const nvrtcResult status = program.Compile(options);
  result.log = program.Log();
  result.compile_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (status != NVRTC_SUCCESS) {
    if (result.log.empty()) result.log = nvrtcGetErrorString(status);
    return result;
  }
  const char* name = nullptr;
  if (nvrtcGetLoweredName(program.get(), name_expression.c_str(), &name) != NVRTC_SUCCESS || !name) {
    result.log += "\ncannot lower the kernel name '" + name_expression + "'";
    return result;
  }
  result.lowered_name = name;
  result.cubin = program.Cubin();
  result.info = ParsePtxasReport(result.log, result.lowered_name);
  result.ok = !result.cubin.empty();
  if (!result.ok) result.log += "\nNVRTC produced no CUBIN for " + arch;
  return result;
}

}  // namespace

KernelInfo ParsePtxasReport(const std::string& log, const std::string& lowered_name) {
  KernelInfo info;
  // The report of one entry runs from "Compiling entry function 'NAME'" to the next such line.
  const std::string marker = "Compiling entry function '" + lowered_name + "'";
  std::size_t begin = log.find(marker);
  if (begin == std::string::npos) return info;
  std::size_t end = log.find("Compiling entry function", begin + marker.size());
  const std::string block = log.substr(begin, end == std::string::npos ? std::string::npos : end - begin);
  std::smatch m;
  if (std::regex_search(block, m,
                        std::regex(R"((\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads)"))) {
    info.stack_bytes = std::stoi(m[1]);
    info.spill_bytes = std::stoi(m[2]) + std::stoi(m[3]);
  }
  if (std::regex_search(block, m, std::regex(R"(Used (\d+) registers)"))) info.regs_per_thread = std::stoi(m[1]);
  if (std::regex_search(block, m, std::regex(R"(used (\d+) barriers)"))) info.barriers = std::stoi(m[1]);
  if (std::regex_search(block, m, std::regex(R"((\d+) bytes smem)"))) info.static_smem_bytes = std::stoll(m[1]);
  return info;
}

std::string CompilerIdentity(const TemplateSpec& spec) {
  std::string identity = "nvrtc " + NvrtcVersion();
  if (spec.compiler == CompilerChoice::kNvrtc) return identity;
  static const std::string nvcc = [] {
    const std::string path = FindNvcc();
    std::error_code error;
    if (path.empty()) return std::string("no nvcc");
    const auto size = std::filesystem::file_size(path, error);
    const auto stamp = std::filesystem::last_write_time(path, error).time_since_epoch().count();
    return path + " " + std::to_string(size) + " " + std::to_string(stamp);
  }();
  return identity + ", " + nvcc;
}

std::string NvrtcVersion() {
  int major = 0, minor = 0;
  CheckNvrtc(nvrtcVersion(&major, &minor), "nvrtcVersion");
  return std::to_string(major) + "." + std::to_string(minor);
}

}  // namespace tuner
