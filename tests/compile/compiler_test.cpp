// NVRTC compiles without a GPU: these always run.
#include "compile/compiler.h"

#include <cuda_runtime_api.h>  // CUDART_VERSION: the toolkit of this build
#include <gtest/gtest.h>

#include <algorithm>
#include <regex>
#include <string>

#include "template/template_library.h"

namespace tuner {
namespace {

const TemplateSpec& Transpose() {
  static const TemplateLibrary library = LoadTemplateLibrary(TemplateSearchDirs({}));
  return library.Find("transpose");
}

TEST(Compiler, CompilesATransposeCandidateToACubinWithItsResources) {
  const ParamValues params = {{"VARIANT", 1}, {"TILE", 32}, {"ROWS", 8}, {"PAD", 1}};
  const CompileResult r = CompileCandidate(Transpose(), params, "transpose", "sm_90");
  ASSERT_TRUE(r.ok) << r.log;
  EXPECT_EQ(r.cubin.substr(0, 4),
            "\x7f"
            "ELF");
  EXPECT_EQ(r.lowered_name, "transpose");
  EXPECT_GT(r.info.regs_per_thread, 0);
  EXPECT_EQ(r.info.static_smem_bytes, 32 * 33 * 4);  // the padded tile
  EXPECT_EQ(r.info.barriers, 1);
  EXPECT_GT(r.compile_ms, 0);
}

TEST(Compiler, ACompileErrorIsAResultWithTheLog) {
  TemplateSpec broken = Transpose();
  broken.source_text += "\nthis is not C++;\n";
  const CompileResult r =
      CompileCandidate(broken, {{"VARIANT", 1}, {"TILE", 32}, {"ROWS", 8}, {"PAD", 1}}, "transpose", "sm_90");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.log.find("error"), std::string::npos) << r.log;
}

// The stored reason of a candidate that does not compile is NVRTC's first error, named by the
// source's file name (its folder left out), the line counted in the source NVRTC compiled.
TEST(Compiler, TheReasonOfACompileErrorIsTheFirstErrorOfTheLog) {
  TemplateSpec broken = Transpose();
  const long long line = std::count(broken.source_text.begin(), broken.source_text.end(), '\n') + 2;
  broken.source_text += "\n__device__ int broken() { return undefined_name; }\n";
  const CompileResult r =
      CompileCandidate(broken, {{"VARIANT", 1}, {"TILE", 32}, {"ROWS", 8}, {"PAD", 1}}, "transpose", "sm_90");
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(CompileFailureReason(r.log, broken.source_path),
            "compile: transpose.cu(" + std::to_string(line) + "): error: identifier \"undefined_name\" is undefined")
      << r.log;
}

TEST(Compiler, TheReasonSkipsWarningsAndFallsBackOnTheLastLine) {
  const std::string warned =
      "/t/k.cu(3): warning #177-D: variable \"error\" was declared but never referenced\n\n"
      "/t/k.cu(9): error #20: identifier \"y\" is undefined\n  int x = y;\n          ^\n\n"
      "/t/k.cu(11): error: expected a \";\"\n\n2 errors detected in the compilation of \"/t/k.cu\".\n";
  EXPECT_EQ(CompileFailureReason(warned, "/t/k.cu"), "compile: k.cu(9): error #20: identifier \"y\" is undefined");
  EXPECT_EQ(CompileFailureReason("catastrophic error: cannot open source file \"x.h\"\n", "/t/k.cu"),
            "compile: catastrophic error: cannot open source file \"x.h\"");
  EXPECT_EQ(CompileFailureReason("ptxas info : Used 8 registers\ncannot lower the kernel name 'tile<32>'\n", "/t/k.cu"),
            "compile: cannot lower the kernel name 'tile<32>'");
  EXPECT_EQ(CompileFailureReason("the NVRTC process failed on this candidate: the worker was killed by signal Killed",
                                 "/t/k.cu"),
            "compile: the NVRTC process failed on this candidate: the worker was killed by signal Killed");
  EXPECT_EQ(CompileFailureReason("\n \n", "/t/k.cu"), "compile: NVRTC failed without a log");
}

TEST(Compiler, LowersACppNameExpressionWithParameterValues) {
  TemplateSpec spec = Transpose();
  spec.source_text = "template <int T, int P> __global__ void tile(float* o) { o[0] = T + P; }\n";
  const CompileResult r = CompileCandidate(spec, {{"TILE", 32}, {"PAD", 1}}, "tile<TILE, PAD>", "sm_80");
  ASSERT_TRUE(r.ok) << r.log;
  EXPECT_EQ(r.lowered_name, "_Z4tileILi32ELi1EEvPf");
  EXPECT_GT(r.info.regs_per_thread, 0);
}

TEST(Compiler, ParsesThePtxasReportOfOneEntry) {
  const std::string log =
      "ptxas info    : Compiling entry function 'a' for 'sm_90'\n"
      "ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 8 registers, used 0 barriers\n"
      "ptxas info    : Compiling entry function 'b' for 'sm_90'\n"
      "ptxas         .     24 bytes stack frame, 12 bytes spill stores, 8 bytes spill loads\n"
      "ptxas info    : Used 255 registers, used 1 barriers, 8192 bytes smem, 380 bytes cmem[0]\n";
  const KernelInfo b = ParsePtxasReport(log, "b");
  EXPECT_EQ(b.regs_per_thread, 255);
  EXPECT_EQ(b.static_smem_bytes, 8192);
  EXPECT_EQ(b.spill_bytes, 20);
  EXPECT_EQ(b.stack_bytes, 24);
  EXPECT_EQ(b.barriers, 1);
  EXPECT_EQ(ParsePtxasReport(log, "a").regs_per_thread, 8);
}

// The version is the loaded libnvrtc's "major.minor". The toolkit the test was built with fixes the
// major (libnvrtc.so.N) and the lowest minor: a failed query ("0.0") or a garbled string fails.
TEST(Compiler, ReportsTheNvrtcVersionOfTheToolkitItWasBuiltWith) {
  const std::string version = NvrtcVersion();
  std::smatch parts;
  ASSERT_TRUE(std::regex_match(version, parts, std::regex("([0-9]+)\\.([0-9]+)"))) << version;
  EXPECT_EQ(std::stoi(parts[1]), CUDART_VERSION / 1000) << version;
  EXPECT_GE(std::stoi(parts[2]), CUDART_VERSION % 1000 / 10) << version;
}

}  // namespace
}  // namespace tuner
