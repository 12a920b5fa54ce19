// NVRTC compiles without a GPU: these always run.
#include "compile/compiler.h"

#include <cuda_runtime_api.h>  // CUDART_VERSION: the toolkit of this build
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "cuda/nvrtc_program.h"
#include "cuda/toolkit_dirs.h"
#include "template/macro_collisions.h"
#include "shipped_templates.h"
#include "template/template_library.h"

namespace tuner {
namespace {

using testing::Transpose;

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

TEST(Compiler, LowersACppNameExpressionWithParameterValues) {
  TemplateSpec spec = Transpose();
  spec.source_text = "template <int T, int P> __global__ void tile(float* o) { o[0] = T + P; }\n";
  const CompileResult r = CompileCandidate(spec, {{"TILE", 32}, {"PAD", 1}}, "tile<TILE, PAD>", "sm_80");
  ASSERT_TRUE(r.ok) << r.log;
  EXPECT_EQ(r.lowered_name, "_Z4tileILi32ELi1EEvPf");
  EXPECT_GT(r.info.regs_per_thread, 0);
}

// Kernels as people write them: C++ linkage, namespaces, templates, overloads. Each is found by
// its lowered name, and the resources are read from the CUBIN under that name.
TemplateSpec WithSource(const std::string& source, const std::string& kernel = "plain",
                        const std::vector<std::string>& params = {}) {
  TemplateSpec spec = Transpose();
  spec.source_text = source;
  spec.kernel = kernel;
  spec.headers.clear();
  spec.params.clear();
  for (const std::string& name : params) spec.params.push_back({name, {1, 2}, {}, false});
  spec.template_arguments = TemplateArgumentParams(spec);  // as the description reader finds them
  return spec;
}

constexpr const char* kCppKernels = R"(
__global__ void scale(float* out, float factor) { out[threadIdx.x] *= factor; }
__global__ void scale(int* out, int factor) { __shared__ int s[64]; s[threadIdx.x] = out[threadIdx.x];
  __syncthreads(); out[threadIdx.x] = s[63 - threadIdx.x] * factor; }
namespace image {
template <typename T, int TILE>
__global__ void blur(T* out) { __shared__ T tile[TILE]; tile[threadIdx.x] = out[threadIdx.x];
  __syncthreads(); out[threadIdx.x] = tile[TILE - 1 - threadIdx.x]; }
}  // namespace image
__global__ void plain(float* out) { out[0] = 1; }
)";

TEST(Compiler, FindsAPlainCppFunctionByItsLoweredName) {
  const CompileResult r = CompileCandidate(WithSource(kCppKernels), {}, "plain", "sm_90");
  ASSERT_TRUE(r.ok) << r.log;
  EXPECT_EQ(r.lowered_name, "_Z5plainPf");
  EXPECT_GT(r.info.regs_per_thread, 0);
}

TEST(Compiler, FindsATemplateInANamespaceWithParameterValuesAsArguments) {
  const TemplateSpec spec = WithSource(kCppKernels, "image::blur<float, TILE>", {"TILE"});
  EXPECT_EQ(spec.template_arguments, std::vector<std::string>{"TILE"});
  const CompileResult r = CompileCandidate(spec, {{"TILE", 128}}, spec.kernel, "sm_90");
  ASSERT_TRUE(r.ok) << r.log;
  EXPECT_EQ(r.lowered_name, "_ZN5image4blurIfLi128EEEvPT_");
  EXPECT_EQ(r.info.static_smem_bytes, 128 * 4);
  EXPECT_EQ(r.info.barriers, 1);
}

TEST(Compiler, AnOverloadIsChosenByACastInTheNameExpression) {
  const TemplateSpec spec = WithSource(kCppKernels);
  const CompileResult ints = CompileCandidate(spec, {}, "static_cast<void (*)(int*, int)>(scale)", "sm_90");
  ASSERT_TRUE(ints.ok) << ints.log;
  EXPECT_EQ(ints.lowered_name, "_Z5scalePii");
  EXPECT_EQ(ints.info.static_smem_bytes, 64 * 4);
  const CompileResult floats = CompileCandidate(spec, {}, "(void (*)(float*, float))scale", "sm_90");
  ASSERT_TRUE(floats.ok) << floats.log;
  EXPECT_EQ(floats.lowered_name, "_Z5scalePff");
  EXPECT_EQ(floats.info.static_smem_bytes, 0);
}

TEST(Compiler, AnAmbiguousOverloadIsACompileFailureNamingTheKernel) {
  const CompileResult r = CompileCandidate(WithSource(kCppKernels), {}, "scale", "sm_90");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.log.find("overloaded function \"scale\""), std::string::npos) << r.log;
}

// extern "C" kernels lower to their own name, and the CUBIN is the one compiled without a name
// expression, byte for byte.
TEST(Compiler, AnExternCKernelCompilesToTheSameCubinAsWithoutANameExpression) {
  const std::string source =
      "extern \"C\" __global__ void copy(float* o, const float* i) { o[threadIdx.x] = i[threadIdx.x] * K; }\n";
  const CompileResult r = CompileCandidate(WithSource(source), {{"K", 3}}, "copy", "sm_90");
  ASSERT_TRUE(r.ok) << r.log;
  EXPECT_EQ(r.lowered_name, "copy");
  NvrtcProgram unnamed(source, Transpose().source_path);
  std::vector<std::string> options = {"-arch=sm_90", "-std=c++17", "-Xptxas=-v", "-DK=3"};
  options.insert(options.end(), Transpose().options.begin(), Transpose().options.end());
  ASSERT_EQ(unnamed.Compile(options), NVRTC_SUCCESS) << unnamed.Log();
  EXPECT_EQ(r.cubin, unnamed.Cubin());
}

// A kernel as people write it in half precision includes the toolkit's device headers by name, as
// nvcc lets it: the toolkit's include folder is on NVRTC's path.
TEST(Compiler, AHalfPrecisionKernelIncludesTheToolkitsHeadersByName) {
  ASSERT_NE(ToolkitIncludeDir(ToolkitDirs()), "") << "no CUDA toolkit headers on this machine";
  const TemplateSpec spec = WithSource(R"(#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
extern "C" __global__ void mix(__nv_bfloat16* b, __half* h, __nv_fp8_e4m3* f, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { b[i] = __float2bfloat16(__half2float(h[i]) + float(f[i])); }
}
)",
                                       "mix");
  const CompileResult r = CompileCandidate(spec, {}, "mix", "sm_90");
  EXPECT_TRUE(r.ok) << r.log;
}

TEST(ToolkitDirs, TheIncludeFolderIsTheFirstToolkitWithTheHalfPrecisionHeader) {
  const std::filesystem::path root =
      std::filesystem::temp_directory_path() / ("toolkit_dirs_" + std::to_string(::getpid()));
  std::filesystem::create_directories(root / "empty/include");
  std::filesystem::create_directories(root / "kit/include");
  std::ofstream(root / "kit/include/cuda_fp16.h") << "// a header\n";
  const std::string empty = (root / "empty").string(), kit = (root / "kit").string();
  EXPECT_EQ(ToolkitIncludeDir({empty, kit}), kit + "/include");
  EXPECT_EQ(ToolkitIncludeDir({empty}), "");
  std::filesystem::remove_all(root);
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
