// Kernel files as projects publish them (host code, the C and C++ standard headers, CCCL) compile
// unchanged: NVRTC first, the toolkit's nvcc where NVRTC cannot take the file. No GPU needed.
#include "compile/nvcc_compiler.h"

#include <gtest/gtest.h>

#include <stdlib.h>

#include <filesystem>
#include <fstream>

#include "compile/compile_failure.h"
#include "compile/compiler.h"
#include "cuda/toolkit_dirs.h"
#include "db_test_util.h"
#include "template_fixtures.h"

namespace tuner {
namespace {

namespace fs = std::filesystem;

const std::string kPublished = std::string(TUNER_FIXTURES_DIR) + "/published";

// Sets an environment variable for one test.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    setenv(name, value, 1);
  }
  ~ScopedEnv() {
    if (old_.empty())
      unsetenv(name_.c_str());
    else
      setenv(name_.c_str(), old_.c_str(), 1);
  }

 private:
  std::string name_, old_;
};

class PublishedFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    if (FindNvcc().empty()) GTEST_FAIL() << "the CUDA toolkit's nvcc is needed by these tests (CUDA_HOME)";
  }
  std::string folder_ = (fs::temp_directory_path() / ("tuner-published-" + std::to_string(getpid()))).string();
  void TearDown() override { fs::remove_all(folder_); }

  // The fixture's description and its kernel file, in a folder of the test's own.
  TemplateSpec Load(const std::string& name, const std::string& edit_from = "", const std::string& edit_to = "") {
    fs::create_directories(folder_);
    fs::copy_file(kPublished + "/" + name + ".cu", folder_ + "/" + name + ".cu", fs::copy_options::overwrite_existing);
    std::string description = db::testing::ReadBytes(kPublished + "/" + name + ".toml");
    if (!edit_from.empty()) description = testing::Replaced(description, edit_from, edit_to);
    std::ofstream(folder_ + "/" + name + ".toml") << description;
    return LoadTemplateFile(folder_ + "/" + name + ".toml");
  }
};

TEST_F(PublishedFiles, ALayernormFileWithHostCodeCompilesUnchangedForItsCandidatesAndItsReference) {
  const TemplateSpec spec = Load("layernorm");
  for (const long long block : {32LL, 1024LL}) {
    const CompileResult r = CompileCandidate(spec, {{"BLOCK_SIZE", block}}, spec.kernel, "sm_90");
    ASSERT_TRUE(r.ok) << r.log;
    EXPECT_EQ(r.lowered_name, "_Z25layernorm_forward_kernel3PfS_S_PK13__nv_bfloat16S2_S2_ii");
    EXPECT_GT(r.info.regs_per_thread, 0);
    EXPECT_EQ(r.cubin.substr(1, 3), "ELF");
  }
  const CompileResult reference = CompileCandidate(spec, {{"BLOCK_SIZE", 32}}, spec.check.kernel, "sm_90");
  ASSERT_TRUE(reference.ok) << reference.log;
  EXPECT_EQ(reference.lowered_name, "_Z25layernorm_forward_kernel1PfS_S_PK13__nv_bfloat16S2_S2_ii");
}

TEST_F(PublishedFiles, ATemplatedSoftmaxWithCubAndTheStandardLibraryCompilesEachConfiguration) {
  const TemplateSpec spec = Load("softmax");
  const CompileResult r = CompileCandidate(spec, {{"ILP", 2}, {"BLOCK", 1024}}, spec.kernel, "sm_90");
  ASSERT_TRUE(r.ok) << r.log;
  EXPECT_EQ(r.lowered_name, "_ZN6native19cunn_SoftMaxForwardI6__halffLi2ELi1024EEEvPT_PKS2_l");
  EXPECT_GT(r.info.static_smem_bytes, 0);  // CUB's temporary storage
  const CompileResult reference = CompileCandidate(spec, {{"ILP", 1}, {"BLOCK", 64}}, spec.check.kernel, "sm_90");
  ASSERT_TRUE(reference.ok) << reference.log;
  EXPECT_EQ(reference.lowered_name, "_ZN6native17softmax_referenceI6__halfEEvPT_PKS2_l");
}

