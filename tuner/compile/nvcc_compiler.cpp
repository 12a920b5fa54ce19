#include "compile/nvcc_compiler.h"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/input_file.h"
#include "common/run_command.h"
#include "common/scratch_folder.h"
#include "compile/lowered_name.h"

namespace tuner {

namespace fs = std::filesystem;

namespace {

// nvcc that runs longer has hung: no candidate of the shipped spaces takes a tenth of it.
constexpr double kNvccTimeoutS = 900;
// Far above any kernel's CUBIN: a larger file is no CUBIN of ours.
constexpr std::size_t kMaxCubinBytes = std::size_t{1} << 30;

// The source as the project has it, its messages naming the project's file and lines, and after it
// a reference to the kernel, which instantiates a template's configuration as a launch would.
std::string Wrapped(const TemplateSpec& spec, const std::string& name_expression) {
  std::ostringstream text;
  text << "#line 1 \"" << spec.source_path << "\"\n"
       << spec.source_text << "\n#line 1 \"" << spec.name << " (the description's kernel)\"\n"
       << "[[maybe_unused]] static const void* const tuner_entry_point_ = (const void*)(" << name_expression << ");\n";
  return text.str();
}

// The scratch folder's paths are nobody's business: the log names the project's file.
std::string WithoutScratch(std::string log, const std::string& scratch) {
  for (std::size_t at = log.find(scratch); at != std::string::npos; at = log.find(scratch, at))
    log.erase(at, scratch.size() + 1);
  return log;
}

}  // namespace

CompileResult CompileWithNvcc(const TemplateSpec& spec, const std::string& name_expression,
                              const std::vector<std::string>& options, const std::string& nvcc) {
  const auto start = std::chrono::steady_clock::now();
  CompileResult result;
  const ScratchFolder scratch("tuner-nvcc");
  const fs::path source = scratch.path() / (fs::path(spec.source_path).stem().string() + ".cu");
  const fs::path cubin = scratch.path() / "candidate.cubin";
  std::ofstream(source, std::ios::binary) << Wrapped(spec, name_expression);
  std::vector<std::string> argv = {nvcc, "-cubin", "-o", cubin.string()};
  argv.insert(argv.end(), options.begin(), options.end());
  // Quoted includes are looked for beside the project's file, as they are where it lives.
  argv.push_back("-I" + fs::absolute(spec.source_path).parent_path().string());
  argv.push_back(source.string());
  const CommandResult run = RunCommand(argv, kNvccTimeoutS);
  result.log = WithoutScratch(run.output, scratch.path().string());
  result.compile_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (run.timed_out) result.log += "\nnvcc did not finish within " + std::to_string(int(kNvccTimeoutS)) + " s";
  if (run.exit_code != 0) {
    if (result.log.empty()) result.log = "nvcc failed (" + nvcc + ")";
    return result;
  }
  std::string why;
  result.lowered_name = FindLoweredName(PtxasEntryNames(result.log), name_expression, why);
  if (result.lowered_name.empty()) {
    result.log += "\ncannot lower the kernel name '" + name_expression + "': " + why;
    return result;
  }
  result.cubin = ReadInputFile(cubin.string(), kMaxCubinBytes, "nvcc's CUBIN");
  result.info = ParsePtxasReport(result.log, result.lowered_name);
  result.ok = !result.cubin.empty();
  if (!result.ok) result.log += "\nnvcc produced no CUBIN";
  return result;
}

std::string NoNvccAdvice() {
  return "this file needs nvcc (host code or a C/C++ standard header, which NVRTC cannot take) and no nvcc was "
         "found: install the CUDA toolkit, or name it with CUDA_HOME or TUNER_NVCC";
}

}  // namespace tuner