TEST_F(PublishedFiles, TheProjectsOwnFlagIsWhatAConstexprHostCallNeedsAndTheReasonSaysSo) {
  const TemplateSpec spec = Load("softmax", "options = [\"--expt-relaxed-constexpr\"]", "");
  const CompileResult r = CompileCandidate(spec, {{"ILP", 1}, {"BLOCK", 64}}, spec.kernel, "sm_90");
  ASSERT_FALSE(r.ok);
  const std::string reason = CompileFailureReason(r.log, spec.source_path);
  EXPECT_NE(reason.find("softmax.cu("), std::string::npos) << reason;  // the project's file, not a scratch copy
  EXPECT_EQ(reason.find("tuner-nvcc-"), std::string::npos) << reason;
  EXPECT_NE(LikelyFix(reason).find("--expt-relaxed-constexpr"), std::string::npos) << reason;
}

TEST_F(PublishedFiles, ANameWrittenThroughATypedefThatFitsSeveralInstantiationsListsThem) {
  const TemplateSpec spec = Load("softmax", "<__half, float, ILP, BLOCK>", "<half, float, ILP, BLOCK>");
  const CompileResult r = CompileCandidate(spec, {{"ILP", 4}, {"BLOCK", 256}}, spec.kernel, "sm_90");
  ASSERT_FALSE(r.ok);
  const std::string reason = CompileFailureReason(r.log, spec.source_path);
  EXPECT_NE(reason.find("no entry point"), std::string::npos) << reason;
  EXPECT_NE(reason.find("native::cunn_SoftMaxForward<__half, float, 4, 256>"), std::string::npos) << reason;
}

TEST_F(PublishedFiles, WithoutNvccTheReasonNamesTheHeaderAndTheWayOut) {
  const ScopedEnv no_nvcc("TUNER_NVCC", "none");
  const TemplateSpec spec = Load("layernorm");
  const CompileResult r = CompileCandidate(spec, {{"BLOCK_SIZE", 32}}, spec.kernel, "sm_90");
  ASSERT_FALSE(r.ok);
  const std::string reason = CompileFailureReason(r.log, spec.source_path);
  EXPECT_NE(reason.find("cannot open source file \"assert.h\""), std::string::npos) << reason;
  EXPECT_NE(LikelyFix(reason).find("nvcc"), std::string::npos);
  EXPECT_NE(r.log.find(NoNvccAdvice()), std::string::npos) << r.log;
}

TEST_F(PublishedFiles, CompilerNvrtcNeverRunsNvccAndTheReasonSaysWhatNvccWouldTake) {
  const TemplateSpec spec = Load("layernorm", "kernel = ", "compiler = \"nvrtc\"\nkernel = ");
  EXPECT_EQ(spec.compiler, CompilerChoice::kNvrtc);
  const CompileResult r = CompileCandidate(spec, {{"BLOCK_SIZE", 32}}, spec.kernel, "sm_90");
  ASSERT_FALSE(r.ok);
  EXPECT_EQ(r.log.find(NoNvccAdvice()), std::string::npos);
  EXPECT_NE(LikelyFix(CompileFailureReason(r.log, spec.source_path)).find("C or C++ standard header needs nvcc"),
            std::string::npos);
}

TEST_F(PublishedFiles, CompilerNvccCompilesAFileNvrtcCouldTakeToo) {
  fs::create_directories(folder_);
  const std::string path =
      testing::WriteTemplateFiles(folder_, "small", "compiler = \"nvcc\"\n" + std::string(testing::kSmallDescription));
  const TemplateSpec spec = LoadTemplateFile(path);
  const CompileResult r = CompileCandidate(spec, {}, spec.kernel, "sm_90");
  ASSERT_TRUE(r.ok) << r.log;
  EXPECT_EQ(r.lowered_name, "k");
  EXPECT_NE(CompilerIdentity(spec),
            CompilerIdentity(LoadTemplateFile(testing::WriteTemplateFiles(
                folder_, "small2", "compiler = \"nvrtc\"\n" + std::string(testing::kSmallDescription)))));
}

TEST_F(PublishedFiles, NvrtcFindsTheToolkitsCcclHeadersByItself) {
  fs::create_directories(folder_);
  std::string description =
      testing::Replaced(testing::kSmallDescription, "kernel = \"k\"", "compiler = \"nvrtc\"\nkernel = \"rowmax<256>\"");
  description = testing::Replaced(description, "kernel = \"k_reference\"", "reference = \"own_configuration\"");
  description = testing::Replaced(description, "[check]",
                                  "[[arg]]\nname = \"in\"\ntype = \"float\"\nlength = \"N\"\n"
                                  "init = \"random\"\n[[arg]]\nname = \"n\"\ntype = \"int\"\n"
                                  "value = \"N\"\n[check]");
  const std::string path = testing::WriteTemplateFiles(folder_, "small", description,
                                                       db::testing::ReadBytes(kPublished + "/rowmax_cccl.cu"));
  const TemplateSpec spec = LoadTemplateFile(path);
  const CompileResult r = CompileCandidate(spec, {}, spec.kernel, "sm_90");
  ASSERT_TRUE(r.ok) << r.log;
  EXPECT_EQ(r.lowered_name, "_Z6rowmaxILi256EEvPfPKfi");
}

// Each standard header a kernel file includes, used by host or device code as projects use it.
struct HeaderUse {
  const char* header;
  const char* device;  // a statement of the kernel
  const char* host;    // a statement of main
};

class StandardHeader : public PublishedFiles, public ::testing::WithParamInterface<HeaderUse> {};

TEST_P(StandardHeader, AFileWithHostCodeThatIncludesItCompilesForSm90) {
  const HeaderUse use = GetParam();
  const std::string source = std::string("#include <") + use.header +
                             ">\n#include <cuda_runtime.h>\n"
                             "extern \"C\" __global__ void k(float* o) {\n  " +
                             use.device +
                             "\n}\n"
                             "extern \"C\" __global__ void k_reference(float* o) { o[threadIdx.x] = 1; }\n"
                             "int main() {\n  float* o = nullptr;\n  cudaMalloc(&o, 1024 * sizeof(float));\n  " +
                             use.host +
                             "\n  k<<<8, 128>>>(o);\n  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;\n}\n";
  const std::string path = testing::WriteTemplateFiles(folder_, "small", testing::kSmallDescription, source);
  const TemplateSpec spec = LoadTemplateFile(path);
  const CompileResult r = CompileCandidate(spec, {}, spec.kernel, "sm_90");
  ASSERT_TRUE(r.ok) << use.header << "\n" << r.log;
  EXPECT_EQ(r.lowered_name, "k");
}

INSTANTIATE_TEST_SUITE_P(
    PublishedFiles, StandardHeader,
    ::testing::Values(HeaderUse{"cassert", "assert(blockDim.x > 0); o[threadIdx.x] = 1;", "assert(o != nullptr);"},
                      HeaderUse{"assert.h", "assert(gridDim.x > 0); o[threadIdx.x] = 1;", "assert(o);"},
                      HeaderUse{"cstdio", "if (o == nullptr) printf(\"no output %d\\n\", threadIdx.x);",
                                "std::printf(\"%p\\n\", (void*)o);"},
                      HeaderUse{"cstdint", "o[threadIdx.x] = (float)(std::uint32_t)threadIdx.x;",
                                "std::int64_t n = 1024; (void)n;"},
                      HeaderUse{"limits", "o[threadIdx.x] = std::numeric_limits<int>::digits;",
                                "float big = std::numeric_limits<float>::max(); (void)big;"},
                      HeaderUse{"cmath", "o[threadIdx.x] = std::sqrt((float)threadIdx.x) + sinf(1.f);",
                                "double r = std::sqrt(2.0); (void)r;"},
                      HeaderUse{"type_traits", "o[threadIdx.x] = std::is_same<float, float>::value;",
                                "static_assert(std::is_pointer<float*>::value, \"pointer\");"},
                      HeaderUse{"algorithm", "o[threadIdx.x] = 2;", "int v[3] = {3, 1, 2}; std::sort(v, v + 3);"},
                      HeaderUse{"vector", "o[threadIdx.x] = 3;",
                                "std::vector<float> h(1024); cudaMemcpy(h.data(), o, 4096, cudaMemcpyDeviceToHost);"}),
    [](const ::testing::TestParamInfo<HeaderUse>& info) {
      std::string name = info.param.header;
      for (char& c : name)
        if (c == '.') c = '_';
      return name;
    });

TEST(ToolkitIncludeDirs, TheIncludeFolderWithItsCcclFolderOrTheHeadersBesideNvrtc) {
  const fs::path root = fs::temp_directory_path() / ("tuner-kit-" + std::to_string(getpid()));
  fs::create_directories(root / "kit" / "include" / "cccl");
  std::ofstream(root / "kit" / "include" / "cuda_fp16.h") << "";
  fs::create_directories(root / "old" / "include");
  std::ofstream(root / "old" / "include" / "cuda_fp16.h") << "";
  fs::create_directories(root / "wheel" / "lib");
  fs::create_directories(root / "wheel" / "include" / "cccl");
  std::ofstream(root / "wheel" / "include" / "cuda_fp16.h") << "";
  const std::string kit = (root / "kit").string(), old = (root / "old").string();
  EXPECT_EQ(ToolkitIncludeDirs({kit}, ""), (std::vector<std::string>{kit + "/include", kit + "/include/cccl"}));
  EXPECT_EQ(ToolkitIncludeDirs({old, kit}, ""), (std::vector<std::string>{old + "/include"}));
  const std::string wheel = (root / "wheel").string();
  EXPECT_EQ(ToolkitIncludeDirs({(root / "none").string()}, wheel + "/lib"),
            (std::vector<std::string>{wheel + "/include", wheel + "/include/cccl"}));
  EXPECT_TRUE(ToolkitIncludeDirs({(root / "none").string()}, "").empty());
  // NVIDIA's CUDA 12 wheels: site-packages/nvidia/{cuda_nvrtc/lib, cuda_runtime/include, cuda_cccl/include}.
  const fs::path nvidia = root / "site-packages" / "nvidia";
  fs::create_directories(nvidia / "cuda_nvrtc" / "lib");
  fs::create_directories(nvidia / "cuda_nvrtc" / "include");  // nvrtc.h only
  fs::create_directories(nvidia / "cuda_runtime" / "include");
  std::ofstream(nvidia / "cuda_runtime" / "include" / "cuda_fp16.h") << "";
  fs::create_directories(nvidia / "cuda_cccl" / "include" / "cub");
  EXPECT_EQ(ToolkitIncludeDirs({(root / "none").string()}, (nvidia / "cuda_nvrtc" / "lib").string()),
            (std::vector<std::string>{(nvidia / "cuda_runtime" / "include").string(),
                                      (nvidia / "cuda_cccl" / "include").string()}));
  fs::remove_all(root);
}

TEST(FindNvcc, TunerNvccNamesItOrTurnsItOff) {
  {
    const ScopedEnv none("TUNER_NVCC", "none");
    EXPECT_EQ(FindNvcc(), "");
  }
  {
    const ScopedEnv missing("TUNER_NVCC", "/nonexistent/nvcc");
    EXPECT_EQ(FindNvcc(), "");
  }
  const std::string found = FindNvcc();
  ASSERT_NE(found, "") << "no nvcc on this machine";
  const ScopedEnv named("TUNER_NVCC", found.c_str());
  EXPECT_EQ(FindNvcc(), found);
}

}  // namespace
}  // namespace tuner
